"""Random legal games of 2, 3 and 4 players, with and without the advanced rules, to the end.

After every command: each player's pieces stay within Q-D1 (what is not on the map is
unbuilt), cards are neither made nor lost, villages fit their squares, no view shows a seat a
face-down tile it has not seen, another's stack or another's hidden cards; no band or colony
is at sea beyond its canoes (P-3.3); and what every other seat sees after a command is the
same whichever reaction card (Haka, Arioi, Severe Deforestation) a hand holds (Q-2: being
asked whether to play one tells no one who holds it). At the end: the
events refold to the live state, and the game has ended (Q-A6's `last_turn` bounds a game of
random players, who seldom reach the VP target).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from paradise_given import SAMOA, moving, new, place

from domain.decider import Command, Event
from domain.paradise.build import on_map
from domain.paradise.module import PARADISE
from domain.paradise.sea import stranded_at_sea
from domain.paradise.state import State
from domain.paradise.tables import CARDS, DECK, PIECES
from domain.turns import Seats

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SWITCHES = ("variable_start", "saved_resources", "malaria", "south_island", "kumara")
OPTIONS = st.fixed_dictionaries(
    {name: st.booleans() for name in SWITCHES}, optional={"end_shift": st.integers(-3, 3)}
)
LAST_TURN = 5
WEST_OF_SAMOA = (4, 4)
MAX_STEPS = 5000


def check_pieces(state: State) -> None:
    """Q-D1: no player has more of a kind on the map than it owns; the rest is unbuilt."""
    for seat in range(state.seats):
        placed = on_map(state, seat)
        assert all(0 <= placed[kind] <= PIECES[kind] for kind in PIECES), (seat, placed)
    for at, island in state.islands.items():
        assert 0 <= island.villages <= max(island.squares, island.villages if island.printed else 0), at
        assert island.agriculture <= island.brown
    cards = Counter(state.deck)
    for seat in range(state.seats):
        cards.update(state.hands[seat] + state.revealed[seat] + state.spent_cards[seat])
    assert cards == Counter(DECK)


def check_views(state: State) -> None:
    """Q-2: a view shows a seat only what it may see."""
    ended = state.result is not None
    for seat in range(state.seats):
        view = PARADISE.view(state, seat)
        text = json.dumps(view)
        for at, island in state.islands.items():
            if not island.face_up and not island.printed and seat not in island.discoverers and not ended:
                assert f'"{island.name}"' not in text, (seat, island.name)
                entry = next(i for i in view["islands"] if i["hex"] == list(at))
                assert "name" not in entry
        for stack in view["stacks"]:
            assert ("pieces" in stack) == (stack["seat"] == seat or ended)
        for player in view["players"]:
            assert (player["cards"] is None) == (player["seat"] != seat and not ended)
        if view["draft"] is not None:
            assert view["draft"]["items"] == [
                {"item": i, "hex": list(h) if h else None} for i, h in state.drafts[seat].items
            ]


def check_sea(state: State) -> None:
    """P-3.3: no band or colony is left at sea without a canoe of its own able to carry it."""
    assert stranded_at_sea(state) == [], stranded_at_sea(state)


REACTION_CARDS = ("Arioi", "Haka", "Severe Deforestation")
"""The cards the rules ask about."""
STAND_INS = tuple(
    sorted(
        name
        for name, card in CARDS.items()
        if not card.vp and not card.bonus_vp and name not in ("Cannibalism", "Pa")
    )
)
"""Cards a face-down reaction card may trade places with unseen: 0 VP, and no effect while face
down (Cannibalism and Pa act from the hand)."""


def _seen(state: State, seat: int) -> tuple[object, ...]:
    return (PARADISE.view(state, seat), PARADISE.to_act(state), PARADISE.pending_system(state))


def _swapped(state: State, seat: int, held: str, other: str) -> State:
    """`state` with `seat`'s face-down `held` card and the deck's `other` trading places."""
    hand, deck = list(state.hands[seat]), list(state.deck)
    hand[hand.index(held)], deck[deck.index(other)] = other, held
    hands = state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :]
    return replace(state, hands=hands, deck=tuple(deck))


def check_offers(state: State, command: Command, after: State) -> None:
    """Q-2: for a command not given by the holder (nor drawing a card), every other seat sees the
    same answer whether the holder's hidden reaction card is this one or a stand-in still in the
    deck, another reaction card or none (until the game ends and shows every hand)."""
    if after.result is not None or (
        command.type == "Draw" and state.due is not None and state.due.what == "card"
    ):
        return
    for holder in range(state.seats):
        if command.seat == holder:
            continue
        for held in set(state.hands[holder]) & set(REACTION_CARDS):
            for other in sorted(set(state.deck) & set(STAND_INS) - {held}):
                _, twin = PARADISE.apply(_swapped(state, holder, held, other), command)
                for seat in range(state.seats):
                    if seat != holder:
                        assert _seen(after, seat) == _seen(twin, seat), (holder, held, other, command)


def check_build_secrecy(state: State, command: Command, batch: list[Event], after: State) -> None:
    """Q-1: a commit of build orders before the last shows every other seat the same as a commit
    of none: the same events (one, whatever the number of orders) and the same views."""
    if command.type != "EndBuild" or sum(not d.committed for d in state.drafts) < 2:
        return
    assert command.seat is not None
    twin_batch, twin = PARADISE.apply(state, Command("EndBuild", command.seat))
    assert [(e.type, e.data, e.audience, e.secret is not None) for e in batch] == [
        (e.type, e.data, e.audience, e.secret is not None) for e in twin_batch
    ]
    for seat in range(state.seats):
        if seat != command.seat:
            assert _seen(after, seat) == _seen(twin, seat), command


def play(seats: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event], State]:
    rng = random.Random(seed)
    setup = {"game": PARADISE.name, "seats": [{"name": f"p{n}"} for n in range(seats)]}
    setup["options"] = {**options, "last_turn": LAST_TURN}
    first = state = PARADISE.initial_state(setup)
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if PARADISE.is_terminal(state):
            break
        request = PARADISE.pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            acting = PARADISE.to_act(state)
            assert isinstance(acting, Seats) and acting.seats
            seat = rng.choice(acting.seats)
            legal = list(PARADISE.legal_commands(state, seat))
            assert legal, (state.phase, state.choice)
            command = rng.choice(legal)
        batch, after = PARADISE.apply(state, command)
        check_offers(state, command, after)
        check_build_secrecy(state, command, batch, after)
        state = after
        events += batch
        check_pieces(state)
        check_views(state)
        check_sea(state)
    return first, events, state


@given(seats=st.sampled_from([2, 3, 4]), options=OPTIONS, seed=SEEDS)
def test_random_games_keep_the_invariants_to_the_end(seats: int, options: dict[str, Any], seed: int) -> None:
    first, events, state = play(seats, options, seed)
    assert PARADISE.is_terminal(state) and state.result is not None
    folded = first
    for event in events:
        folded = PARADISE.evolve(folded, event)
    assert folded == state
    assert state.turn <= LAST_TURN


def test_legal_commands_are_given_only_to_the_seats_the_game_waits_for() -> None:
    state = new(2)
    assert PARADISE.legal_commands(state, 1) == []
    assert all(isinstance(c, Command) and c.seat == 0 for c in PARADISE.legal_commands(state, 0))


@given(seed=SEEDS, cards=st.integers(min_value=1, max_value=3))
def test_random_battles_offer_reaction_cards_telling_no_one_who_holds_them(seed: int, cards: int) -> None:
    """Q-2 where random games seldom go: an attack on a base with villages, random hands of
    `cards` cards each, random dice and answers, every step checked as the playouts do."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = (tuple(deck[:cards]), tuple(deck[cards : 2 * cards]))
    state = replace(moving(2), hands=hands, deck=tuple(deck[2 * cards :]))
    state = place(state, SAMOA, 1, band=rng.randint(0, 2))
    state = place(state, WEST_OF_SAMOA, 0, war_canoe=2, band=2)
    command = Command(
        "Move", 0, {"path": [list(WEST_OF_SAMOA), list(SAMOA)], "pieces": {"war_canoe": 2, "band": 2}}
    )
    _, state = PARADISE.apply(state, command)
    for _ in range(200):
        if state.phase != "move" or state.seat != 0:
            break
        request = PARADISE.pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            acting = PARADISE.to_act(state)
            assert isinstance(acting, Seats) and acting.seats
            seat = acting.seats[0]
            legal = [c for c in PARADISE.legal_commands(state, seat) if c.type != "Move"]
            command = rng.choice(legal)
        _, after = PARADISE.apply(state, command)
        check_offers(state, command, after)
        state = after
        check_sea(state)
