"""Listings hand out shared command values: the same object each time, never changeable."""

from __future__ import annotations

import random

import pytest
from given import KAHUNA, OPODOPO, random_game

from domain.decider import Command
from domain.islands import catalog as catalog_module
from domain.islands import engine
from domain.islands.ruleset import ruleset_for


def test_equal_rulesets_are_one_object_whose_tables_are_built_once() -> None:
    handicap = {"seat": 1, "free_bridges": 2}
    first = ruleset_for("arabana-ikibiti", {"handicap": handicap, "seafarers": True})
    again = ruleset_for("arabana-ikibiti", {"seafarers": True, "handicap": dict(reversed(handicap.items()))})
    assert first is again
    assert ruleset_for("arabana-ikibiti", {}) is not first and ruleset_for("arabana-ikibiti", {}) != first


def test_listing_twice_hands_out_the_same_commands() -> None:
    states = [s for _, _, s in random_game(random.Random(5), KAHUNA) if s.phase == "play"]
    listed = 0
    for state in states:
        first, again = engine.legal_commands(state, state.active), engine.legal_commands(state, state.active)
        assert first == again
        assert all(a is b for a, b in zip(first, again, strict=True))
        listed += len(first)
    assert listed > 0


def test_a_listed_commands_args_cannot_be_changed() -> None:
    state = next(s for _, _, s in random_game(random.Random(5), OPODOPO) if s.phase == "play")
    command = next(c for c in engine.legal_commands(state, state.active) if c.type == "PlaceBridge")
    with pytest.raises(TypeError):
        command.args["card"] = "elsewhere"  # type: ignore[index]
    assert command == Command("PlaceBridge", state.active, dict(command.args))
    assert command.to_json() == {"type": "PlaceBridge", **command.args}


def test_a_full_catalog_table_starts_again_and_lists_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long-lived worker sees hands without end: the hand-keyed tables stay bounded.
    states = [s for _, _, s in random_game(random.Random(9), KAHUNA) if s.phase == "play"]
    before = [engine.legal_commands(state, state.active) for state in states]
    monkeypatch.setattr(catalog_module, "MAX_ENTRIES", 3)
    book = catalog_module.Catalog(states[0].rules)
    monkeypatch.setitem(states[0].rules.derived, "catalog", book)
    after = [engine.legal_commands(state, state.active) for state in states]
    assert after == before
    assert len(book._single) <= 3 and len(book._listed) <= 3 and len(book._hand_lines) <= 3


def test_a_cards_placements_on_open_lines_are_those_lines_in_the_boards_order() -> None:
    rules = ruleset_for("kahuna", {})
    book = catalog_module.Catalog(rules)
    card = rules.board.names[0]
    placing, _ = book.on_lines(0, (card,))
    (on_card,) = placing
    lines = rules.board.lines_of(card)
    assert on_card.lines == rules.board.line_mask(card)

    chosen = (1 << lines[0]) | (1 << lines[-1])
    found = on_card.on(chosen)

    assert [c.args["line"] for c in found] == [
        list(rules.board.lines[lines[0]]),
        list(rules.board.lines[lines[-1]]),
    ]
    assert all(c.type == "PlaceBridge" and c.args["card"] == card for c in found)
    assert on_card.on(chosen) is found  # made once, handed out again
    assert on_card.on(on_card.lines) == tuple(c for _, c in book.placements(0, card))
