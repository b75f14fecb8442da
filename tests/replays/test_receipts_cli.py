"""`replays verify --receipts`: a rewrite that re-seals every hash passes the chain check, and is
caught by the receipts the players kept; so is a cut tail; a forged receipt is refused."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from record import receipts
from record.envelope import Envelope
from replays import archive
from replays.bundle import write_bundle
from replays.cli import main
from tests.replays.play import rechained, sealed_game, setup_of
from tests.replays.tournament_play import Tournament, played

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
JWK = receipts.public_jwk(KEY.public_key())
KEY_SET = receipts.key_set([JWK])
AT = "2026-11-28T01:00:00.000000Z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def receipts_of(envelopes: Sequence[Envelope], field: str, stream_id: str) -> list[dict[str, Any]]:
    """What the service answers its clients: a receipt of the last event of each command."""
    last = {e.command_id: e for e in envelopes}  # each command's events are consecutive
    return [receipts.sign(KEY, JWK["kid"], field, stream_id, e.version, e.hash, AT) for e in last.values()]


def write_lines(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def game() -> list[Envelope]:
    return sealed_game(random.Random(5), setup_of("kahuna"))


def game_file(tmp_path: Path, envelopes: Sequence[Envelope], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(archive.export(envelopes, None, True, keys=KEY_SET), encoding="utf-8")
    return path


def winner_flipped(envelopes: list[Envelope]) -> list[Envelope]:
    """The game with its GameEnded naming the other seat as winner, every hash after it re-sealed."""
    ended = next(e for e in envelopes if e.type == "GameEnded")
    winner = 1 - (ended.data["winner"] or 0)
    return rechained(envelopes, ended.version, data={**ended.data, "winner": winner})


def test_the_receipts_of_a_sound_game_are_all_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    kept = write_lines(tmp_path / "receipts.jsonl", receipts_of(game, receipts.GAME, "g"))
    status, out, _ = run(capsys, "verify", str(game_file(tmp_path, game)), "--receipts", str(kept))
    assert status == 0
    count = len({e.command_id for e in game})
    assert f"receipts: {count} checked; each is signed by a published key" in out


def test_a_re_sealed_rewrite_of_the_winner_passes_the_chain_and_fails_on_a_receipt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    forged = game_file(tmp_path, winner_flipped(game), "forged.jsonl")
    assert run(capsys, "verify", str(forged))[0] == 0  # the chain alone cannot tell
    folder = tmp_path / "kept"
    folder.mkdir()
    write_lines(folder / "seat0.jsonl", receipts_of(game, receipts.GAME, "g"))
    status, out, err = run(capsys, "verify", str(forged), "--receipts", str(folder))
    ended = next(e for e in game if e.type == "GameEnded")
    # The first receipt at or after the changed event names it (its line in the receipts file).
    first = next(
        n for n, r in enumerate(receipts_of(game, receipts.GAME, "g"), 1) if r["version"] >= ended.version
    )
    version = receipts_of(game, receipts.GAME, "g")[first - 1]["version"]
    assert status == 1
    assert (
        f"replays: error: receipt seat0.jsonl line {first} (game g, event {version}): "
        f"rewritten: event {version}" in err
    )


def test_a_cut_tail_fails_on_a_receipt_beyond_the_files_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    kept = write_lines(tmp_path / "receipts.jsonl", receipts_of(game, receipts.GAME, "g"))
    cut = game_file(tmp_path, game[:-3], "cut.jsonl")
    status, _, err = run(capsys, "verify", str(cut), "--receipts", str(kept))
    assert status == 1
    end = len(game) - 3
    first = next(r["version"] for r in receipts_of(game, receipts.GAME, "g") if r["version"] > end)
    assert (
        f"(game g, event {first}): truncated: "
        f"the receipt vouches for event {first}, the file ends at event {end}" in err
    )


def test_a_forged_receipt_is_refused_and_so_is_a_file_whose_keys_were_swapped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    genuine = receipts_of(game, receipts.GAME, "g")
    forged = {**genuine[-1], "hash": "0" * 64}
    kept = write_lines(tmp_path / "receipts.jsonl", [*genuine, forged])
    sound = game_file(tmp_path, game)
    status, _, err = run(capsys, "verify", str(sound), "--receipts", str(kept))
    assert status == 1
    assert (
        f"receipt receipts.jsonl line {len(genuine) + 1} (game g, event {len(game)}): "
        "the signature does not verify" in err
    )
    # An operator who re-signs a rewrite with a new key cannot make the players' receipts verify.
    other = receipts.key_set([receipts.public_jwk(Ed25519PrivateKey.generate().public_key())])
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text(archive.export(winner_flipped(game), None, True, keys=other), encoding="utf-8")
    good = write_lines(tmp_path / "good.jsonl", genuine)
    status, _, err = run(capsys, "verify", str(swapped), "--receipts", str(good))
    assert status == 1 and f"signed by key {JWK['kid']}, which is not among the published keys" in err
    # --keys names the key set to trust, whatever the file publishes.
    keys = write_lines(tmp_path / "keys.json", [KEY_SET])
    assert run(capsys, "verify", str(swapped), "--receipts", str(good), "--keys", str(keys))[0] == 1
    assert run(capsys, "verify", str(sound), "--receipts", str(good), "--keys", str(keys))[0] == 0


def test_receipts_of_other_games_alone_prove_nothing_and_fail(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[Envelope]
) -> None:
    kept = write_lines(tmp_path / "receipts.jsonl", receipts_of(game, receipts.GAME, "another"))
    status, _, err = run(capsys, "verify", str(game_file(tmp_path, game)), "--receipts", str(kept))
    assert status == 1 and "none of the" in err and "game g" in err


@pytest.fixture(scope="module")
def tournament() -> Tournament:
    played_out = played(seed=11)
    played_out.run("CloseTournament")
    # As the service creates it: its first command names the tournament ("create-<id>").
    played_out.envelopes = rechained(played_out.envelopes, 1, command_id="create-t1")
    return played_out


def test_a_re_sealed_rewrite_of_a_bundle_game_and_a_cut_tournament_tail_fail_on_receipts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tournament: Tournament
) -> None:
    tournament_id = "t1"
    kept = [*receipts_of(tournament.envelopes, receipts.TOURNAMENT, tournament_id)]
    for game_id, envelopes in tournament.games.items():
        kept += receipts_of(envelopes, receipts.GAME, game_id)
    held = write_lines(tmp_path / "receipts.jsonl", kept)
    sound = tmp_path / "bundle.jsonl"
    sound.write_bytes(write_bundle(tournament.envelopes, tournament.games, keys=KEY_SET))
    status, out, _ = run(capsys, "verify", str(sound), "--receipts", str(held))
    assert status == 0 and f"receipts: {len(kept)} checked" in out

    # The tournament's close cut off: the bundle still audits, the close's receipt does not hold.
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(write_bundle(tournament.envelopes[:-1], tournament.games, keys=KEY_SET))
    assert run(capsys, "verify", str(cut))[0] == 0
    status, _, err = run(capsys, "verify", str(cut), "--receipts", str(held))
    last = len(tournament.envelopes)
    assert status == 1 and f"(tournament {tournament_id}, event {last}): truncated" in err
