"""Export and import against the real Redis store: byte-identical round trips, refusals, annotations."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
import redis

from record.chain import envelope_hash
from replays import archive, notation
from service import game_files
from service.annotations import Annotations, Author, visible
from service.errors import Conflict, GameExists, Unauthorized, Unprocessable
from service.games import GameService
from service.store import GLOBAL_STREAM, EventStore, annotations_key, archive_key, stream_key
from tests.replays.play import play_on, play_service, setup_of

GAMES = ["kahuna", "ikibiti-ships", "opodopo-gods"]


@pytest.fixture
def service(redis_client: redis.Redis) -> GameService:
    """The application layer on the flushed real Redis; scorings are run by the test itself."""
    return GameService(EventStore(redis_client), redis_client)


@pytest.fixture
def notes(redis_client: redis.Redis) -> Annotations:
    return Annotations(redis_client)


def annotate_during_and_after(service: GameService, notes: Annotations, game_id: str) -> None:
    loaded = service.load(game_id)
    notes.add(
        loaded, Author("seat", "Ana", 0), {"version": 12, "kind": "comment", "text": "I hold the LALEs"}
    )
    notes.add(loaded, Author("seat", "Ben", 1), {"version": 20, "kind": "mark", "mark": "?!"})
    notes.add(loaded, Author("guest", "Kibitz"), {"version": 0, "kind": "comment", "text": "Nice opening"})
    lines = [["ALOA", "BARI"]] if loaded.setup["game"] == "kahuna" else [["Arabana", "Barilub"]]
    notes.add(loaded, Author("analysis", "engine"), {"version": 30, "kind": "highlight", "lines": lines})


@pytest.mark.parametrize("name", GAMES)
def test_export_import_export_gives_the_same_bytes(
    service: GameService, notes: Annotations, name: str
) -> None:
    game_id = play_service(service, random.Random(5), setup_of(name))
    annotate_during_and_after(service, notes, game_id)
    exported = game_files.export_game(service, notes, game_id, None)

    imported = game_files.import_game(service, exported)

    again = game_files.export_game(service, notes, imported.game_id, None)
    assert again == exported
    assert game_files.export_game(service, notes, game_id, 1) == exported  # revealed: the same for all
    original, copy = service.load(game_id).envelopes, service.load(imported.game_id).envelopes
    assert [(e.hash, e.at, e.event_id) for e in copy] == [(e.hash, e.at, e.event_id) for e in original]
    assert imported.version == len(original) and game_files.is_archived(service, imported.game_id)
    assert json.loads(exported.split("\n")[0])["annotations"] == 4


def test_an_imported_game_keeps_every_secret_with_its_salt_and_digest(
    service: GameService, notes: Annotations
) -> None:
    game_id = play_service(service, random.Random(8), setup_of("opodopo-gods"))

    imported = game_files.import_game(service, game_files.export_game(service, notes, game_id, None))

    original, copy = service.load(game_id).envelopes, service.load(imported.game_id).envelopes
    kept = [(e.secret, e.salt, e.secret_digest) for e in copy]
    assert kept == [(e.secret, e.salt, e.secret_digest) for e in original]
    assert all(len(salt) == 64 for secret, salt, _ in kept if secret is not None)


def test_a_game_with_undos_round_trips_and_refolds_as_the_service_folds(
    service: GameService, notes: Annotations
) -> None:
    game_id = service.create(setup_of("kahuna")).game_id
    rng = random.Random(12)
    for _ in range(40):
        play_on(service, game_id, rng, until_version=service.load(game_id).version + 1)
        last = service.load(game_id).envelopes[-1]
        if last.type == "BridgePlaced" and last.actor.startswith("seat:"):
            service.execute(game_id, int(last.actor[5:]), {"type": "Undo", "scope": "command"})
    play_on(service, game_id, rng)
    exported = game_files.export_game(service, notes, game_id, None)
    read = archive.read(exported)
    assert any(e.type == "Undone" for e in read.envelopes)

    imported = game_files.import_game(service, exported)

    assert game_files.export_game(service, notes, imported.game_id, None) == exported
    assert archive.refold(read) == service.load(game_id).state
    events = list(archive.event_dicts(read))
    assert notation.parse(notation.format(events)) == notation.record(events)


def test_an_imported_game_is_read_only_and_has_no_seat(service: GameService, notes: Annotations) -> None:
    game_id = play_service(service, random.Random(1), setup_of("kahuna"))
    imported = game_files.import_game(service, game_files.export_game(service, notes, game_id, None))

    with pytest.raises(Conflict) as refused:
        service.execute(imported.game_id, 0, {"type": "DrawCard", "source": "stack"})

    assert refused.value.code == "game_archived"
    assert service.redis.hlen(f"game:{{{imported.game_id}}}:seats") == 0
    assert game_files.archive_header(service, imported.game_id)["game"] == "kahuna"


def test_a_tampered_byte_is_refused_naming_its_event_and_nothing_is_written(
    service: GameService, notes: Annotations, redis_client: redis.Redis
) -> None:
    game_id = play_service(service, random.Random(2), setup_of("kahuna"))
    lines = game_files.export_game(service, notes, game_id, None).split("\n")
    lines[17] = lines[17].replace('"actor":"', '"actor":"x', 1)
    keys = set(redis_client.keys("*"))

    with pytest.raises(Unprocessable) as refused:
        game_files.import_game(service, "\n".join(lines))

    assert (refused.value.code, refused.value.members["version"]) == ("verify_failed", 17)
    assert "event 17" in refused.value.message
    assert set(redis_client.keys("*")) == keys


def test_a_live_export_verifies_its_links_but_cannot_be_imported(
    service: GameService, notes: Annotations
) -> None:
    game_id = play_service(service, random.Random(3), setup_of("kahuna"), until_version=60)
    exported = game_files.export_game(service, notes, game_id, 0)

    result = archive.verify(exported)
    with pytest.raises(Unprocessable) as refused:
        game_files.import_game(service, exported)

    assert result.ok and result.unverifiable
    assert refused.value.code == "incomplete_export"
    assert refused.value.members["version"] == result.unverifiable[0]


def test_a_file_the_rules_cannot_fold_is_refused_naming_the_event(
    service: GameService, notes: Annotations
) -> None:
    game_id = play_service(service, random.Random(4), setup_of("kahuna"))
    read = archive.read(game_files.export_game(service, notes, game_id, None))
    bad = next(e for e in read.envelopes if e.type == "CardsPlayed").version
    forged = []
    for envelope in read.envelopes:
        if envelope.version == bad:
            envelope = replace(envelope, data={**envelope.data, "cards": ["NOPE"]})
        if envelope.version >= bad:
            envelope = replace(envelope, prev_hash=forged[-1].hash)
            envelope = replace(envelope, hash=envelope_hash(envelope))
        forged.append(envelope)

    with pytest.raises(Unprocessable) as refused:
        game_files.import_game(service, archive.export(forged, None, True))

    assert (refused.value.code, refused.value.members["version"]) == ("refold_failed", bad)


def test_the_complete_start_of_a_game_is_not_a_finished_game(
    service: GameService, notes: Annotations
) -> None:
    game_id = play_service(service, random.Random(6), setup_of("kahuna"))
    start = service.load(game_id).envelopes[:80]

    with pytest.raises(Unprocessable) as refused:
        game_files.import_game(service, archive.export(start, None, True))

    assert refused.value.code == "game_not_finished"


def test_the_store_imports_only_into_an_empty_game(
    service: GameService, notes: Annotations, redis_client: redis.Redis
) -> None:
    game_id = play_service(service, random.Random(7), setup_of("kahuna"))
    envelopes = service.load(game_id).envelopes
    store = EventStore(redis_client)
    pointers = redis_client.xlen(GLOBAL_STREAM)

    result = store.import_verbatim("copy", envelopes, '{"h":1}', ['{"a":1}'])

    assert result.versions == list(range(1, len(envelopes) + 1))
    assert result.positions == list(range(pointers + 1, pointers + len(envelopes) + 1))
    assert [e.hash for e in store.read("copy")] == [e.hash for e in envelopes]
    assert redis_client.get(archive_key("copy")) == b'{"h":1}'
    assert redis_client.xlen(annotations_key("copy")) == 1
    with pytest.raises(GameExists):
        store.import_verbatim("copy", envelopes, "{}")
    with pytest.raises(GameExists):
        store.import_verbatim(game_id, envelopes, "{}")
    with pytest.raises(ValueError):
        store.import_verbatim("broken", [replace(envelopes[0], hash="0" * 64)], "{}")
    assert redis_client.xlen(stream_key(game_id)) == len(envelopes)


# --- annotations --------------------------------------------------------------------------


def test_annotating_never_changes_the_game(
    service: GameService, notes: Annotations, redis_client: redis.Redis
) -> None:
    game_id = play_service(service, random.Random(8), setup_of("kahuna"), until_version=40)
    before = service.store.read(game_id)
    pointers = redis_client.xlen(GLOBAL_STREAM)

    loaded = service.load(game_id)
    notes.add(loaded, Author("seat", "Ana", 0), {"version": 3, "kind": "comment", "text": "hmm"})
    notes.add(loaded, Author("seat", "Ben", 1), {"version": 40, "kind": "mark", "mark": "!!"})
    notes.add(loaded, Author("seat", "Ben", 1), {"version": 7, "kind": "highlight", "islands": ["LALE"]})

    after = service.store.read(game_id)
    assert [(e.version, e.hash) for e in after] == [(e.version, e.hash) for e in before]
    assert archive.verify(archive.export(after, None, True)).ok
    assert redis_client.xlen(GLOBAL_STREAM) == pointers
    assert len(notes.list(game_id)) == 3


def test_a_seats_notes_stay_its_own_until_the_end(service: GameService, notes: Annotations) -> None:
    game_id = play_service(service, random.Random(9), setup_of("kahuna"), until_version=30)
    loaded = service.load(game_id)
    notes.add(loaded, Author("seat", "Ana", 0), {"version": 30, "kind": "comment", "text": "two LALE"})
    records = notes.list(game_id)

    assert [r["layer"] for r in visible(records, 0, ended=False)] == ["Ana"]
    assert visible(records, 1, ended=False) == [] and visible(records, None, ended=False) == []
    assert len(visible(records, 1, ended=True)) == 1


def test_only_the_seats_annotate_a_game_in_play(service: GameService, notes: Annotations) -> None:
    game_id = play_service(service, random.Random(10), setup_of("kahuna"), until_version=20)

    with pytest.raises(Unauthorized) as refused:
        notes.add(
            service.load(game_id), Author("guest", "Kibitz"), {"version": 3, "kind": "comment", "text": "x"}
        )

    assert refused.value.code == "token_required"


@pytest.mark.parametrize(
    ("author", "note", "code"),
    [
        (Author("guest", "Zoe"), {"version": 10_000, "kind": "comment", "text": "x"}, "version_out_of_range"),
        (
            Author("guest", "Zoe"),
            {"version": 3, "kind": "highlight", "islands": ["Atlantis"]},
            "unknown_island",
        ),
        (
            Author("guest", "Zoe"),
            {"version": 3, "kind": "highlight", "lines": [["ALOA", "LALE"]]},
            "unknown_line",
        ),
        (Author("guest", "Zoe"), {"version": 3, "kind": "mark"}, "bad_mark"),
        (Author("guest", "Zoe"), {"version": 3, "kind": "comment"}, "text_required"),
        (Author("guest", "Zoe"), {"version": 3, "kind": "comment", "text": "x", "mark": "!"}, "bad_mark"),
        (Author("guest", "Ana"), {"version": 3, "kind": "comment", "text": "x"}, "author_is_a_seat"),
        (Author("guest", "  "), {"version": 3, "kind": "comment", "text": "x"}, "author_required"),
    ],
)
def test_an_annotation_must_fit_the_game(
    service: GameService, notes: Annotations, author: Author, note: dict[str, object], code: str
) -> None:
    game_id = play_service(service, random.Random(11), setup_of("kahuna"))

    with pytest.raises(Unprocessable) as refused:
        notes.add(service.load(game_id), author, note)

    assert refused.value.code == code
