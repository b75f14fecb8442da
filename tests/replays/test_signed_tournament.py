"""A tournament with signed moves (signed_moves: true) against its own organizer: one who re-runs
every game with moves of its choosing and re-seals every chain makes a bundle whose hashes,
rules and results all hold — and the audit (`replays verify`) names the first move its players
did not sign, and a game whose seats hold other keys than its entrants registered."""

from __future__ import annotations

from pathlib import Path

import pytest

from replays.bundle import write_bundle
from replays.cli import main
from tests.replays.tournament_play import NAMES, Tournament, played
from tests.seat_signing import SeatKey

ENTRANTS = NAMES[:4]
KEYS = {name: SeatKey() for name in ENTRANTS}
FORGER = {name: SeatKey() for name in ENTRANTS}


def verify(capsys: pytest.CaptureFixture[str], tmp_path: Path, tournament: Tournament) -> tuple[int, str]:
    path = tmp_path / "bundle.jsonl"
    path.write_bytes(write_bundle(tournament.envelopes, tournament.games))
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out + err


def test_a_signed_tournament_s_bundle_audits_with_every_move_signed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    honest = played(seed=3, commands=True, keys=KEYS)
    assert honest.state.settings.signed_moves

    status, said = verify(capsys, tmp_path, honest)

    assert status == 0, said


def test_every_game_replayed_by_the_organizer_and_re_sealed_is_caught_by_the_players_signatures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Without signed moves the same rewrite — other moves, other winners, every chain sealed
    # again, the standings redone by the rules — is a sound tournament to every check.
    assert verify(capsys, tmp_path, played(seed=4, commands=True))[0] == 0
    forged = played(seed=4, commands=True, keys=KEYS, signers=FORGER)

    status, said = verify(capsys, tmp_path, forged)

    assert status == 1
    assert "game g1-0" in said and "the signature does not verify under the seat's key" in said


def test_moves_left_unsigned_by_a_forger_without_keys_are_caught(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    forged = played(seed=4, commands=True, keys=KEYS, signers=dict.fromkeys(ENTRANTS))

    status, said = verify(capsys, tmp_path, forged)

    assert status == 1 and "the command carries no signature" in said


def test_a_game_whose_seats_hold_the_forgers_keys_instead_of_the_entrants_is_caught(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    forged = played(seed=4, commands=True, keys=KEYS, signers=FORGER, seat_keys=FORGER)

    status, said = verify(capsys, tmp_path, forged)

    assert status == 1
    assert "its seats do not hold the public keys its entrants registered" in said
