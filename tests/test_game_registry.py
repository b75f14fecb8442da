"""The platform reaches a game only through its declaration (domain.game_module.GameModule)
in the registry."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain import undo
from domain.decider import Command, IllegalMove
from domain.ending import ending, result_end
from domain.game_module import GameModule
from domain.games import GAMES, register_game, rules_for
from domain.turns import CHANCE, TERMINAL, Draw, Pick, Score, Seats, Shuffle
from domain.undo import Record
from replays import notation
from replays.render_svg import render_svg, status_line
from replays.render_text import show_text
from replays.renderers import renderer_of
from tests.families.registered import EVERY_GAME

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


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
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
# through its public face (domain.games, domain.tournament_rules), never through its inner modules.
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


# --- every game, the test families' too: what each declares, the platform reads ------------

SHORT = {"conquest-of-paradise": {"last_turn": 2}}
"""Options that keep a random game short (the registry-wide tests play each to its end)."""


def played_out(module: GameModule[Any], seed: int = 5) -> tuple[Any, list[Any]]:
    """A random game of `module` for its fewest seats, to its end: the state and the events."""
    rng = random.Random(seed)
    seats = [{"name": name} for name in "ABCD"[: module.min_seats]]
    setup = {"game": module.name, "seats": seats, "first_seat": 0, "options": SHORT.get(module.name, {})}
    state, events = module.initial_state(setup), [module.created_event(setup)]
    for _ in range(5000):
        acting = module.to_act(state)
        if acting is TERMINAL:
            return state, events
        if isinstance(acting, Seats):
            command = rng.choice(list(module.legal_commands(state, acting.seats[0])))
        else:
            request = module.pending_system(state)
            assert request is not None, "the system is to act but the rules ask nothing"
            command = request.answer(rng)
        done, state = module.apply(state, command)
        events += done
    raise AssertionError(f"a random game of {module.name} did not end")


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_game_ends_with_the_event_it_declares_and_the_platform_reads_that_end(name: str) -> None:
    module = rules_for(name)
    state, events = played_out(module)
    records = [Record(n, e.type, e.data, "system", f"c{n}") for n, e in enumerate(events, start=1)]

    assert events[-1].type == module.end_event and dict(events[-1].data) == dict(module.result(state) or {})
    assert ending(records, module.end_event) is records[-1]
    assert result_end(records, module.end_event) is records[-1]
    assert not module.schemas.events or module.end_event in module.schemas.events
    # After the end, no takeback is asked for (the result stands), whatever the end is named.
    with pytest.raises(IllegalMove) as refused:
        undo.decide(records, Command(undo.REQUEST_TAKEBACK, 0, {"to_version": 2}), module)
    assert refused.value.code == undo.GAME_ENDED


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_game_gives_its_words_and_a_registered_renderer_draws_and_writes_it(name: str) -> None:
    module = rules_for(name)
    state, events = played_out(module)
    assert module.words.title
    renderer = renderer_of(name)
    assert renderer.kind == module.renderer
    for seen in (module.view(module.initial_state(events[0].data), None), module.view(state, None)):
        assert render_svg(seen).startswith(("<?xml", "<svg")) and module.words.title in render_svg(seen)
        assert show_text(seen).startswith(module.words.title) and status_line(seen)
    dicts = [{"type": e.type, "data": dict(e.data), "secret": e.secret} for e in events]
    written = notation.format(dicts)
    assert notation.parse(written) == notation.parse(written) and f'[Game "{name}"]' in written


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_command_a_game_offers_has_its_own_words(name: str) -> None:
    module = rules_for(name)
    rng, seen = random.Random(9), set()
    seats = [{"name": n} for n in "ABCD"[: module.min_seats]]
    state = module.initial_state(
        {"game": name, "seats": seats, "first_seat": 0, "options": SHORT.get(name, {})}
    )
    for _ in range(300):
        acting = module.to_act(state)
        if acting is TERMINAL:
            break
        if isinstance(acting, Seats):
            offered = list(module.legal_commands(state, acting.seats[0]))
            seen |= {c.type for c in offered}
            command = rng.choice(offered)
        else:
            command = module.pending_system(state).answer(rng)  # type: ignore[union-attr]
        _, state = module.apply(state, command)
    assert seen and seen <= set(module.words.commands), sorted(seen - set(module.words.commands))


def test_no_platform_module_names_the_end_of_a_game() -> None:
    families = {p.parent for p in (ROOT / "domain").glob("*/module.py")}
    named = [
        str(path.relative_to(ROOT))
        for package in ("domain", "service", "ai", "replays", "bench", "record")
        for path in (ROOT / package).rglob("*")
        if path.suffix in (".py", ".js", ".html")
        and not any(family in path.parents for family in families)
        and '"GameEnded"' in path.read_text()
    ]
    assert named == []
