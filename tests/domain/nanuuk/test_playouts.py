"""Random legal games of every Nanuuk! mode to the end, checking after every command:

cracks lie only on lines between two cells of ice (never the edge), each where X-3 (and V-2)
allow; one piece a cell but in the igloos; animals, Inuit, bears and equipment are conserved;
the events, read back as JSON, refold to the live state; every game ends (N-10, L-4..L-8);
every view is JSON and every event has its words. In Nanuuk! itself (N-4, N-10): a seat is
asked to move only when one of its hunters can step (retiring is a choice, never forced), is
skipped only when none can, and the game ends only after a whole round without a move, once
every hunter is retired or cannot step.
The checks recompute the geometry from the board file, not from the engine's board module.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.decider import Command, Event, IllegalMove
from domain.nanuuk import board as engine_board
from domain.nanuuk.decide import decide_with_state, legal_commands
from domain.nanuuk.describe import CLAUSES, describe
from domain.nanuuk.evolve import evolve
from domain.nanuuk.module import pending_system
from domain.nanuuk.rules import ANIMALS, EQUIPMENT, MATERIAL
from domain.nanuuk.setup import initial_state
from domain.nanuuk.state import State
from domain.nanuuk.view import view
from tests.domain.nanuuk.game import setup

Cell = tuple[int, int]
OFFSETS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
RAW = json.loads((Path(engine_board.__file__).parent / "boards" / "nanuuk.json").read_text())
MAX_COMMANDS = 3000
"""Far above any game: every move but a kayak's cracks one of at most 72 lines."""


def _cells(key: str) -> set[Cell]:
    return {(q, r) for q, r in RAW[key]}


def ice_of(state: State) -> set[Cell]:
    """The game's ice from the board file and the seat count (N-1, L-1, L-5)."""
    game, seats = state.rules.game, state.seats
    wide = seats == 4 or state.rules.options.get("two_hunters")
    if game == "nanuuk":
        left_out = set() if wide else _cells(f"not_in_{seats}_player_game")
    elif game == "nanuuk-bear-hunt" or (game == "nanuuk-learning" and seats == 3):
        left_out = _cells("not_in_3_player_game")
    else:
        left_out = set()
    return _cells("cells") - left_out


def near(cell: Cell, ice: set[Cell]) -> list[Cell]:
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in OFFSETS if (cell[0] + dq, cell[1] + dr) in ice]


def side(a: Cell, b: Cell) -> tuple[Cell, Cell]:
    return (a, b) if a < b else (b, a)


def x3_lines(cell: Cell, ice: set[Cell]) -> tuple[set[Any], set[Any]]:
    """X-3's C lines (at each corner, between the two neighbours there) and d lines of `cell`."""
    around = [(cell[0] + dq, cell[1] + dr) for dq, dr in OFFSETS]
    corners = {side(around[i], around[(i + 1) % 6]) for i in range(6)}
    c_lines = {s for s in corners if s[0] in ice and s[1] in ice}
    return c_lines, {side(cell, n) for n in near(cell, ice)}


def homeward(ice: set[Cell], cracks: set[Any], start: Cell, igloos: set[Cell]) -> bool:
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        if cell in igloos:
            return True
        for n in near(cell, ice):
            if n not in seen and side(cell, n) not in cracks:
                seen.add(n)
                todo.append(n)
    return False


def check_crack(before: State, event: Event, ice: set[Cell]) -> None:
    """X-1, X-3, V-2: the crack is on a free line of the first kind that has one, and blocks
    no hunter's way home when a line that blocks nobody was free."""
    data = event.data
    cell = (data["cell"][0], data["cell"][1])
    crack = side(tuple(data["crack"][0]), tuple(data["crack"][1]))  # type: ignore[arg-type]
    assert crack[0] in ice and crack[1] in ice and crack[1] in near(crack[0], ice), "on the edge"
    assert crack not in before.cracks
    c_lines, d_lines = x3_lines(cell, ice)
    free_c, free_d = c_lines - before.cracks, d_lines - before.cracks
    kind = free_c or free_d
    assert crack in kind, f"X-3: {crack} is not among {sorted(kind)}"
    if before.rules.options.get("keep_igloo_reachable"):
        igloos = {(q, r) for q, r in RAW["igloos"]}
        hunters = [p.cell for p in before.pieces if p.kind == "hunter" and p.cell and not p.retired]
        going = [h for h in hunters if homeward(ice, set(before.cracks), h, igloos)]

        def blocks(line: Any) -> bool:
            return not all(homeward(ice, set(before.cracks) | {line}, h, igloos) for h in going)

        if any(not blocks(line) for line in kind):
            assert not blocks(crack), "V-2: a crack cut a hunter off while another choice was free"


def check_position(state: State, ice: set[Cell]) -> None:
    """One piece a cell except igloos; every piece on the ice; conservation of the material."""
    igloos = {(q, r) for q, r in RAW["igloos"]} if state.rules.full else set()
    placed = Counter(p.cell for p in state.pieces if p.cell is not None)
    assert all(cell in ice for cell in placed)
    assert all(n == 1 for cell, n in placed.items() if cell not in igloos), "two pieces on a cell"
    assert all(p.kind == "hunter" for p in state.pieces if p.cell in igloos), "a bear in an igloo"
    assert all(a in ice and b in ice and b in near(a, ice) for a, b in state.cracks)
    if not state.rules.full:
        assert not state.tokens and not state.sheets
        return
    if state.phase == "layout":  # the service has not drawn the layout yet
        return
    material = MATERIAL[4 if state.rules.options.get("two_hunters") else state.seats]
    on_ice = Counter(state.tokens.values())
    for animal in ANIMALS:
        held = sum((animal in s.animals) + s.brought.get(animal, 0) for s in state.sheets)
        assert on_ice[animal] + held == material[animal], f"{animal} lost or made"
    inuit = sum(s.inuk + s.inuit for s in state.sheets)
    assert on_ice["inuk"] + inuit == material["inuk"]
    assert all(cell not in igloos for cell in state.tokens)
    assert sum(p.kind == "bear" and p.cell is not None for p in state.pieces) == material["bear"]
    for sheet in state.sheets:
        assert not sheet.carried & sheet.igloo and sheet.carried | sheet.igloo == set(EQUIPMENT)
        assert all(n >= 0 for n in sheet.brought.values())


def hunter_can_step(state: State, piece: int, ice: set[Cell]) -> bool:
    """X-2, N-6, N-8 recomputed: a neighbour across no crack (or by a carried kayak), holding no
    other hunter unless it is an igloo, and a bear only for a hunter with the harpoon and a
    free cell (no piece, token or igloo) to chase it to."""
    igloos = {(q, r) for q, r in RAW["igloos"]}
    here = state.pieces[piece].cell
    assert here is not None
    carried = state.sheets[piece].carried
    at = {p.cell: p.kind for n, p in enumerate(state.pieces) if p.cell is not None and n != piece}
    for cell in near(here, ice):
        if side(here, cell) in state.cracks and "kayak" not in carried:
            continue
        kind = at.get(cell)
        if kind == "hunter" and cell not in igloos:
            continue
        if kind == "bear":
            taken = {c for c in at if c != cell} | {cell}
            free = [c for c in ice if c not in taken and c not in state.tokens and c not in igloos]
            if "harpoon" not in carried or not free:
                continue
        return True
    return False


def able(state: State, ice: set[Cell], seat: int | None = None) -> list[int]:
    """The hunters (of `seat`, or of every seat) still in play that can step."""
    return [
        n
        for n, p in enumerate(state.pieces)
        if p.kind == "hunter" and p.cell is not None and not p.retired and seat in (None, p.seat)
        if hunter_can_step(state, n, ice)
    ]


def check_hunters(state: State, commands: list[Command], ice: set[Cell]) -> None:
    """N-4, N-10: a seat is asked to move only when one of its hunters can step, so retiring
    is always a choice beside a move, never the only command."""
    if state.turn.piece is None:
        assert able(state, ice, state.active), "a seat none of whose hunters can step is asked to move"
    if any(c.type == "Retire" for c in commands):
        assert any(c.type == "Move" for c in commands), "Retire is the only command offered"


def check_turns(state: State, events: list[Event], ice: set[Cell], rounds: list[bool]) -> None:
    """N-4: a seat is skipped only when none of its hunters can step (a retired one is no
    hunter in play); N-10: the game ends only once a whole round passed in which no hunter
    moved, and when every hunter is retired or cannot step. `rounds` gathers each turn's moved."""
    for event in events:
        before = _before(state, events, event)
        if event.type == "TurnSkipped":
            assert not able(before, ice, event.data["seat"]), "a hunter that can step is skipped"
            rounds.append(False)
        elif event.type == "TurnEnded":
            rounds.append(bool(event.data["moved"]))
        elif event.type == "GameEnded":
            assert not able(before, ice), "the game ended while a hunter could still move"
            assert len(rounds) >= state.seats and not any(rounds[-state.seats :]), "no whole idle round"


def check_refusals(state: State, commands: list[Command], rng: random.Random) -> None:
    """decide accepts exactly what legal_commands lists: a stray command of an offered type,
    at a random cell, is accepted if and only if it is listed."""
    sample = rng.choice(commands)
    args = dict(sample.args)
    for name in ("cell", "bear"):
        if name in args:
            args[name] = [rng.randrange(-3, 4), rng.randrange(-3, 4)]
    if "crack" in args:
        a = [rng.randrange(-3, 4), rng.randrange(-3, 4)]
        args["crack"] = sorted([a, [a[0] + rng.choice([0, 1]), a[1] + rng.choice([-1, 0, 1])]])
    stray = Command(sample.type, sample.seat, args)
    listed = any(c.type == stray.type and dict(c.args) == args for c in commands)
    try:
        decide_with_state(state, stray)
    except IllegalMove:
        assert not listed, f"{stray} is listed but refused"
    else:
        assert listed, f"{stray} is accepted but not listed"


def play_random(game: str, seats: int, options: dict[str, Any], seed: int, retire: float = 0.1) -> None:
    """One random game; about one choice in 1/`retire` is made among every command, Retire
    included (retiring at once ends games early), the others among the rest."""
    rng = random.Random(seed)
    created = setup(game, seats, rng.randrange(seats), **options)
    state = initial_state(created)
    ice = ice_of(state)
    stored: list[Event] = []
    rounds: list[bool] = []
    created_names = [s["name"] for s in created["seats"]]
    for _ in range(MAX_COMMANDS):
        check_position(state, ice)
        shown = view(state, None)
        assert json.loads(json.dumps(shown)) == shown and shown["phase"] == state.phase
        if state.phase == "ended":
            break
        request = pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            commands = legal_commands(state, state.active)
            assert commands, f"the game waits for seat {state.active}, who may do nothing"
            for other in range(seats):
                assert other == state.active or not legal_commands(state, other)
            check_refusals(state, commands, rng)
            if state.rules.full and state.phase == "play":
                check_hunters(state, commands, ice)
            staying = [c for c in commands if c.type != "Retire"]
            command = rng.choice(staying if staying and rng.random() >= retire else commands)
        events, after = decide_with_state(state, command)
        assert {e.type for e in events} <= set(CLAUSES), "an event without words"
        describe([{"type": e.type, "data": dict(e.data)} for e in events], created_names)
        for event in events:
            if event.type == "CrackPlaced":
                check_crack(state if event is events[0] else _before(state, events, event), event, ice)
        if state.rules.full:
            check_turns(state, events, ice, rounds)
        stored += [Event(e.type, json.loads(json.dumps(e.data))) for e in events]
        state = after
    assert state.phase == "ended", "N-10, L-4..L-8: the game must end"
    refolded = initial_state(json.loads(json.dumps(created)))
    for event in stored:
        refolded = evolve(refolded, event)
    assert refolded == state, "the stored events refold to the live state"
    assert state.result is not None and len(state.result["totals"]) == seats


def _before(state: State, events: list[Event], event: Event) -> State:
    """The state right before `event` among the events of one command."""
    for earlier in events:
        if earlier is event:
            return state
        state = evolve(state, earlier)
    raise AssertionError("not among the events")


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
BOOL = st.booleans()
MODES: dict[str, Any] = {
    "nanuuk": st.one_of(
        st.tuples(
            st.sampled_from([2, 3, 4]),
            st.fixed_dictionaries(
                {},
                optional={
                    "double_move_cracks": st.sampled_from(["each_step", "mover_chooses"]),
                    "keep_igloo_reachable": BOOL,
                    "pre_cracks": st.integers(0, 12),
                },
            ),
        ),
        st.tuples(st.just(2), st.fixed_dictionaries({"two_hunters": st.just(True)})),
    ),
    "nanuuk-learning": st.tuples(st.sampled_from([2, 3, 4]), st.just({})),
    "nanuuk-bear-hunt": st.one_of(
        st.tuples(
            st.just(2),
            st.fixed_dictionaries(
                {"bear_seat": st.sampled_from([0, 1])},
                optional={"crack_each_step": BOOL, "bear_must_move_twice": BOOL, "bear_may_stay": BOOL},
            ),
        ),
        st.tuples(
            st.just(3),
            st.fixed_dictionaries(
                {"bear_seat": st.sampled_from([0, 1, 2])},
                optional={
                    "crack_each_step": BOOL,
                    "bear_must_move_twice": BOOL,
                    "bear_may_stay": BOOL,
                    "play_on": BOOL,
                },
            ),
        ),
    ),
    "nanuuk-bear-flight": st.tuples(
        st.just(2),
        st.fixed_dictionaries(
            {"bears": st.sampled_from([1, 2, 3])},
            optional={"bear_must_move_twice": BOOL, "bear_may_stay": BOOL},
        ),
    ),
    "nanuuk-partners": st.tuples(
        st.just(4), st.fixed_dictionaries({"aim": st.sampled_from(["partner", "right", "left"])})
    ),
    "nanuuk-helper": st.tuples(st.just(2), st.just({})),
}


@pytest.mark.parametrize("game", sorted(MODES))
def test_random_games_of_every_mode_keep_the_invariants_and_end(game: str) -> None:
    @given(seed=SEEDS, table=MODES[game])
    def check(seed: int, table: tuple[int, dict[str, Any]]) -> None:
        seats, options = table
        play_random(game, seats, options, seed)

    check()


def test_N10_random_two_hunter_games_that_retire_often_end_only_when_no_hunter_can_move() -> None:
    """Two hunters each: a seat that retires one hunter may still move the other, so
    retirements alone never end the game (the invariants of check_turns)."""

    @given(seed=SEEDS, retire=st.sampled_from([0.3, 0.6]))
    def check(seed: int, retire: float) -> None:
        play_random("nanuuk", 2, {"two_hunters": True}, seed, retire)

    check()


def test_the_random_games_check_a_crack_against_X3_for_real() -> None:
    """The X-3 check refuses a d line while a C line is free (it is not vacuous)."""
    state = initial_state(setup("nanuuk-learning", 2))
    ice = ice_of(state)
    cell = (0, 0)
    wrong = Event("CrackPlaced", {"cell": [0, 0], "crack": [[0, 0], [1, 0]]})
    with pytest.raises(AssertionError):
        check_crack(state, wrong, ice)
    right = Event("CrackPlaced", {"cell": [0, 0], "crack": [[0, -1], [1, -1]]})
    check_crack(state, right, ice)
    assert side((1, -1), (0, -1)) in x3_lines(cell, ice)[0]
