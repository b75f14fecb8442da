"""The tournament bundle (replays.bundle): written, read back, verified offline; any changed
byte is found and named by its stream, event number and line."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from record.canonical import canonical_json
from replays import archive
from replays.bundle import BundleError, is_bundle, read_bundle, verify_bundle, write_bundle
from replays.tournament_audit import BrokenPlace
from tests.replays.play import rechained, sealed_game, setup_of
from tests.replays.tournament_play import NAMES, Tournament, created, played


@pytest.fixture(scope="module")
def small() -> Tournament:
    """Three entrants over two rounds: two games and two byes, the smallest bundle with every part."""
    tournament = played(seed=7, entrants=NAMES[:3])
    tournament.run("CloseTournament")
    return tournament


@pytest.fixture(scope="module")
def content(small: Tournament) -> bytes:
    return write_bundle(small.envelopes, small.games)


def roles(content: bytes) -> list[tuple[str, int | None]]:
    """What each line of `content` holds, worked out from the lines themselves: (stream, event)."""
    lines = content.split(b"\n")[:-1]
    header = json.loads(lines[0])
    ids = iter(g["game_id"] for g in header["games"])
    found: list[tuple[str, int | None]] = [("bundle", None)]
    stream = "tournament"
    for raw in lines[1:]:
        line = json.loads(raw)
        if line.get("format") == archive.FORMAT:
            stream = f"game {next(ids)}"
            found.append((stream, None))
        else:
            found.append((stream, line["version"]))
    return found


def flipped(content: bytes, position: int, byte: int) -> bytes:
    return content[:position] + bytes([byte]) + content[position + 1 :]


def assert_named(content: bytes, position: int, byte: int) -> None:
    """One changed byte makes the bundle fail, named at the line (stream, event) holding it."""
    report = verify_bundle(flipped(content, position, byte))
    line = content.count(b"\n", 0, position) + 1
    stream, version = roles(content)[line - 1]
    assert not report.ok and report.broken is not None, (position, byte)
    assert (report.broken.stream, report.broken.version, report.broken.line) == (stream, version, line), (
        position,
        bytes([byte]),
        content.split(b"\n")[line - 1][:80],
        report.broken,
    )


def test_a_sound_bundle_verifies_with_every_stream_and_event(small: Tournament, content: bytes) -> None:
    report = verify_bundle(content)
    assert report.ok and report.broken is None and report.mismatches == []
    assert report.streams == 3
    assert report.events == len(small.envelopes) + sum(len(g) for g in small.games.values())


def test_a_bundle_reads_back_the_streams_it_was_written_from(small: Tournament, content: bytes) -> None:
    tournament, games = read_bundle(content)
    assert tournament == small.envelopes and games == small.games
    assert write_bundle(tournament, games) == content


def test_a_bundle_holds_the_games_in_the_order_they_were_assigned(content: bytes) -> None:
    header = json.loads(content.split(b"\n")[0])
    assert [g["game_id"] for g in header["games"]] == ["g1-0", "g2-0"]
    assert [stream for stream, version in roles(content) if version is None] == [
        "bundle",
        "game g1-0",
        "game g2-0",
    ]


def test_write_refuses_a_set_of_games_that_is_not_the_assigned_one(small: Tournament) -> None:
    with pytest.raises(ValueError, match="exactly the games assigned"):
        write_bundle(small.envelopes, {"g1-0": small.games["g1-0"]})
    with pytest.raises(ValueError, match="no events"):
        write_bundle(small.envelopes, {**small.games, "g2-0": []})


def test_games_still_in_play_are_bundled_as_a_spectator_sees_them() -> None:
    tournament = created("kahuna", NAMES[:4])
    tournament.play_round(random.Random(3))
    tournament.run("PairRound")
    for table in tournament.state.round_tables(2):
        game_id = f"g2-{table.index}"
        tournament.games[game_id] = sealed_game(random.Random(table.index), setup_of("kahuna"))[:60]
        tournament.run("AssignGame", table=table.index, game_id=game_id)
    content = write_bundle(tournament.envelopes, tournament.games)
    _, read = read_bundle(content)
    hidden = [e for e in read["g2-0"] if e.secret is None and e.secret_digest]
    assert hidden and all(e.salt == "" for e in hidden)
    assert all(e.secret is not None for e in read["g1-0"] if e.secret_digest)  # ended: revealed
    report = verify_bundle(content)
    assert report.ok and report.unfolded == ["g2-0", "g2-1"]


def test_a_bundle_is_told_from_one_games_file(content: bytes) -> None:
    game_file = archive.export(sealed_game(random.Random(1), setup_of("kahuna")), None, True)
    assert is_bundle(content) and not is_bundle(game_file.encode())
    damaged = content.replace(b"archipelago-tournament", b"archipelago-tournamenT", 1)
    assert is_bundle(damaged)


def test_every_line_changed_once_is_named(content: bytes) -> None:
    """Every line changed once: a byte in its middle, or (every other line) its newline."""
    starts = [0, *(i + 1 for i, b in enumerate(content) if b == 0x0A)][:-1]
    for number, start in enumerate(starts):
        end = content.index(b"\n", start)
        position = end if number % 2 else (start + end) // 2
        assert_named(content, position, content[position] ^ 0x01 if position < end else ord("x"))


@settings(deadline=None)
@given(place=st.integers(0, 10**7), delta=st.integers(1, 255))
def test_any_one_changed_byte_is_found_and_named(content: bytes, place: int, delta: int) -> None:
    position = place % len(content)
    assert_named(content, position, (content[position] + delta) % 256)


def test_a_change_in_the_header_is_the_headers(content: bytes) -> None:
    header = content.split(b"\n")[0]
    for old, new in ((b'"g1-0"', b'"g1-1"'), (b'"events":', b'"evenst":')):
        changed = content.replace(old, new, 1)
        assert changed != content and changed.split(b"\n")[0] != header
        report = verify_bundle(changed)
        assert report.broken is not None and (report.broken.stream, report.broken.line) == ("bundle", 1)


def test_a_changed_setup_is_the_first_events_not_its_headers(content: bytes) -> None:
    """The game's header repeats GameCreated's setup: when they differ, the hashed event was changed."""
    for stream, version in (("game g1-0", 1), ("game g2-0", 1)):
        line = roles(content).index((stream, version)) + 1
        start = sum(len(raw) + 1 for raw in content.split(b"\n")[: line - 1])
        position = content.index(b'"name":"', start) + len(b'"name":"')
        assert_named(content, position, ord("Z"))


def test_a_game_rewritten_with_its_chain_rebuilt_is_caught_by_the_tournament(small: Tournament) -> None:
    game = small.games["g2-0"]
    end = game[-1]
    forged = rechained(game, end.version, data={**end.data, "totals": [50, 0], "winner": 0})
    report = verify_bundle(write_bundle(small.envelopes, {**small.games, "g2-0": forged}))
    assert not report.ok and report.broken is None
    assert {m["game_id"] for m in report.mismatches} == {"g2-0"}


def test_a_place_found_by_the_audit_is_given_its_line(small: Tournament) -> None:
    game = list(small.games["g2-0"])
    version = next(e.version for e in game if e.type == "HandDealt")
    game = rechained(game, version, data={})
    content = write_bundle(small.envelopes, {**small.games, "g2-0": game})
    report = verify_bundle(content)
    written = canonical_json(archive.event_line(game[version - 1], None, True)).encode()
    line = content.split(b"\n").index(written) + 1
    assert report.broken is not None and report.broken.reason.startswith("the rules cannot fold it")
    assert (report.broken.stream, report.broken.version, report.broken.line) == ("game g2-0", version, line)


def test_read_refuses_a_damaged_bundle_with_its_place(content: bytes) -> None:
    lines = content.split(b"\n")
    without = b"\n".join(lines[:5] + lines[6:])
    with pytest.raises(BundleError) as refused:
        read_bundle(without)
    assert refused.value.place == BrokenPlace("tournament", 5, 6, "numbered 6, expected 5")
    report = verify_bundle(content + b"{}\n")
    assert report.broken == BrokenPlace("bundle", None, len(lines), "a line after the last game")


@settings(deadline=None)
@given(junk=st.binary(max_size=200), cuts=st.lists(st.integers(0, 10**6), max_size=4))
def test_any_bytes_give_a_report_never_an_exception(content: bytes, junk: bytes, cuts: list[int]) -> None:
    """Junk, and a bundle cut and spliced with junk: never sound, never an exception."""
    spliced = content
    for cut in cuts:
        at = cut % len(spliced)
        spliced = spliced[:at] + junk + spliced[at + len(junk) // 2 :]
    for candidate in (junk, spliced):
        report = verify_bundle(candidate)
        assert report.ok == (candidate == content) and (report.broken is None) == report.ok
