"""What a seat's canoes meet on the map as `move.path_error` judges it: the hexes they may enter
(escorted by a war canoe or not), where a war canoe must stop, and the paths and two-step ways
from a hex these allow. None of it reads the seat's own pieces, so it is worked out once per
seat and kept across the seat's own moves (`state.kept_over_own_moves`): a movement phase asks
it again after every move of the seat, of a map that only the seat's own pieces changed."""

from __future__ import annotations

from typing import Any

from domain.decider import Command
from domain.paradise.empire import controller, is_enemy, is_known, revealed_effect
from domain.paradise.hexes import neighbours
from domain.paradise.state import Counts, State, kept_over_own_moves
from domain.paradise.tables import Hex

SPEED, POI_SPEED = 2, 3
"""P-3.2: canoes move one or two hexes (three with Poi face up, Q-D6)."""
Path = tuple[int, Hex, list[list[int]], tuple[Hex, ...]]
"""A path found: its hexes' count, its end, its hexes as a command writes them, and its hexes."""
Way = tuple[bool, bool, Hex]
"""What a search of paths starts from: war canoe or not, escorted or not, the start."""


def speed(state: State, seat: int) -> int:
    return POI_SPEED if revealed_effect(state, seat, "canoes_three") else SPEED


def stops_war_canoe(state: State, at: Hex, seat: int) -> bool:
    """A war canoe ends its move here: an enemy group or another seat's war canoe (P-3.2)."""
    island = state.islands.get(at)
    if island is not None and controller(island) not in (None, seat):
        return True
    return any(other != seat and state.pieces(at, other)["war_canoe"] for other in state.occupants(at))


class Terrain:
    """The map as one seat's canoes meet it, worked out as asked from the state each question
    comes with: any state of the seat's moves since the terrain was made, all alike in what it
    reads (holding none of them: a state keeps its terrain, and a cycle would leave every
    such state to the garbage collector)."""

    __slots__ = ("seat", "speed", "entered", "stops", "found", "steps", "sailed", "moved", "stopped")

    def __init__(self, state: State, seat: int) -> None:
        self.seat = seat
        self.speed = speed(state, seat)
        self.entered: tuple[dict[Hex, bool], dict[Hex, bool]] = ({}, {})
        self.stops: dict[Hex, bool] = {}
        self.found: dict[Way, list[Path]] = {}
        self.steps: dict[Way, list[tuple[Hex, list[Hex]]]] = {}
        # For the legal lists (`legal._Reach.sailing`): by hex, a stack's pieces and those
        # moved, and its moves without stops, as long as they read only these and the terrain.
        self.sailed: dict[Hex, tuple[Counts, Counts, list[Command]]] = {}
        # By hex and load (`legal._Reach.moves`), the load's moves without stops from there.
        self.moved: dict[tuple[Any, ...], list[Command]] = {}
        # And (`legal._Reach.stopping`) by hex, the moves stopping halfway from there, with
        # the seat's pieces (and those moved) they read, by hex (None where it had none).
        self.stopped: dict[
            Hex, tuple[tuple[tuple[Hex, Counts | None, Counts | None], ...], list[Command]]
        ] = {}

    def enters(self, state: State, at: Hex, escorted: bool) -> bool:
        """Whether a canoe enters `at`: a known hex, not an enemy's unless a war canoe escorts."""
        entered = self.entered[escorted]
        known = entered.get(at)
        if known is None:
            known = entered[at] = is_known(state, at) and (escorted or not is_enemy(state, at, self.seat))
        return known

    def stops_war_canoe(self, state: State, at: Hex) -> bool:
        known = self.stops.get(at)
        if known is None:
            known = self.stops[at] = stops_war_canoe(state, at, self.seat)
        return known

    def paths(self, state: State, start: Hex, war: bool, escorted: bool) -> list[Path]:
        """The first path found to each hex `move.path_error` accepts, in the order the search
        by steps finds them: a path of n steps only reaches hexes none of fewer steps did (a
        longer path to a hex found sooner could only lead on to hexes a shorter one reaches as
        soon), so the search keeps one path per hex."""
        way = (war, escorted, start)
        known = self.found.get(way)
        if known is not None:
            return known
        ends: dict[Hex, list[Hex]] = {}
        entered = self.entered[escorted]
        enters = self.enters
        frontier = [[start]]
        for _ in range(self.speed):
            nxt = []
            for path in frontier:
                end = path[-1]
                if war and len(path) > 1 and self.stops_war_canoe(state, end):
                    continue
                for n in neighbours(end):
                    if n == start or n in ends:
                        continue
                    allowed = entered.get(n)
                    if allowed is None:
                        allowed = enters(state, n, escorted)
                    if allowed:
                        ends[n] = longer = path + [n]
                        nxt.append(longer)
            frontier = nxt
        found = self.found[way] = [
            (len(path), path[-1], [list(at) for at in path], tuple(path)) for path in ends.values()
        ]
        return found

    def sails(self, state: State, path: list[Hex], pieces: Counts) -> bool:
        """Whether `move.path_error` accepts `pieces` (canoes) sailing `path`."""
        if not 2 <= len(path) <= self.speed + 1:
            return False
        war = pieces["war_canoe"] > 0
        escorted = war or not pieces["transport"]
        last = len(path) - 1
        for n in range(1, last + 1):
            at = path[n]
            if at not in neighbours(path[n - 1]) or not self.enters(state, at, escorted):
                return False
            if war and n < last and self.stops_war_canoe(state, at):
                return False
        return True

    def two_steps(self, state: State, start: Hex, war: bool, escorted: bool) -> list[tuple[Hex, list[Hex]]]:
        """The hexes a canoe may sail through from `start` (in the map's order), each with
        the hexes it may go on to (in the map's order), as `move.path_error` accepts a path
        of two steps."""
        way = (war, escorted, start)
        known = self.steps.get(way)
        if known is None:
            enters = self.enters
            known = self.steps[way] = [
                (mid, [end for end in neighbours(mid) if end != start and enters(state, end, escorted)])
                for mid in neighbours(start)
                if enters(state, mid, escorted) and not (war and self.stops_war_canoe(state, mid))
            ]
        return known


@kept_over_own_moves
def terrain(state: State, seat: int) -> Terrain:
    """The map as `seat`'s canoes meet it in `state` (shared by the states of its moves)."""
    return Terrain(state, seat)
