"""Running the rules without the service: the system's chance and scoring, and whose move it is.

Searches run commands on sampled worlds, and the arena plays whole games in memory. Both
answer the system's requests (a shuffle, Pele's random picks, a round's scoring) the way
the service and its scoring job do, with the caller's random.Random instead of `secrets`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Hashable, Mapping
from types import MappingProxyType
from typing import Any

from domain.decider import Command, Event
from domain.game_module import GameModule
from domain.turns import Seats

MAX_SYSTEM_STEPS = 1000
"""More system steps in a row than any game's rules ask for, so a guard against a rules bug
that never stops drawing, never a cut of real play: a battle of Conquest of Paradise rolls
a die per piece hit (its two first lines and local warriors hold up to about 30 pieces),
each roll one step, and a cut there would leave a search's world mid-battle."""


def apply(game: GameModule[Any], state: Any, command: Command) -> tuple[Any, list[Event]]:
    """The state after `command` and the events it caused (IllegalMove when refused)."""
    events, state = game.apply(state, command)
    return state, events


def settle(game: GameModule[Any], state: Any, rng: random.Random) -> Any:
    """`state` after the system work it waits for (deals, picks, scorings), if any."""
    for _ in range(MAX_SYSTEM_STEPS):
        pending = game.pending_system(state)
        if pending is None:
            return state
        state, _ = apply(game, state, pending.answer(rng))
    raise RuntimeError("the system's work does not end")


def step(game: GameModule[Any], state: Any, command: Command, rng: random.Random) -> Any:
    """`state` after a seat's `command` and the system work that follows it."""
    state, _ = apply(game, state, command)
    return settle(game, state, rng)


def mover(game: GameModule[Any], state: Any) -> int | None:
    """The seat whose command the game waits for (several at once: the first of them)."""
    acting = game.to_act(state)
    return acting.seats[0] if isinstance(acting, Seats) and acting.seats else None


def key(command: Command | Mapping[str, Any]) -> str:
    """A command's identity as text: its type and arguments (as posted), keys sorted."""
    body = command.to_json() if isinstance(command, Command) else dict(command)
    return _encode(body)


_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""json.dumps with these arguments, its encoder built once: `dumps` builds one per call."""


def ident(command: Command) -> Hashable:
    """A command's identity as a hashable value: `key`, equal exactly when the posted bodies are.

    The searches key their trees by it many times per iteration. Text is the cheap form: the
    C encoder writes it faster than a nested tuple is built in Python, and a string keeps its
    hash, where a tuple's is worked out anew at every look-up in a node's children.

    Most listed commands are shared values whose args nobody can change (a read-only
    mapping: the rules list one object per placement, draw or discard for a whole game), so
    each one's identity is kept per object: a node's new listing then costs a look-up per
    command. The table holds the command itself, so its id names no other object while the
    entry lives.
    """
    if type(command.args) is not MappingProxyType:
        return _encode({"type": command.type, **command.args})
    kept = _IDENTS.get(id(command))
    if kept is not None and kept[0] is command:
        return kept[1]
    found = _encode({"type": command.type, **command.args})
    if len(_IDENTS) >= MAX_IDENTS:  # a long-lived worker meets rulesets without end
        _IDENTS.clear()
    _IDENTS[id(command)] = (command, found)
    return found


MAX_IDENTS = 50_000
_IDENTS: dict[int, tuple[Command, str]] = {}


def as_command(body: Mapping[str, Any], seat: int) -> Command:
    """The command a posted body names."""
    return Command(str(body["type"]), seat, {k: v for k, v in body.items() if k != "type"})


def seed_of(*parts: Any) -> int:
    """A stable seed from any parts (the same across processes, runs and machines)."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
