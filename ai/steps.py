"""The steps one search takes, kept: a search that samples its worlds from a few kept ones (a
game whose `world` answers the same state objects again) walks the same commands from the same
states iteration after iteration, and the rules answer each alike (they are pure), so each
step is applied once and looked up after.

The system's draws are still drawn from the search's random.Random at every step, in the same
order, so a search with kept steps plays exactly the iterations of one without them, only
faster. Entries name states by their identity and hold them (an id names no other object while
its entry lives); the table is the search's, dropped with its tree.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ai.sim import MAX_SYSTEM_STEPS, ident, mover
from domain.decider import Command, IllegalMove
from domain.game_module import AIHooks, GameModule

_Refusal = tuple[str, str, str | None]
"""A kept refusal: an IllegalMove's code, message and field, raised anew each time."""

MAX_KEPT = 60_000
"""Steps kept per search at most (a few hundred bytes each, the states they lead to more):
past it, new steps are applied each time, those kept are still looked up."""


class Steps:
    """Steps of one search on `game`; kept only when `keep` (the game's SearchSettings say so)."""

    def __init__(self, game: GameModule[Any], keep: bool) -> None:
        self.game = game
        self.keep = keep
        self._after: dict[tuple[int, Hashable], tuple[Any, Command, Any, _Refusal | None]] = {}
        self._keys: dict[tuple[int, int], tuple[Any, Hashable]] = {}
        self._names: dict[Hashable, int] = {}
        self._listings: dict[Hashable, list[tuple[Hashable, Command]]] = {}
        self._values: dict[tuple[int, int | None], tuple[Any, list[float]]] = {}
        self._movers: dict[int, tuple[Any, int | None]] = {}

    def mover(self, state: Any) -> int | None:
        """`ai.sim.mover(game, state)`, worked out once per kept state: every walk asks it of
        each state it passes, and the walks pass the same few states again and again."""
        if not self.keep:
            return mover(self.game, state)
        kept = self._movers.get(id(state))
        if kept is not None and kept[0] is state:
            return kept[1]
        found = mover(self.game, state)
        if len(self._movers) < MAX_KEPT:
            self._movers[id(state)] = (state, found)
        return found

    def apply(self, state: Any, command: Command) -> Any:
        """The state after `command` (IllegalMove when refused), as `game.apply` gives it."""
        if not self.keep:
            return self.game.apply(state, command)[1]
        # A seat's command is one of the search's listed objects, named by its identity (and
        # held by the entry); the system's draws are new objects each time, named by their
        # arguments.
        named: Hashable = id(command) if command.seat is not None else ident(command)
        wanted = (id(state), named)
        kept = self._after.get(wanted)
        if kept is not None and kept[0] is state and (command.seat is None or kept[1] is command):
            if kept[3] is not None:
                raise IllegalMove(*kept[3])
            return kept[2]
        try:
            after = self.game.apply(state, command)[1]
        except IllegalMove as refused:
            parts = (refused.code, refused.message, refused.field)
        else:
            if len(self._after) < MAX_KEPT:
                self._after[wanted] = (state, command, after, None)
            return after
        # The refusal's parts are kept, and a new exception raised outside the `except`: a
        # raised exception holds its traceback, whose frames hold the search's tree (and, kept
        # or bound in this frame, the exception itself), a cycle that left the whole tree to
        # the cycle collector after the search.
        if len(self._after) < MAX_KEPT:
            self._after[wanted] = (state, command, None, parts)
        raise IllegalMove(*parts)

    def step(self, state: Any, command: Command, rng: random.Random) -> Any:
        """`state` after a seat's `command` and the system's draws that follow (ai.sim.step)."""
        state = self.apply(state, command)
        game = self.game
        for _ in range(MAX_SYSTEM_STEPS):
            pending = game.pending_system(state)
            if pending is None:
                return state
            state = self.apply(state, pending.answer(rng))
        raise RuntimeError("the system's work does not end")

    def moves_key(self, moves_key: Any, state: Any, seat: int) -> Hashable:
        """`moves_key(state, seat)`, worked out once per kept state; kept, it is answered as a
        number, equal for equal keys (one search's numbers only)."""
        if not self.keep:
            found: Hashable = moves_key(state, seat)
            return found
        wanted = (id(state), seat)
        kept = self._keys.get(wanted)
        if kept is not None and kept[0] is state:
            return kept[1]
        found = moves_key(state, seat)
        # Each key is named by a small number, once: the nodes look their listings up by it at
        # every visit, and a tuple (unlike the number) works its hash out anew each time.
        named = self._names.get(found)
        if named is None and len(self._names) < MAX_KEPT:
            named = self._names[found] = len(self._names)
        if named is not None:
            found = named
        if len(self._keys) < MAX_KEPT:
            self._keys[wanted] = (state, found)
        return found

    def evaluate(self, hooks: AIHooks[Any], state: Any, viewer: int | None) -> list[float]:
        """`hooks.evaluate(state, viewer)`, worked out once per kept state: a walk that ends
        where an earlier one did (the game's end, a refused command) meets its leaf again.
        Nobody changes the list answered."""
        if not self.keep:
            return hooks.evaluate(state, viewer)
        wanted = (id(state), viewer)
        kept = self._values.get(wanted)
        if kept is not None and kept[0] is state:
            return kept[1]
        found = hooks.evaluate(state, viewer)
        if len(self._values) < MAX_KEPT:
            self._values[wanted] = (state, found)
        return found

    def listing(
        self, hooks: AIHooks[Any], state: Any, seat: int, fingerprint: Hashable
    ) -> list[tuple[Hashable, Command]]:
        """The commands searched in `state` for `seat` (the game's `moves`), each with its ident;
        listed once per `fingerprint` (its `moves_key`) and `listing_key` for the whole search
        when the game gives a `listing_key`.

        A node lists its commands once per `moves_key` already, but the search meets the same
        listing at many nodes (the seat's own turn in each kept world, a position reached by
        two orders of commands). The list is shared: nobody changes it (a node narrows a copy).
        """
        listing_key = hooks.listing_key
        if listing_key is None:
            return [(ident(m), m) for m in hooks.moves(state, seat)]
        wanted = (fingerprint, listing_key(state, seat))
        found = self._listings.get(wanted)
        if found is None:
            found = [(ident(m), m) for m in hooks.moves(state, seat)]
            if len(self._listings) < MAX_KEPT:
                self._listings[wanted] = found
        return found
