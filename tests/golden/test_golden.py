"""Golden games: finished games of every game, seat count and option, kept as export files.

Each file is verified and re-folded through the rules as `replays` does offline; the result the
game recorded when it ended must be the one the rules reach today. A change that cannot read
old games, or reads them to another end, fails here. The files are written by make_golden.py;
the families that live in the tests keep theirs in their own folders (`<family>/golden/`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.decider import IllegalMove
from domain.games import rules_for
from replays.archive import read, refold, verify
from tests.families.registered import EVERY_GAME, FAMILIES

HERE = Path(__file__).parent
FILES = sorted([*HERE.glob("*.jsonl"), *(path for f in FAMILIES for path in f.golden.glob("*.jsonl"))])
"""Every golden game: the registered games' here, the test families' in their folders."""


def header(path: Path) -> dict[str, Any]:
    return read(path.read_bytes()).header


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_golden_game_verifies_and_refolds_to_its_recorded_result(path: Path) -> None:
    content = path.read_bytes()
    verified = verify(content)
    assert verified.ok and not verified.unverifiable, verified
    archive = read(content)

    state = refold(archive)

    rules = rules_for(archive.header["game"])
    ended = [e.data for e in archive.envelopes if e.type == rules.end_event]
    assert len(ended) == 1, "a golden game ends exactly once"
    assert rules.is_terminal(state)
    assert rules.result(state) == ended[0]
    # The island games and Nanuuk! keep a running score in their state, which must end as the
    # result's totals; Conquest of Paradise keeps none (its VP are counted from the board, as
    # its result's totals are).
    running = getattr(state, "scores", None)
    if running is not None:
        assert list(running) == ended[0]["totals"]


def seat_counts(game: str) -> list[int]:
    """The seat counts the game accepts, as its rules say when asked to set one up."""
    counts = []
    for seats in range(1, 9):
        setup = {"game": game, "seats": [{"name": f"P{n}"} for n in range(seats)], "first_seat": 0}
        try:
            rules_for(game).initial_state(setup)
        except IllegalMove:
            continue
        counts.append(seats)
    return counts


def options_of(game: str) -> dict[str, list[Any] | None]:
    """Each option the game declares (`schemas.options`), with its values when it names them (the
    first is the default), so an option added to a game is seen here without a list to keep."""
    declared = rules_for(game).schemas.options.get("properties", {})
    return {name: list(schema["enum"]) if "enum" in schema else None for name, schema in declared.items()}


@pytest.mark.usefixtures("test_families")
def test_every_game_seat_count_and_option_has_a_golden_game() -> None:
    headers = [header(path) for path in FILES]
    missing = []
    for game in EVERY_GAME:
        played = [h for h in headers if h["game"] == game]
        for seats in seat_counts(game):
            if not any(len(h["seats"]) == seats for h in played):
                missing.append(f"{game} with {seats} seats")
        for name, values in options_of(game).items():
            chosen = [h["options"].get(name) for h in played]
            if values is None:
                if not any(value not in (None, False) for value in chosen):
                    missing.append(f"{game} with options.{name}")
                continue
            for value in values:
                default = value == values[0]
                if value not in chosen and not (default and None in chosen):
                    missing.append(f"{game} with options.{name} = {value!r}")
    assert not missing, f"no golden game for: {missing}; run tests/golden/make_golden.py"


def test_the_golden_games_include_an_undo_a_takeback_and_computer_seats() -> None:
    archives = [read(path.read_bytes()) for path in FILES]
    types = {e.type for archive in archives for e in archive.envelopes}
    assert {"Undone", "TakebackRequested", "TakebackAnswered"} <= types
    assert any("ai" in seat for archive in archives for seat in archive.header["setup"]["seats"])


def test_P3_3_a_golden_game_holds_a_move_with_stops_and_its_revealed_kinds() -> None:
    archive = read((HERE / "conquest-of-paradise-3-stops.jsonl").read_bytes())
    stopped = [e for e in archive.envelopes if e.type == "PiecesMoved" and "stops" in e.data]
    assert stopped and all(e.secret and len(e.secret["stops"]) == len(e.data["stops"]) for e in stopped)
