"""The game file on its own (no Redis): canonical bytes, reading, and `verify` naming the event."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from record.chain import envelope_hash
from record.envelope import Envelope
from replays import archive
from tests.replays.play import SETUPS, rechained, sealed_game, setup_of, tampered

NOTE = {
    "layer": "Ana",
    "author_kind": "seat",
    "seat": 0,
    "version": 12,
    "kind": "mark",
    "mark": "!?",
    "at": "2026-11-22T10:05:00.000000Z",
}


@pytest.fixture(scope="module")
def game() -> list[Envelope]:
    return sealed_game(random.Random(7), setup_of("kahuna"))


@pytest.fixture(scope="module")
def exported(game: list[Envelope]) -> bytes:
    return archive.export(game, None, True, [NOTE]).encode()


def lines_of(content: bytes) -> list[bytes]:
    return content.split(b"\n")[:-1]


def test_every_line_is_canonical_json_and_the_file_ends_with_a_newline(exported: bytes) -> None:
    assert exported.endswith(b"\n") and b"\r" not in exported
    for line in lines_of(exported):
        value = json.loads(line)
        assert json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() == line


def test_the_header_names_the_game_and_counts_the_lines(game: list[Envelope], exported: bytes) -> None:
    header = json.loads(lines_of(exported)[0])

    assert header == {
        "format": "archipelago-game",
        "format_version": 3,
        "game": "kahuna",
        "options": {},
        "mode": "casual",
        "seats": ["Ana", "Ben"],
        "setup": game[0].data,
        "complete": True,
        "events": len(game),
        "annotations": 1,
    }
    assert len(lines_of(exported)) == 1 + len(game) + 1


def test_event_lines_carry_the_envelope_with_its_hashes_and_nothing_of_the_store(
    game: list[Envelope], exported: bytes
) -> None:
    line = json.loads(lines_of(exported)[5])

    assert line["kind"] == "event"
    assert {k: v for k, v in line.items() if k != "kind"} == {
        "version": 5,
        "type": game[4].type,
        "schema": game[4].schema,
        "data": game[4].data,
        "secret": game[4].secret,
        "salt": game[4].salt,
        "secret_digest": game[4].secret_digest,
        "audience": list(game[4].audience),
        "actor": game[4].actor,
        "command_id": game[4].command_id,
        "event_id": game[4].event_id,
        "at": game[4].at,
        "prev_hash": game[4].prev_hash,
        "hash": game[4].hash,
    }
    assert b'"position"' not in exported


def test_reading_and_writing_again_gives_the_same_bytes(exported: bytes) -> None:
    read = archive.read(exported)

    again = archive.export(read.envelopes, None, True, read.annotations)

    assert again.encode() == exported
    assert read.annotations == [NOTE] and read.complete


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_finished_game_of_every_variant_verifies_and_refolds_to_its_end(name: str) -> None:
    content = archive.export(sealed_game(random.Random(1), setup_of(name)), 1, True)

    assert archive.verify(content).ok
    assert archive.refold(archive.read(content)).phase == "ended"


# --- tampering ----------------------------------------------------------------------------


def test_a_tampered_byte_names_its_event(exported: bytes) -> None:
    line = lines_of(exported)[17]
    digit = line.index(b'"version":17') + len(b'"version":')

    result = archive.verify(tampered(exported, 17, digit, ord("8")))

    assert (result.ok, result.first_bad, result.line) == (False, 17, 18)
    assert result.reason == "numbered 87, expected 17"


def test_a_changed_value_in_the_data_is_a_hash_mismatch_at_that_event(exported: bytes) -> None:
    line = lines_of(exported)[30]
    position = line.index(b'"data":{') + len(b'"data":{') + 2  # inside the first key of data

    result = archive.verify(tampered(exported, 30, position, line[position] ^ 0x01))

    assert not result.ok and result.first_bad == 30


def test_random_single_byte_changes_always_name_the_event_they_hit(exported: bytes) -> None:
    rng = random.Random(11)
    events = len(lines_of(exported)) - 2
    for _ in range(150):
        version = rng.randrange(1, events + 1)
        line = lines_of(exported)[version]
        position = rng.randrange(len(line))
        byte = rng.choice([b for b in range(256) if b != line[position]])

        result = archive.verify(tampered(exported, version, position, byte))

        assert not result.ok and result.first_bad == version, (version, position, byte, result)


def test_a_tampered_hash_field_is_caught_at_its_own_event(exported: bytes) -> None:
    line = lines_of(exported)[40]
    position = line.index(b'"hash":"') + len(b'"hash":"')
    swapped = ord("a") if line[position] != ord("a") else ord("b")

    assert archive.verify(tampered(exported, 40, position, swapped)).first_bad == 40


def test_a_missing_event_line_names_the_first_event_out_of_place(exported: bytes) -> None:
    lines = lines_of(exported)
    del lines[20]

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert not result.ok and result.first_bad == 20


def test_a_recomputed_hash_still_breaks_the_next_link(game: list[Envelope]) -> None:
    forged = list(game)
    forged[9] = replace(forged[9], data={**forged[9].data, "forged": True})
    forged[9] = replace(forged[9], hash=envelope_hash(forged[9]))

    result = archive.verify(archive.export(forged, None, True))

    # Event 11 is intact and links to the hash event 10 had: event 10 is the forgery.
    assert not result.ok and result.first_bad == 10 and "next event links" in result.reason


def test_a_damaged_header_is_named_as_line_1(exported: bytes) -> None:
    lines = lines_of(exported)
    lines[0] = lines[0].replace(b'"game":"kahuna"', b'"game":"kahunb"')

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert (result.ok, result.first_bad, result.line) == (False, None, 1)


def test_a_changed_game_created_is_named_as_event_1_not_the_header_that_repeats_it(exported: bytes) -> None:
    lines = lines_of(exported)
    lines[1] = lines[1].replace(b'"name":"Ana"', b'"name":"Anb"', 1)

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert (result.ok, result.first_bad, result.line) == (False, 1, 2)
    assert result.reason.startswith("hash mismatch")


def test_a_salt_spelt_in_capitals_is_named_though_it_reads_as_the_same_bytes(exported: bytes) -> None:
    lines = lines_of(exported)
    number, line = next(
        (n, raw) for n, raw in enumerate(lines) if b'"salt":"' in raw and b'"salt":""' not in raw
    )
    start = line.index(b'"salt":"') + len(b'"salt":"')
    hex_letter = next(i for i in range(start, start + 64) if line[i : i + 1] in b"abcdef")
    lines[number] = line[:hex_letter] + line[hex_letter : hex_letter + 1].upper() + line[hex_letter + 1 :]

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert (result.ok, result.first_bad, result.line) == (False, number, number + 1)
    assert result.reason == "a salt is written in lowercase hex"


def test_a_truncated_file_names_the_first_missing_event(exported: bytes) -> None:
    lines = lines_of(exported)[:50]

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert not result.ok and result.first_bad == 50


def test_a_file_without_its_last_newline_is_refused(exported: bytes) -> None:
    assert not archive.verify(exported[:-1]).ok


# --- hidden information ---------------------------------------------------------------------


def test_a_live_export_withholds_what_its_viewer_may_not_read(game: list[Envelope]) -> None:
    content = archive.export(game, 0, revealed=False)
    read = archive.read(content)
    header = json.loads(content.split("\n")[0])

    withheld = {e.version for e in game if e.secret is not None and 0 not in e.audience}
    assert read.redacted == withheld and withheld
    assert header["complete"] is False and header["redacted_for"] == 0
    for line in content.split("\n")[1:-1]:
        event = json.loads(line)
        if event["version"] in withheld:
            assert event["secret"] is None and event["redacted"] is True
        else:
            assert "redacted" not in event


def test_a_redacted_file_verifies_every_link_and_lists_the_events_it_cannot_check(
    game: list[Envelope],
) -> None:
    content = archive.export(game, None, revealed=False)

    result = archive.verify(content)

    assert result.ok
    assert result.unverifiable == tuple(sorted(e.version for e in game if e.secret is not None))


def test_a_redacted_line_shows_the_secret_digest_and_never_the_salt(game: list[Envelope]) -> None:
    content = archive.export(game, None, revealed=False)
    lines = [json.loads(line) for line in content.split("\n")[1:-1]]

    hidden = [line for line in lines if line.get("redacted")]
    assert hidden and all(line["salt"] is None and line["secret"] is None for line in hidden)
    stored = {e.version: e.secret_digest for e in game}
    assert all(line["secret_digest"] == stored[line["version"]] for line in hidden)


def test_every_hash_of_a_redacted_file_is_recomputed(game: list[Envelope]) -> None:
    content = archive.export(game, None, revealed=False).encode()
    hidden = next(e.version for e in game if e.secret is not None and e.version > 3)
    line = lines_of(content)[hidden]
    position = line.index(b'"data":{') + len(b'"data":{') + 2

    result = archive.verify(tampered(content, hidden, position, line[position] ^ 0x01))

    assert (result.ok, result.first_bad) == (False, hidden)
    assert result.reason.startswith("hash mismatch")


def test_a_secret_swapped_in_a_complete_file_breaks_its_digest(game: list[Envelope]) -> None:
    drawn = next(e for e in game if e.type == "CardDrawn" and e.secret is not None)
    other = next(c for c in ("ALOA", "BARI") if c != drawn.secret["card"])
    forged = [replace(e, secret={"card": other}) if e is drawn else e for e in game]

    result = archive.verify(archive.export(forged, None, True))

    assert (result.ok, result.first_bad) == (False, drawn.version)
    assert result.reason.startswith("digest mismatch")


def test_a_plain_hash_file_of_format_1_is_refused_with_the_reason(exported: bytes) -> None:
    lines = lines_of(exported)
    lines[0] = lines[0].replace(b'"format_version":3', b'"format_version":1')

    result = archive.verify(b"\n".join(lines) + b"\n")

    assert (result.ok, result.line) == (False, 1)
    assert "hashes secrets without salt" in result.reason and "export the game again" in result.reason


def test_a_tampered_hash_of_a_redacted_event_is_caught_by_the_next_link(game: list[Envelope]) -> None:
    content = archive.export(game, None, revealed=False).encode()
    hidden = next(e.version for e in game if e.secret is not None and e.version > 3)
    line = lines_of(content)[hidden]
    position = line.index(b'"hash":"') + len(b'"hash":"')

    result = archive.verify(
        tampered(content, hidden, position, ord("0") if line[position] != ord("0") else ord("1"))
    )

    assert not result.ok and result.first_bad == hidden


# --- the rules fold the file -------------------------------------------------------------------


def test_refold_names_the_first_event_the_rules_cannot_take(game: list[Envelope]) -> None:
    placed = next(e for e in game if e.type == "BridgePlaced")
    broken = rechained(game, placed.version, data={**placed.data, "line": ["ALOA", "LALE"]})
    read = archive.read(archive.export(broken, None, True))

    assert archive.verify_chain(read).ok
    with pytest.raises(archive.RefoldFailed) as failed:
        archive.refold(read)
    assert failed.value.version == placed.version


def test_refold_refuses_a_setup_the_rules_refuse(game: list[Envelope]) -> None:
    broken = rechained(game, 1, data={**game[0].data, "game": "chess"})
    read = archive.Archive({}, broken, frozenset(), [])

    with pytest.raises(archive.RefoldFailed) as failed:
        archive.refold(read)
    assert failed.value.version == 1
