"""The tournament bundle: one JSON Lines file holding a tournament's stream and all its games.

Pure (no Redis, no Flask): the service writes it, `replays verify` checks it offline.

    line 1        the header: format, format_version, the tournament's event count, and each
                  game's id and event count in the order the tournament assigned them
    lines 2..     the tournament's events, version 1..n, one line each (as in a game file)
    then          each game as its own game file (replays.archive): its header, its events

Every line is canonical JSON and every field is covered by a hash, a digest or a check
against a hashed copy, so a reader refuses any changed byte and names its line, the stream
(the tournament, a game, or the bundle's header) and the event number.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from record.canonical import canonical_json
from record.deal import game_revealed, tournament_revealed
from record.envelope import Envelope
from replays import archive
from replays.tournament_audit import (
    TOURNAMENT,
    AuditReport,
    BrokenPlace,
    assigned_games,
    audit,
    chain_fault,
    game_stream,
)

FORMAT = "archipelago-tournament"
FORMAT_VERSION = 1
MEDIA_TYPE = "application/x-ndjson"
BUNDLE = "bundle"
HEADER_FIELDS = ("events", "format", "format_version", "games")
_GAME_HEADER = b'"format":"' + archive.FORMAT.encode() + b'"'


class BundleError(ValueError):
    """A file that is not a readable bundle; `place` names where."""

    def __init__(self, place: BrokenPlace, streams: int = 0, events: int = 0) -> None:
        super().__init__(str(place))
        self.place = place
        self.streams = streams
        self.events = events


@dataclass(frozen=True)
class _Role:
    """What one line of a bundle holds: a stream's header (version None) or one of its events."""

    stream: str
    version: int | None


# --- writing -----------------------------------------------------------------------------


def write_bundle(
    tournament: Sequence[Envelope],
    games: Mapping[str, Sequence[Envelope]],
    viewer: int | None = None,
    keys: Mapping[str, Any] | None = None,
) -> bytes:
    """The bundle of a tournament and every game assigned in it, each game as `viewer` (None: a
    spectator) may see it: every secret of a game whose log is revealed after its end. `keys`,
    the JWK set of the service's receipts, goes into the header as `keys`."""
    order = assigned_games(tournament)
    if sorted(order) != sorted(games):
        raise ValueError(f"a bundle holds exactly the games assigned ({order}), not {sorted(games)}")
    empty = [g for g in order if not games[g]]
    if empty:
        raise ValueError(f"games {empty} have no events to bundle")
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "events": len(tournament),
        "games": [{"game_id": g, "events": len(games[g])} for g in order],
    }
    if keys is not None:
        header[archive.KEYS] = dict(keys)
    revealed = tournament_revealed(tournament)  # the lots' seed, once closed
    lines = [header, *(archive.event_line(e, viewer, revealed) for e in tournament)]
    text = "".join(canonical_json(line) + "\n" for line in lines)
    text += "".join(archive.export(games[g], viewer, game_revealed(games[g])) for g in order)
    return text.encode("utf-8")


# --- reading -----------------------------------------------------------------------------


def is_bundle(content: bytes) -> bool:
    """Whether `content` is a tournament bundle rather than one game's file.

    A first line naming the bundle's format says so; so does a first line naming neither
    format followed by game headers (a bundle whose header was damaged, to be named as such).
    """
    first, _, rest = bytes(content).partition(b"\n")
    if FORMAT.encode() in first:
        return True
    return _GAME_HEADER not in first and _GAME_HEADER in rest


def read_bundle(content: bytes) -> tuple[list[Envelope], dict[str, list[Envelope]]]:
    """The tournament's envelopes and each game's, by game id; BundleError naming the bad place.

    Checks the form of every line and every hash chain; `verify_bundle` adds the audit.
    """
    lines = bytes(content).split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    header = _read_header(lines)
    roles = _layout(header)
    streams, events = 1 + len(header["games"]), sum(r.version is not None for r in roles)
    try:
        tournament, games = _walk(lines, header, len(roles))
    except BundleError as error:
        # A walk led astray by a header that lies is the header's fault.
        raise BundleError(_layout_fault(lines, roles) or error.place, streams, events) from None
    if not bytes(content).endswith(b"\n"):
        raise BundleError(BrokenPlace(BUNDLE, None, len(lines), "the last line does not end with a newline"))
    if [g["game_id"] for g in header["games"]] != assigned_games(tournament):
        place = BrokenPlace(BUNDLE, None, 1, "the header's games are not the games the tournament assigned")
        raise BundleError(place, streams, events)
    return tournament, games


def _walk(
    lines: Sequence[bytes], header: Mapping[str, Any], announced: int
) -> tuple[list[Envelope], dict[str, list[Envelope]]]:
    """Every line read in the order the header announces, each stream's chain checked."""
    tournament = _read_tournament(lines, header["events"])
    games = {}
    offset = 2 + header["events"]
    for game in header["games"]:
        games[game["game_id"]] = _read_game(lines, offset, game["game_id"], game["events"])
        offset += 1 + game["events"]
    if len(lines) > announced:
        raise _broken(BUNDLE, None, announced + 1, "a line after the last game")
    return tournament, games


def _broken(stream: str, version: int | None, line: int, reason: str) -> BundleError:
    return BundleError(BrokenPlace(stream, version, line, reason))


def _read_header(lines: Sequence[bytes]) -> dict[str, Any]:
    try:
        header = archive.parse_line(lines[0] if lines else b"", 1, None)
    except archive.ArchiveError as error:
        raise _broken(BUNDLE, None, 1, error.reason) from None
    if header.get("format") != FORMAT or header.get("format_version") != FORMAT_VERSION:
        raise _broken(BUNDLE, None, 1, f"not an {FORMAT} file of format_version {FORMAT_VERSION}")
    games = header.get("games")
    well_formed = (
        sorted(set(header) - {archive.KEYS}) == list(HEADER_FIELDS)
        and (archive.KEYS not in header or archive.is_key_set(header[archive.KEYS]))
        and _count(header["events"], 1)
        and isinstance(games, list)
        and all(
            isinstance(g, dict)
            and sorted(g) == ["events", "game_id"]
            and isinstance(g["game_id"], str)
            and _count(g["events"], 1)
            for g in games
        )
    )
    if not well_formed:
        message = "the header holds format, format_version, events, games and a JWK set in keys only"
        raise _broken(BUNDLE, None, 1, message)
    return header


def _count(value: Any, least: int) -> bool:
    return type(value) is int and value >= least


def _layout(header: Mapping[str, Any]) -> list[_Role]:
    """What each line holds, as the header announces it (line n is roles[n - 1])."""
    roles = [_Role(BUNDLE, None)]
    roles += [_Role(TOURNAMENT, v) for v in range(1, header["events"] + 1)]
    for game in header["games"]:
        stream = game_stream(game["game_id"])
        roles += [_Role(stream, None), *(_Role(stream, v) for v in range(1, game["events"] + 1))]
    return roles


def _layout_fault(lines: Sequence[bytes], roles: Sequence[_Role]) -> BrokenPlace | None:
    """The header's line, when the lines tell another layout than it announces and every stream
    in them is numbered 1, 2, 3, ... without a gap (so no line is missing or out of place).

    When some line does not read, or the numbers have a gap, the header is taken at its word:
    the walk names the damaged line by the header's layout.
    """
    read = []
    for raw in lines[1:]:
        found = _kind(raw)
        if found is None:
            return None
        read.append(found)
    announced = [("header" if r.version is None else "event") for r in roles[1:]]
    if [kind for kind, _ in read] == announced:
        return None
    expected = 1
    for kind, version in read:
        if kind == "header":
            expected = 1
        elif version != expected:
            return None
        else:
            expected += 1
    return BrokenPlace(BUNDLE, None, 1, "the header's event counts are not the file's")


def _kind(raw: bytes) -> tuple[str, Any] | None:
    """("event", its version), ("header", None) for a game file's header, None for neither."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    if value.get("kind") == "event":
        return "event", value.get("version")
    return ("header", None) if value.get("format") == archive.FORMAT else None


def _read_tournament(lines: Sequence[bytes], count: int) -> list[Envelope]:
    envelopes = []
    for version in range(1, count + 1):
        line = 1 + version
        if line > len(lines):
            raise _broken(TOURNAMENT, version, line, "the file ends before this event")
        try:
            envelope, _ = archive.read_event(lines[line - 1], line, version)
        except archive.ArchiveError as error:
            raise _broken(TOURNAMENT, version, line, error.reason) from None
        envelopes.append(envelope)
    fault = chain_fault(envelopes)
    if fault is not None:
        raise _broken(TOURNAMENT, fault[0], 1 + fault[0], fault[1])
    return envelopes


def _read_game(lines: Sequence[bytes], offset: int, game_id: str, count: int) -> list[Envelope]:
    """Game `game_id`'s file, its header on line `offset`, read and chain-checked as a game file."""
    stream = game_stream(game_id)
    if offset + count > len(lines):
        _short(lines, offset, stream)
    try:
        announced = archive.parse_line(lines[offset - 1], offset, None).get("events")
    except archive.ArchiveError as error:
        raise _broken(stream, None, offset, error.reason) from None
    if announced != count:
        raise _broken(stream, None, offset, f"the game's header announces {announced!r} events, not {count}")
    section = b"".join(raw + b"\n" for raw in lines[offset - 1 : offset + count])
    try:
        game = archive.read(section)
    except archive.ArchiveError as error:
        changed = archive.changed_event(section) if error.line == 1 else None
        if changed is not None and changed.first_bad is not None and changed.line is not None:
            raise _broken(stream, changed.first_bad, offset + changed.line - 1, changed.reason) from None
        raise _broken(stream, error.version, offset + error.line - 1, error.reason) from None
    checked = archive.verify_chain(game)
    if not checked.ok:
        raise _broken(stream, checked.first_bad, offset + (checked.first_bad or 0), checked.reason)
    return game.envelopes


def _short(lines: Sequence[bytes], offset: int, stream: str) -> None:
    """A game cut short: two lines run together (a newline changed) or the file ends early."""
    for line in range(offset, len(lines) + 1):
        version = line - offset or None
        try:
            archive.parse_line(lines[line - 1], line, version)
        except archive.ArchiveError as error:
            raise _broken(stream, version, line, error.reason) from None
    line = max(offset, len(lines) + 1)
    raise _broken(stream, line - offset or None, line, "the file ends before this line")


def published_keys(content: bytes) -> dict[str, Any] | None:
    """The JWK set the bundle's header publishes (the service's receipt keys); None without one."""
    header = _read_header(bytes(content).split(b"\n", 1))
    keys: dict[str, Any] | None = header.get(archive.KEYS)
    return keys


def game_files(content: bytes) -> dict[str, bytes]:
    """Each game of a sound bundle as its own game file (replays.archive), by game id, in order."""
    tournament, games = read_bundle(content)
    lines = bytes(content).split(b"\n")
    files, offset = {}, 2 + len(tournament)
    for game_id, envelopes in games.items():
        files[game_id] = b"".join(raw + b"\n" for raw in lines[offset - 1 : offset + len(envelopes)])
        offset += 1 + len(envelopes)
    return files


# --- checking ----------------------------------------------------------------------------


def verify_bundle(content: bytes) -> AuditReport:
    """The audit of a bundle, offline; any changed byte is found with its stream, event and line."""
    try:
        tournament, games = read_bundle(content)
    except BundleError as error:
        return AuditReport(False, error.streams, error.events, broken=error.place)
    report = audit(tournament, games)
    if report.broken is None:
        return report
    return replace(report, broken=_placed(report.broken, tournament, games))


def _placed(
    place: BrokenPlace, tournament: Sequence[Envelope], games: Mapping[str, Sequence[Envelope]]
) -> BrokenPlace:
    """`place` with its line in the bundle: the audit knows streams and events, not lines."""
    headers = {TOURNAMENT: 1}  # the tournament's events follow the bundle's header
    line = 2 + len(tournament)
    for game_id, envelopes in games.items():  # in the order of the file
        headers[game_stream(game_id)] = line
        line += 1 + len(envelopes)
    if place.stream not in headers or (place.version is None and place.stream == TOURNAMENT):
        return place
    return replace(place, line=headers[place.stream] + (place.version or 0))
