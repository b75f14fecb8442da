"""What the island groups alone tell, worked out once per map of groups: who controls which
group, the villages and free squares each seat holds, and how near colonies stand to a group
they may settle.

A state's `islands` mapping is never changed once a state holds it (`with_island` makes a new
one), and most of the game's steps (moves, orders, draws, the turn's phases) hand the same
mapping on. The victory points, the evaluation and the rules that read them ask these facts
of thousands of states in a search, nearly all of them with a map met before: the facts are
kept per mapping object, beside it, while it lives in the table below.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from domain.paradise.hexes import distance
from domain.paradise.state import INDEPENDENT, Island
from domain.paradise.tables import CARDS, Hex

KEPT_MAPS = 4096
"""Maps whose facts are kept at most; past it the table starts afresh (a search meets a few
hundred, a game one per change of a group)."""


def controller(island: Island) -> int | None:
    """The seat controlling a group (INDEPENDENT for an unconquered printed group), or None."""
    if island.owner == INDEPENDENT:
        return INDEPENDENT
    return island.owner if island.villages > 0 else None


def is_free(island: Island) -> bool:
    """A group nobody holds, not an atoll, with a square a village may stand on."""
    return controller(island) is None and not island.atoll and island.squares > island.villages


class Held:
    """One seat's groups: where they lie (sorted), their names, villages and free squares."""

    __slots__ = ("groups", "names", "villages", "room", "found", "cards")

    def __init__(self, islands: Mapping[Hex, Island], seat: int) -> None:
        groups = sorted(at for at, island in islands.items() if controller(island) == seat)
        self.groups = groups
        self.names = frozenset(islands[at].name for at in groups)
        self.villages = sum(islands[at].villages for at in groups)
        self.room = sum(max(0, islands[at].squares - islands[at].villages) for at in groups)
        # Unheld groups with a free square the seat knows of: face up, or a tile it found.
        self.found = sum(
            1
            for island in islands.values()
            if (island.face_up or seat in island.discoverers) and not island.printed and is_free(island)
        )
        self.cards: dict[tuple[str, ...], int] = {}

    def card_halves(self, cards: tuple[str, ...]) -> int:
        """The victory points of `cards` in halves, their bonuses counted for these groups: a
        seat's cards change far more seldom than the states whose points are asked."""
        found = self.cards.get(cards)
        if found is None:
            found = 0
            for name in cards:
                card = CARDS[name]
                bonus = card.bonus_vp if not self.names.isdisjoint(card.bonus_islands) else 0
                found += 2 * (card.vp + bonus)
            self.cards[cards] = found
        return found


class MapFacts:
    """The facts of one mapping of groups, each worked out when first asked."""

    __slots__ = ("islands", "held", "free", "near", "explorer", "standing")

    def __init__(self, islands: Mapping[Hex, Island]) -> None:
        self.islands = islands  # held: the table names it by its identity
        self.held: dict[int, Held] = {}
        self.free: list[Hex] | None = None
        self.near: dict[Hex, int | None] = {}
        # The explorer's start region and first steps on this map (domain.paradise.explore),
        # by the seat and what else they read.
        self.explorer: dict[Hashable, Any] = {}
        self.standing: tuple[Hashable, ...] | None = None

    def groups(self) -> tuple[Hashable, ...]:
        """Each group as it stands, in the mapping's order: where, who holds it, its villages,
        agriculture, warriors and garrison, malaria, face up or found by whom."""
        if self.standing is None:
            self.standing = tuple(
                (
                    at,
                    island.owner,
                    island.villages,
                    island.agriculture,
                    island.warriors,
                    island.garrison,
                    island.malaria,
                    island.face_up,
                    island.discoverers,
                )
                for at, island in self.islands.items()
            )
        return self.standing

    def of(self, seat: int) -> Held:
        found = self.held.get(seat)
        if found is None:
            found = self.held[seat] = Held(self.islands, seat)
        return found

    def nearest_free(self, at: Hex) -> int | None:
        """Steps from `at` to the nearest face-up group colonies may settle (None: there is none)."""
        if at in self.near:
            return self.near[at]
        if self.free is None:
            self.free = [
                there for there, island in self.islands.items() if island.face_up and is_free(island)
            ]
        steps = min((distance(at, there) for there in self.free), default=None)
        self.near[at] = steps
        return steps


_KEPT: dict[int, MapFacts] = {}


def facts(islands: Mapping[Hex, Island]) -> MapFacts:
    """The facts of `islands`, kept while the table holds the mapping."""
    found = _KEPT.get(id(islands))
    if found is not None and found.islands is islands:
        return found
    if len(_KEPT) >= KEPT_MAPS:
        _KEPT.clear()
    found = _KEPT[id(islands)] = MapFacts(islands)
    return found
