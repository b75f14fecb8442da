"""A seat's knowledge rebuilds the very state it plays in, given the true hidden cards; and no more."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from ai.knowledge import build
from ai.table import Table
from domain.islands.sampling import determinize, sample
from domain.islands.worlds import consistent, truth, world

SETUPS = [
    {"game": "kahuna", "seats": 2},
    {"game": "kahuna", "seats": 2, "options": {"edition": "thames-kosmos"}},
    {"game": "arabana-ikibiti", "seats": 2, "options": {"seafarers": True}},
    {"game": "arabana-opodopo", "seats": 3, "options": {"gods": True}},
    {"game": "arabana-opodopo", "seats": 4},
]


def _setup(spec: dict) -> dict:
    names = [{"name": f"P{n}"} for n in range(spec["seats"])]
    return {"game": spec["game"], "seats": names, "first_seat": 0, "options": spec.get("options", {})}


def _random_play(table: Table, rng: random.Random, check) -> None:  # type: ignore[no-untyped-def]
    steps = 0
    while not table.ended and steps < 400:
        seat = table.mover()
        assert seat is not None
        legal = table.legal(seat)
        draws = [c for c in legal if c.type == "DrawCard"]
        command = rng.choice(draws) if draws and rng.random() < 0.5 else rng.choice(legal)
        table.play(command)
        steps += 1
        if steps % 3 == 0:
            check(table)


@pytest.mark.parametrize("spec", SETUPS, ids=lambda s: f"{s['game']}-{s['seats']}-{s.get('options')}")
def test_the_world_of_a_seats_knowledge_and_the_true_cards_is_the_state(spec: dict) -> None:
    rng = random.Random(7)
    sampler = random.Random(8)

    def check(table: Table) -> None:
        state = table.state
        for seat in range(state.seats):
            knowledge = table.knowledge(seat)
            assert world(knowledge.seen, truth(state), check=True) == state
            for other, cards in enumerate(knowledge.known):
                assert not Counter(cards) - Counter(state.hands[other]), "known cards are in that hand"
            sampled = sample(knowledge, sampler)
            consistent(knowledge.seen, sampled)
            assert sampled.hands[seat] == state.hands[seat]
            for other, cards in enumerate(knowledge.known):
                assert not Counter(cards) - Counter(sampled.hands[other])

    for game in range(2):
        table = Table(_setup(spec), random.Random(game))
        _random_play(table, rng, check)


def test_a_card_taken_face_up_is_known_until_it_may_have_left_unseen() -> None:
    table = Table(_setup({"game": "kahuna", "seats": 2}), random.Random(3))
    rng = random.Random(4)
    while True:
        seat = table.mover()
        legal = table.legal(seat)
        face_up = [c for c in legal if c.type == "DrawCard" and c.args["source"] == "face_up"]
        if seat == 1 and face_up:
            table.play(face_up[0])
            card = face_up[0].args["card"]
            break
        table.play(rng.choice([c for c in legal if c.type == "DrawCard"] or legal))
    assert card in table.knowledge(0).known[1]
    assert table.knowledge(0).known[0] == table.state.hands[0]


def _event(version: int, kind: str, data: dict, secret: dict | None = None, hidden: bool = False) -> dict:
    event = {"version": version, "type": kind, "data": data}
    if hidden:
        event["secret"], event["redacted"] = None, True
    elif secret is not None:
        event["secret"] = secret
    return event


def test_a_face_down_discard_makes_a_known_card_only_likely() -> None:
    view = {"seats": [{"hand_count": 3}, {"hand_count": 3}], "hand": ["A", "B", "C"]}
    events = [
        _event(1, "GameCreated", {}),
        _event(2, "HandDealt", {"seat": 1, "count": 3}, hidden=True),
        _event(3, "CardDrawn", {"seat": 1, "source": "face_up", "card": "X"}),
        _event(4, "CardDrawn", {"seat": 0, "source": "stack"}, {"card": "C"}),
    ]
    assert build(0, view, events).known[1] == ("X",)
    discarded = _event(5, "CardsDiscarded", {"seat": 1, "count": 1}, hidden=True)
    knowledge = build(0, view, [*events, discarded])
    assert knowledge.known[1] == ()
    assert knowledge.maybe[1] == (("X", 0.75),)
    own = _event(6, "CardsDiscarded", {"seat": 0, "count": 1}, {"cards": ["C"]})
    assert build(0, view, [*events, discarded, own]).own_hidden == ("C",)


def test_an_undone_draw_teaches_nothing() -> None:
    view = {"seats": [{"hand_count": 3}, {"hand_count": 3}], "hand": ["A", "B", "C"]}
    events = [
        _event(1, "GameCreated", {}),
        _event(2, "CardDrawn", {"seat": 1, "source": "face_up", "card": "X"}),
        _event(3, "Undone", {"to_version": 1, "requested_by": 1, "approved_by": [0]}),
    ]
    assert build(0, view, events).known[1] == ()


@pytest.mark.parametrize("spec", SETUPS, ids=lambda s: f"{s['game']}-{s['seats']}-{s.get('options')}")
def test_a_world_drawn_through_the_knowledges_cache_is_the_world_of_a_fresh_sample(spec: dict) -> None:
    rng = random.Random(9)
    drawn = 0

    def check(table: Table) -> None:
        nonlocal drawn
        for seat in range(table.state.seats):
            knowledge = table.knowledge(seat)
            for n in range(3):  # the first draw fills the cache, the later ones read it
                cached = determinize(knowledge, random.Random(n))
                assert cached == world(knowledge.seen, sample(knowledge, random.Random(n)))
                # Filled into a kept frame, never built: what a State derives when it is
                # built must still match its hidden cards.
                assert vars(cached) == vars(replace(cached))
                drawn += 1
            assert knowledge.cache, "the draws kept what they share"
            assert replace(knowledge).cache == {}, "a copy starts without the cache"

    table = Table(_setup(spec), random.Random(5))
    _random_play(table, rng, check)
    assert drawn > 100
