"""The states a replay steps through, kept every STRIDE versions.

A replay's step to version N showed the state after N by reading the game's first N events
from the store again, checking their hashes and folding them all: a quarter of a second of
CPU for each step late in a long Conquest of Paradise game. The game as loaded already holds
those events, checked; and a state kept at every STRIDE-th version leaves at most STRIDE - 1
events to fold. A kept state is found by its version's hash, which the hash chain ties to
every event before it: a game whose record changed finds none of its old states.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from domain.history import rewind_target
from record.convert import to_event
from service.errors import ChainBroken
from service.loaded import Loaded
from service.loading import fold_envelopes

STRIDE = 128
KEPT = 1024
"""States kept in all, least recently used first out: 8 games of 16,000 versions, or many short.
A late Conquest of Paradise state adds about 24 KiB to those kept before it (they share what
did not change): some 25 MB per web process at most."""


class PastStates:
    """States after past versions of games, for the replays that step through them."""

    def __init__(self, stride: int = STRIDE, kept: int = KEPT) -> None:
        self.stride = stride
        self.kept = kept
        self._states: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    def state_at(self, loaded: Loaded, at: int) -> Any:
        """The state after version `at` (1..loaded.version) of `loaded`, as a load of its first
        `at` events folds it; ChainBroken when the chain breaks at or before `at`."""
        if loaded.broken is not None and at >= loaded.broken:
            raise ChainBroken(loaded.game_id, loaded.broken)
        envelopes = loaded.envelopes
        if at == loaded.version:
            return loaded.state
        start, state = self._nearest(loaded, at)
        newer = envelopes[start:at]
        events = [to_event(e) for e in newer]
        if any(rewind_target(event) is not None for event in events):
            # A rewind needs earlier states than the kept one: folded from the start, as a load.
            return fold_envelopes(loaded.rules, envelopes[:at])
        for envelope, event in zip(newer, events, strict=True):
            state = loaded.rules.evolve(state, event)
            if envelope.version % self.stride == 0:
                self._keep(loaded.game_id, envelope.version, envelope.hash, state)
        return state

    def _nearest(self, loaded: Loaded, at: int) -> tuple[int, Any]:
        """The newest kept version at or before `at` and its state; (1, the state after
        GameCreated) when none is kept."""
        envelopes = loaded.envelopes
        version = at - at % self.stride
        with self._lock:
            while version >= self.stride:
                key = (loaded.game_id, version, envelopes[version - 1].hash)
                state = self._states.get(key)
                if state is not None:
                    self._states.move_to_end(key)
                    return version, state
                version -= self.stride
        return 1, _created_state(loaded)

    def _keep(self, game_id: str, version: int, digest: str, state: Any) -> None:
        with self._lock:
            self._states[game_id, version, digest] = state
            self._states.move_to_end((game_id, version, digest))
            while len(self._states) > self.kept:
                self._states.popitem(last=False)


def _created_state(loaded: Loaded) -> Any:
    """The state after version 1 (GameCreated): the rules' initial state of its setup."""
    return fold_envelopes(loaded.rules, loaded.envelopes[:1])
