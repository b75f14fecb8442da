"""The platform reaches a game only through its declaration (domain.core.GameModule) in the registry."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.core import CHANCE, TERMINAL, Draw, GameModule, IllegalMove, Pick, Score, Seats, Shuffle
from domain.games import GAMES, register_game, rules_for

ROOT = Path(__file__).resolve().parents[1]
SETUPS = {
    "kahuna": [{"name": "A"}, {"name": "B"}],
    "arabana-ikibiti": [{"name": "A"}, {"name": "B"}],
    "arabana-opodopo": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_island_game_is_a_typed_game_module_under_its_name(name: str) -> None:
    module = GAMES[name]
    assert isinstance(module, GameModule) and module.name == name
    assert module.min_seats <= len(SETUPS[name]) <= module.max_seats
    assert module.ai is not None and module.undo.turn_markers


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_who_acts_is_one_answer_and_system_requests_are_typed(name: str) -> None:
    module = rules_for(name)
    setup = {"game": name, "seats": SETUPS[name]}
    state = module.initial_state(setup)
    assert module.to_act(state) is CHANCE
    request = module.pending_system(state)
    assert isinstance(request, Shuffle) and request.immediate
    rng = random.Random(3)
    kinds = set()
    for _ in range(3000):
        acting = module.to_act(state)
        if acting is TERMINAL:
            break
        if isinstance(acting, Seats):
            assert module.pending_system(state) is None
            command = rng.choice(list(module.legal_commands(state, acting.seats[0])))
        else:
            request = module.pending_system(state)
            assert isinstance(request, Shuffle | Pick | Score)
            kinds.add(type(request))
            command = request.answer(rng)
        for event in module.decide(state, command):
            state = module.evolve(state, event)
    assert module.to_act(state) is TERMINAL and module.is_terminal(state)
    assert {Shuffle, Score} <= kinds


def test_a_taken_name_is_refused_to_another_module() -> None:
    from dataclasses import replace

    kahuna = rules_for("kahuna")
    assert register_game(kahuna) is kahuna
    with pytest.raises(ValueError):
        register_game(replace(kahuna, max_seats=3))


def test_the_game_created_event_comes_from_the_module() -> None:
    setup = {"game": "kahuna", "seats": SETUPS["kahuna"]}
    event = rules_for("kahuna").created_event(setup)
    assert (event.type, dict(event.data)) == ("GameCreated", setup)


def test_the_undo_policy_names_no_game_s_events() -> None:
    source = (ROOT / "domain" / "undo.py").read_text()
    named = re.findall(r"\b(Pele|Ku|HandDealt|CardTaken|RoundStarted|TurnEnded|DeckShuffled)\b", source)
    assert named == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_checks_its_options_for_a_seat_count_it_is_played_by(name: str) -> None:
    module = GAMES[name]
    for seats in range(module.min_seats, module.max_seats + 1):
        module.check_options_for({}, seats)
    with pytest.raises(IllegalMove) as refused:
        module.check_options_for({"no_such_option": True}, module.min_seats)
    assert refused.value.code == "bad_option"


def test_a_game_without_a_seated_check_is_asked_its_plain_check_whatever_the_seats() -> None:
    asked: list[Mapping[str, Any]] = []
    module = replace(rules_for("kahuna"), check_options=asked.append)
    assert module.check_seated_options is None
    module.check_options_for({"edition": "original"}, 2)
    module.check_options_for({}, 7)
    assert asked == [{"edition": "original"}, {}]


RENDERERS = {"replays/render_svg.py", "replays/render_text.py", "replays/render_html.py"}
# Every package under domain/ (a game family, the tournament aggregate) is reached from outside
# through its public face (domain.games, domain.tournaments), never through its inner modules.
PACKAGES = sorted(p.parent.name for p in (ROOT / "domain").glob("*/__init__.py"))
FAMILY_IMPORT = re.compile(rf"^\s*(from|import)\s+domain\.({'|'.join(PACKAGES)})\b", re.MULTILINE)


def test_outside_domain_only_renderers_import_a_game_family() -> None:
    assert {"islands", "tournament"} <= set(PACKAGES)
    importers = {
        str(path.relative_to(ROOT))
        for package in ("service", "ai", "replays", "bench", "record")
        for path in (ROOT / package).rglob("*.py")
        if FAMILY_IMPORT.search(path.read_text())
    }
    assert importers <= RENDERERS, sorted(importers - RENDERERS)


def test_conquest_of_paradise_is_registered_for_2_to_4_seats_and_draws_through_typed_requests() -> None:
    module = rules_for("conquest-of-paradise")
    assert isinstance(module, GameModule) and (module.min_seats, module.max_seats) == (2, 4)
    state = module.initial_state({"game": module.name, "seats": [{"name": n} for n in "ABC"]})
    assert module.to_act(state) is CHANCE
    request = module.pending_system(state)
    assert isinstance(request, Draw) and request.immediate
    command = request.answer(random.Random(2))
    for event in module.decide(state, command):
        state = module.evolve(state, event)
    assert module.to_act(state) == Seats((0,)) and module.pending_system(state) is None
