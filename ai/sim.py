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
from typing import Any

from domain.core import Command, Event, GameModule, Seats

MAX_SYSTEM_STEPS = 16


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
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def ident(command: Command) -> Hashable:
    """A command's identity as a cheap hashable value: equal exactly when `key` is.

    The searches key their trees by it many times per iteration, where `key`'s JSON costs
    too much; `key` stays the form answers and analyses are given in.
    """
    return (command.type, _frozen(command.args))


def _frozen(value: Any) -> Hashable:
    if isinstance(value, str | int | float | bool | None):
        return value
    if isinstance(value, Mapping):
        return (_MAPPING, tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    return tuple(_frozen(v) for v in value)


_MAPPING = object()  # marks a mapping's items apart from a list of pairs


def as_command(body: Mapping[str, Any], seat: int) -> Command:
    """The command a posted body names."""
    return Command(str(body["type"]), seat, {k: v for k, v in body.items() if k != "type"})


def seed_of(*parts: Any) -> int:
    """A stable seed from any parts (the same across processes, runs and machines)."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
