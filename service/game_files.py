"""Export, import and replay of games against the store; the file format is replays/archive.py.

An import verifies the file's hash chain, folds every event through the rules, and writes the
envelopes verbatim (same hashes, same times) under a new game id, marked archived: an archived
game takes no command and has no seat tokens. Exporting the imported game gives back the
same bytes.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.ending import platform_end
from domain.games import rules_for
from record.annotations import AnnotationRefused, check_imported
from record.canonical import canonical_json
from record.envelope import Envelope
from replays import archive
from service.annotations import Annotations, unprocessable, visible, without_ids
from service.errors import Conflict, Unprocessable
from service.games import GameService
from service.keys import layout_of
from service.loaded import Loaded
from service.store import archive_key


@dataclass(frozen=True)
class Imported:
    game_id: str
    version: int


def is_archived(service: GameService, game_id: str) -> bool:
    """Whether the game was imported from a file (and so is read-only)."""
    return service.archived.holds(game_id)


def refuse_archived(service: GameService, game_id: str) -> None:
    """Conflict(game_archived) for an imported game: it is a record, not a game in play."""
    if is_archived(service, game_id):
        raise Conflict("game_archived", "this game was imported from a file: it is read-only")


def archive_header(service: GameService, game_id: str) -> dict[str, Any] | None:
    """The header of the file an archived game was imported from; None for other games."""
    raw = service.redis.get(archive_key(game_id, layout_of(service.redis)))
    if raw is None:
        return None
    header: dict[str, Any] = json.loads(raw)
    return header


def visible_annotations(
    notes: Annotations, loaded: Loaded, viewer: int | None, layer: str | None = None
) -> list[dict[str, Any]]:
    """The game's annotations `viewer` may read (of one layer, when given), with their ids."""
    ended = loaded.over
    records = visible(notes.list(loaded.game_id), viewer, ended, loaded.revealed)
    return [r for r in records if layer is None or r["layer"] == layer]


def export_game(
    service: GameService,
    notes: Annotations,
    game_id: str,
    viewer: int | None,
    keys: Mapping[str, Any] | None = None,
) -> str:
    """The game file as `viewer` may see it (see replays/archive.py), publishing `keys` (the JWK
    set of the service's receipts); an imported game publishes its file's keys instead, as the
    receipts of its moves were signed where it was played.

    Read from the store, not from the fold cache: the file is evidence of what is stored,
    so a changed event shows in it (and its verify fails) even while a fold is cached."""
    loaded = service.load(game_id, fresh=True)
    records = without_ids(visible_annotations(notes, loaded, viewer))
    imported = archive_header(service, game_id)
    if imported is not None:
        keys = imported.get(archive.KEYS)
    return archive.export(loaded.envelopes, viewer, loaded.revealed, records, keys)


def import_game(service: GameService, content: str | bytes) -> Imported:
    """A new archived game holding the file's events verbatim; Unprocessable if the file fails."""
    game_file = _verified(content)
    if not game_file.complete:
        first = min(game_file.redacted)
        raise Unprocessable(
            "incomplete_export",
            f"{len(game_file.redacted)} events have their secrets withheld (the first is event "
            f"{first}): only the complete file of a finished game can be imported",
            version=first,
        )
    try:
        state = archive.refold(game_file)
    except archive.RefoldFailed as error:
        raise Unprocessable(
            "refold_failed",
            f"the rules cannot fold event {error.version}: {error.reason}",
            version=error.version,
        ) from None
    ended = platform_end(game_file.envelopes) is not None  # a resignation, an abort, a forfeit
    if not ended and not rules_for(game_file.header["game"]).is_terminal(state):
        last = game_file.envelopes[-1].version
        raise Unprocessable(
            "game_not_finished", f"the events end at version {last}, before the game does", version=last
        )
    board = getattr(getattr(state, "rules", None), "board", None)
    if board is None:  # a game on hexagonal cells: its highlights name the cells of its board data
        board = rules_for(game_file.header["game"]).board(game_file.header["game"])
    try:
        check_imported(game_file.annotations, len(game_file.envelopes), board, len(game_file.header["seats"]))
    except AnnotationRefused as refused:
        raise unprocessable(refused) from None
    game_id = secrets.token_hex(8)
    annotations = [canonical_json(record) for record in game_file.annotations]
    store_imported(
        service, game_id, game_file.envelopes, state, canonical_json(game_file.header), annotations
    )
    return Imported(game_id, len(game_file.envelopes))


def store_imported(
    service: GameService,
    game_id: str,
    envelopes: Sequence[Envelope],
    state: Any,
    header: str,
    annotations: Sequence[str] = (),
) -> None:
    """Write a verified, finished game (`state`: its fold) verbatim under `game_id`, archived,
    and list it: the import path of a file, and of a bulk load that folded its games already."""
    result = service.store.import_verbatim(game_id, envelopes, header, annotations)  # type: ignore[attr-defined]
    # Listed by where its events now stand in this store's all-events stream, not the file's.
    newest = replace(envelopes[-1], position=result.positions[-1])
    rules = rules_for(envelopes[0].data["game"])
    service.listings.record(Loaded(game_id, rules, state, [*envelopes[:-1], newest]))


def _verified(content: str | bytes) -> archive.Archive:
    try:
        game_file = archive.read(content)
    except archive.ArchiveError as error:
        raise Unprocessable("verify_failed", str(error), version=error.version, line=error.line) from None
    result = archive.verify_chain(game_file)
    if not result.ok:
        raise Unprocessable(
            "verify_failed",
            f"event {result.first_bad}: {result.reason}",
            version=result.first_bad,
            line=result.line,
        )
    return game_file


# --- replay ------------------------------------------------------------------------------


def replay(
    service: GameService, loaded: Loaded, viewer: int | None, annotations: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The game as steps, one per command, each described in words as `viewer` may see it
    (service.replay_steps: shared, to be read, never changed)."""
    steps = service.steps.of(loaded, viewer)
    return {"version": loaded.version, "steps": steps, "annotations": list(annotations)}


def view_at(service: GameService, loaded: Loaded, at: int, viewer: int | None) -> dict[str, Any]:
    """The game as `viewer` saw it at version `at` (1..current); every hand once revealed."""
    if not 1 <= at <= loaded.version:
        message = f"at must be a version 1..{loaded.version}"
        raise Unprocessable("at_out_of_range", message, errors={"at": [message]})
    state = service.past.state_at(loaded, at)
    body = {
        **loaded.rules.view(state, viewer),
        "game_id": loaded.game_id,
        "version": at,
        "latest_version": loaded.version,
    }
    hands = getattr(state, "hands", None)
    if loaded.revealed and hands is not None:
        body["hands"] = [list(hand) for hand in hands]  # the log is open: so is every hand
    return body
