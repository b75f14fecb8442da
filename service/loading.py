"""Loading a game: its stored events read, their hash chain checked, folded, and the fold kept
in a cache that later loads catch up with the newer events alone."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from domain.decider import fold
from domain.games import rules_for
from domain.history import fold_history, rewind_target
from record.chain import verify_chain
from record.convert import to_event
from record.envelope import Envelope, EventStorePort
from service.errors import ChainBroken, ChainTruncated, GameNotFound
from service.loaded import Loaded

RECHECK_SECONDS = 60.0
"""How long a cached fold is caught up by its new events alone; after that, the next load
reads and checks the game's whole chain again (and keeps the fold if nothing changed), so an
older event changed in Redis is noticed within this time even in a game watched all along."""

Cached = tuple[Loaded, float]
"""A cached fold (its state, envelopes and marks; its chain unbroken), and when the whole chain
was last read and checked."""


def fold_envelopes(rules: Any, envelopes: Sequence[Envelope]) -> Any:
    """The state after `envelopes` (from GameCreated on), undos and corrections included."""
    events = ((e.version, to_event(e)) for e in envelopes[1:])
    return fold_history(rules, envelopes[0].data, events)[-1]


def extended(loaded: Loaded, newer: Sequence[Envelope]) -> Loaded:
    """`loaded` with `newer` (the envelopes right after it) folded in.

    A rewind needs the state of an earlier version, which only a fold from the start
    keeps: rare, and cheap next to a round trip, so the game is then folded afresh.
    """
    if not newer:
        return loaded
    envelopes = [*loaded.envelopes, *newer]
    events = [to_event(e) for e in newer]
    if any(rewind_target(event) is not None for event in events):
        state = fold_envelopes(loaded.rules, envelopes)
    else:
        state = fold(loaded.rules, loaded.state, events)
    marks = loaded.marks.after(newer) if loaded.broken is None else None
    return Loaded(loaded.game_id, loaded.rules, state, envelopes, given_marks=marks)


def first_bad(envelopes: Sequence[Envelope]) -> int | None:
    """The first bad version of a whole game's events (from version 1 on); None when they hold."""
    if envelopes and envelopes[0].version != 1:
        return 1  # the chain's start is missing, so nothing after it can be vouched for
    return verify_chain(envelopes)


def chains_onto(newest: Envelope, tail: Sequence[Envelope]) -> bool:
    """Whether `tail`, read after the already checked `newest`, links onto it and each of its
    hashes holds; `newest` itself is not hashed again."""
    if tail and (tail[0].prev_hash != newest.hash or tail[0].version != newest.version + 1):
        return False
    return verify_chain(tail) is None


def checked(game_id: str, envelopes: list[Envelope]) -> Loaded:
    """The game folded from `envelopes` (from version 1 on), its hash chain checked first.

    A break at version 1 leaves nothing to fold (not even which game it is): ChainBroken.
    """
    if not envelopes:
        raise GameNotFound(game_id)
    broken = first_bad(envelopes)
    if broken == 1:
        raise ChainBroken(game_id, 1)
    trusted = envelopes if broken is None else envelopes[: broken - 1]
    rules = rules_for(trusted[0].data["game"])
    return Loaded(game_id, rules, fold_envelopes(rules, trusted), envelopes, broken)


class Loader:
    """Loads games from the store through a cache of the newest folds of the last `cache_size`
    games loaded (least recently used first out)."""

    def __init__(
        self,
        store: EventStorePort,
        cache_size: int = 256,
        clock: Callable[[], float] = time.monotonic,
        recheck_seconds: float = RECHECK_SECONDS,
    ) -> None:
        self.store = store
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._cache_size = cache_size
        self._clock = clock
        self._recheck_seconds = recheck_seconds
        self._lock = threading.Lock()

    def load(self, game_id: str, upto: int | None = None, fresh: bool = False) -> Loaded:
        """The game folded from its events (all, or up to version `upto`), chain checked.

        `fresh` reads every event from the store even when a fold is cached (an export,
        which must show what is stored). A game whose chain breaks is never cached, so
        every later load reads (and checks) the store again.
        """
        if upto is not None:
            return checked(game_id, self.store.read(game_id, upto=upto))
        with self._lock:
            cached = None if fresh else self._cache.get(game_id)
        try:
            loaded, checked_at = self._loaded(game_id, cached)
        except (ChainBroken, ChainTruncated):  # nothing to fold at all, or not the whole of it
            self.forget(game_id)
            raise
        if loaded.broken is None:
            self._remember(loaded, checked_at)
        else:
            self.forget(game_id)
        return loaded

    def read_plan(self, game_id: str) -> int:
        """The version after which the next `load(game_id)` reads the store: the cached fold's
        newest event (read again to check it), or 0 for a whole read (nothing cached, or the
        recheck is due)."""
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is None or self._recheck_due(cached[1], self._clock()):
            return 0
        return cached[0].envelopes[-1].version - 1

    def _recheck_due(self, checked_at: float, now: float) -> bool:
        """Whether a cached fold's whole chain is to be read and checked again (not caught up)."""
        return now - checked_at >= self._recheck_seconds

    def advanced(self, loaded: Loaded, newer: Sequence[Envelope]) -> Loaded | None:
        """`loaded` with `newer` (read right after it) folded in; None when they do not chain
        onto it.

        The fold is the cache's when the cache holds the game at just that version, and is
        cached when the cache held `loaded`: the command that appended the events and every
        watcher of the game in this process fold them once between them.
        """
        if not chains_onto(loaded.envelopes[-1], newer):
            return None
        if not newer:
            return loaded
        with self._lock:
            cached = self._cache.get(loaded.game_id)
        if cached is not None:
            held = cached[0]
            if held.version == loaded.version + len(newer) and held.envelopes[-1] == newer[-1]:
                return held
        after = extended(loaded, newer)
        if cached is not None and loaded.broken is None and cached[0].envelopes[-1] == loaded.envelopes[-1]:
            self._remember(after, cached[1])
        return after

    def forget(self, game_id: str) -> None:
        """Drop the game's cached fold: the next load reads the store from version 1."""
        with self._lock:
            self._cache.pop(game_id, None)

    def _remember(self, loaded: Loaded, checked_at: float) -> None:
        game_id = loaded.game_id
        with self._lock:
            self._cache[game_id] = (loaded, checked_at)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _loaded(self, game_id: str, cached: Cached | None) -> tuple[Loaded, float]:
        """The game, and when its whole chain was last read and checked."""
        now = self._clock()
        if cached is None:
            return checked(game_id, self.store.read(game_id)), now
        held, checked_at = cached
        if self._recheck_due(checked_at, now):
            return self._rechecked(held), now
        caught_up = self._catch_up(held)
        if caught_up is None:
            return checked(game_id, self.store.read(game_id)), now
        return caught_up, checked_at

    def _rechecked(self, held: Loaded) -> Loaded:
        """The game from a read of every stored event, its whole chain checked; the cached
        fold is kept (not folded again) while the store still holds its events unchanged."""
        read = self.store.read(held.game_id)
        newest = held.envelopes[-1]
        unchanged = len(read) >= newest.version and read[newest.version - 1] == newest
        if unchanged and first_bad(read) is None:
            return extended(held, read[newest.version :])
        return checked(held.game_id, read)

    def _catch_up(self, held: Loaded) -> Loaded | None:
        """The cached fold with the newer events, or None when the store no longer agrees.

        The one read starts at the cached newest event, so it costs no extra round trip:
        that event must come back unchanged and the new tail must chain onto it. Older
        events are not read again until RECHECK_SECONDS have passed; a verify (and any load
        without the cache) checks them at once.
        """
        newest = held.envelopes[-1]
        read = self.store.read(held.game_id, after=newest.version - 1)
        if not read or read[0] != newest:
            return None
        tail = read[1:]
        if not chains_onto(newest, tail):
            return None
        return extended(held, tail)
