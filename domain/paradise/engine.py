"""The rules' entry points: decide a command, evolve by an event, and the automatic steps between."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise import advanced, build, combat, explore, move, order, victory
from domain.paradise.state import BUILD, ENDED, EXPLORE, MOVE, START, VICTORY, State, replace
from domain.paradise.tables import CHITS
from domain.turns import CHANCE, TERMINAL, Draw, Seats, ToAct

Evolver = Callable[[State, dict[str, Any], Any], State]
MAX_AUTOMATIC = 500
"""More automatic steps than any command can cause: a guard against a loop, never reached."""


def setup_events(state: State, draws: dict[str, int]) -> list[Event]:
    """P-0.2: the set-up hexes' ocean chits and the island chits put out of the game."""
    chits = list(state.chits)
    taken: dict[str, list[int]] = {"ocean": [], "island": []}
    for name in sorted(draws, key=lambda n: (n.split("_")[0], int(n.split("_")[1]))):
        kind = name.split("_")[0]
        index = draws[name]
        for n, chit in enumerate(CHITS):
            if chit.kind != kind:
                continue
            if index < chits[n]:
                chits[n] -= 1
                taken[kind].append(n)
                break
            index -= chits[n]
    return [Event("SetupDrawn", {"ocean": taken["ocean"], "island": taken["island"]})]


def setup_drawn(state: State, data: dict[str, Any], secret: Any) -> State:
    chits = list(state.chits)
    for n in data["ocean"] + data["island"]:
        chits[n] -= 1
    state = replace(state, chits=tuple(chits), due=None)
    return state if state.options.variable_start else order.begin_turn(state, 1)


def phase_started(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, phase=data["phase"], active=0, expedition=None, transit_open=True, moved=False)


EVOLVERS: dict[str, Evolver] = {
    "SetupDrawn": setup_drawn,
    "PhaseStarted": phase_started,
    **order.EVOLVERS,
    **explore.EVOLVERS,
    **move.EVOLVERS,
    **combat.EVOLVERS,
    **build.EVOLVERS,
    **victory.EVOLVERS,
    **advanced.EVOLVERS,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event`; events the rules do not know leave it unchanged."""
    handler = EVOLVERS.get(event.type)
    return state if handler is None else handler(state, dict(event.data), event.secret)


# --- who acts ------------------------------------------------------------------------------


def is_terminal(state: State) -> bool:
    return state.result is not None


def acting(state: State) -> tuple[int, ...]:
    """The seats whose command the game waits for now (several while builds are committed)."""
    if state.result is not None or state.due is not None:
        return ()
    if state.choice is not None:
        return (state.choice.seat,) if state.choice.seat >= 0 else ()
    if state.phase in (BUILD, START) and not state.due:
        # One seat at a time, as the island games' simultaneous choices: the orders of those
        # before are secret, so the play stays simultaneous; the platform's computer
        # seats and clients wait for the first seat named.
        waiting = [seat for seat, d in enumerate(state.drafts) if not d.committed]
        return tuple(waiting[:1])
    if state.phase == EXPLORE and state.expedition is not None:
        return (state.expedition.seat,)
    if state.phase == MOVE and state.active < len(state.order):
        return (state.seat,)
    return ()


def to_act(state: State) -> ToAct:
    if is_terminal(state):
        return TERMINAL
    seats = acting(state)
    return Seats(seats) if seats else CHANCE


def pending_system(state: State) -> Draw | None:
    """The draw the rules wait for: a chit, a tile, a card, a die, the set-up chits (Q-3)."""
    if state.result is not None or state.due is None:
        return None
    return Draw(dict(state.due.piles), "Draw")


# --- the automatic steps -------------------------------------------------------------------


def automatic(state: State) -> Event | None:
    """The next event the rules make on their own, or None when a seat or the system must act."""
    if state.result is not None or state.due is not None:
        return None
    south = advanced.south_island_event(state)
    if south is not None:
        return south
    if state.battle is not None:
        auto = combat.casualty_auto(state)
        if auto is not None or state.choice is not None:
            return auto
        return combat.automatic(state)
    if state.choice is not None:
        return None
    if state.phase in (START, BUILD):
        return _after_builds(state)
    if state.phase == EXPLORE:
        if state.active >= len(state.order):
            return Event("PhaseStarted", {"phase": MOVE})
        return explore.automatic(state)
    if state.phase == MOVE and state.active >= len(state.order):
        return Event("PhaseStarted", {"phase": BUILD})
    if state.phase == VICTORY:
        return victory.automatic(state)
    return None


def _after_builds(state: State) -> Event | None:
    if not all(d.committed for d in state.drafts):
        return None
    seats = state.order or tuple(range(state.seats))
    for seat in seats:
        draft = state.drafts[seat]
        if draft.items or draft.rotate or draft.save:
            return build.reveal_event(state, seat)
    if state.phase == START:
        return Event("TurnStarted", {"turn": 1})
    if order.should_arm_malaria(state):
        return Event(order.MALARIA_ARMED, {})
    return Event("PhaseStarted", {"phase": VICTORY})


def settle(state: State, events: list[Event]) -> State:
    """Apply the automatic steps that follow, appending their events to `events`."""
    for _ in range(MAX_AUTOMATIC):
        event = automatic(state)
        if event is None:
            return state
        events.append(event)
        state = evolve(state, event)
    raise RuntimeError("the automatic steps do not end")


# --- deciding ------------------------------------------------------------------------------

Decider = Callable[[State, Command], list[Event]]
BY_CHOICE: dict[str, dict[str, Decider]] = {
    "order": {"ChooseOrder": order.decide_order},
    "redirect": {"Redirect": explore.decide_redirect},
    "fight": {"Fight": combat.decide_fight},
    "casualty": {"Lose": combat.decide_casualty},
    "haka": {"UseCard": combat.decide_card},
    "arioi": {"UseCard": combat.decide_card},
    "retreat": {"Retreat": combat.decide_retreat},
    "save": {"SaveVillages": combat.decide_save},
    "base": {"ChooseBase": combat.decide_base},
    "deforest": {"Deforest": victory.decide_deforest},
    "kumara": {"KumaraStep": advanced.decide_step, "ReachSouthAmerica": advanced.decide_step},
    "marker": {"RevealTile": explore.decide_reveal},
}
BY_PHASE: dict[str, dict[str, Decider]] = {
    EXPLORE: {
        "Explore": explore.decide_explore,
        "EndExploration": explore.decide_end,
        "SeekKumara": advanced.decide_seek,
        "RevealTile": explore.decide_reveal,
        "RevealCard": build.decide_reveal_card,
    },
    MOVE: {
        "Transit": move.decide_transit,
        "Move": move.decide_move,
        "FlipTransport": move.decide_flip,
        "EndMovement": move.decide_end,
        "RevealTile": explore.decide_reveal,
        "RevealCard": build.decide_reveal_card,
    },
    BUILD: {
        "EndBuild": build.decide_commit,
        "RevealCard": build.decide_reveal_card,
    },
    START: {"EndBuild": build.decide_commit},
}
ANY_TIME: dict[str, Decider] = {"RevealTile": explore.decide_reveal, "RevealCard": build.decide_reveal_card}
"""Commands a seat may give whenever it may send one, in turn or not, in any phase or choice."""
COMMANDS = frozenset(
    {name for table in (*BY_CHOICE.values(), *BY_PHASE.values()) for name in table} | {"Draw"}
)


def _system(state: State, command: Command) -> list[Event]:
    due = state.due
    draws = command.args.get("draws")
    if due is None or not isinstance(draws, dict) or set(draws) != set(due.piles):
        raise IllegalMove("no_draw_due", "the rules wait for no such draw")
    if not all(isinstance(v, int) and 0 <= v < due.piles[k] for k, v in draws.items()):
        raise IllegalMove("bad_draw", "each draw lies below its pile's size")
    if due.what == "setup":
        return setup_events(state, draws)
    if due.what == "chit":
        return explore.chit_events(state, draws["chit"])
    if due.what == "tile":
        return explore.tile_events(state, draws["tile"])
    if due.what == "card":
        return build.card_events(state, draws["card"])
    if due.what == "kumara":
        return advanced.roll_events(state, draws["die"] + 1)
    if due.what == "malaria":
        return order.malaria_events(state, draws["die"] + 1)
    return combat.roll_events(state, draws["die"] + 1)


def _decider(state: State, command: Command) -> Decider:
    if command.type not in COMMANDS:
        raise IllegalMove("unknown_command", f"Conquest of Paradise knows no {command.type!r}")
    if command.seat is None:
        if command.type != "Draw":
            raise IllegalMove("not_allowed", "the system only draws")
        return _system
    if state.result is not None or state.phase == ENDED:
        raise IllegalMove("game_over", "the game has ended")
    if command.type in ANY_TIME:
        # P-2.2, P-4.4: a discoverer shows its tile, a holder its card, at any time.
        return ANY_TIME[command.type]
    if command.seat not in acting(state):
        raise IllegalMove("not_your_turn", "the game waits for another seat")
    table = BY_CHOICE[state.choice.kind] if state.choice is not None else BY_PHASE.get(state.phase, {})
    if command.type not in table:
        raise IllegalMove("not_allowed", f"{command.type} is not what the game waits for now")
    return table[command.type]


def decide_with_state(state: State, command: Command) -> tuple[list[Event], State]:
    """The events `command` causes, the automatic steps after them, and the state they lead to."""
    events = _decider(state, command)(state, command)
    for event in events:
        state = evolve(state, event)
    state = settle(state, events)
    return events, state


def decide(state: State, command: Command) -> list[Event]:
    return decide_with_state(state, command)[0]


def judge(state: State, command: Command) -> list[Event]:
    """The events `command` causes, without the state they lead to: IllegalMove when refused.

    Only deciding refuses a command (evolving and the automatic steps never do), so the legal
    lists ask this, and spare themselves a state per candidate."""
    return _decider(state, command)(state, command)
