"""Commands a seat may give now: every decision the rules wait for, a sample of the moves and of
the build phase's lists of orders (the full sets are too large to list; `decide` judges any of
them)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from domain.decider import Command, IllegalMove
from domain.paradise import advanced, build, engine, explore, move, sea
from domain.paradise.combat import ARIOI, HAKA, holds
from domain.paradise.empire import components, controlled
from domain.paradise.sea import capacity
from domain.paradise.state import (
    BUILD,
    EXPLORE,
    MOVE,
    START,
    Draft,
    Stack,
    State,
    add,
    counts,
    replace,
    total,
)
from domain.paradise.tables import KINDS, Hex
from domain.paradise.terrain import terrain
from domain.paradise.victory import DEFORESTATION


def legal_commands(state: State, seat: int) -> list[Command]:
    if seat not in engine.acting(state):
        return []
    if state.choice is not None:
        return _choices(state, seat)
    if state.phase == EXPLORE:
        return _exploring(state, seat)
    if state.phase == MOVE:
        return _moves(state, seat)
    if state.phase in (BUILD, START):
        return _builds(state, seat)
    return []


def _choices(state: State, seat: int) -> list[Command]:
    choice = state.choice
    assert choice is not None
    kind, options = choice.kind, choice.options
    if kind == "order":
        return [
            Command("ChooseOrder", seat, {"first": first, "clockwise": way})
            for first in range(state.seats)
            for way in ((True, False) if state.seats > 2 else (True,))
        ]
    if kind in ("redirect", "retreat", "base", "marker"):
        name = {"redirect": "Redirect", "retreat": "Retreat", "base": "ChooseBase", "marker": "RevealTile"}[
            kind
        ]
        return [Command(name, seat, {"hex": list(h)}) for h in options]
    if kind == "fight":
        return [Command("Fight", seat, {"hex": list(h), "defender": d}) for h, d in options]
    if kind == "casualty":
        return [Command("Lose", seat, {"piece": p}) for p in options]
    if kind in ("haka", "arioi"):
        card = HAKA if kind == "haka" else ARIOI
        answers = (True, False) if holds(state, seat, card) else (False,)
        return [Command("UseCard", seat, {"use": use}) for use in answers]
    if kind == "save":
        return [Command("SaveVillages", seat, {"war_canoes": w, "bands": b}) for w, b in options]
    if kind == "kumara":
        return [
            Command("ReachSouthAmerica", seat)
            if isinstance(h, str)
            else Command("KumaraStep", seat, {"hex": list(h)})
            for h in options
        ]
    if kind == "deforest":
        targets = options if holds(state, seat, DEFORESTATION) else (None,)
        return [Command("Deforest", seat, {} if t is None else {"target": t}) for t in targets]
    return []


def _reveals(state: State, seat: int) -> list[Command]:
    tiles = [
        Command("RevealTile", seat, {"hex": list(at)})
        for at, island in sorted(state.islands.items())
        if not island.face_up and seat in island.discoverers
    ]
    return tiles + [Command("RevealCard", seat, {"card": c}) for c in sorted(set(state.hands[seat]))]


def _exploring(state: State, seat: int) -> list[Command]:
    exp = state.expedition
    assert exp is not None
    found = [Command("Explore", seat, {"hex": list(at)}) for at in explore.next_steps(state, exp)]
    if exp.at is None:
        found += [
            Command("SeekKumara", seat, {"hex": list(at)}) for at in advanced.kumara_starts(state, seat)
        ]
    if not exp.crossing:
        found.append(Command("EndExploration", seat))
    return found + _reveals(state, seat)


def _moves(state: State, seat: int) -> list[Command]:
    """Whole-stack moves to each hex in reach, one canoe with one passenger, a passenger put
    ashore or taken aboard halfway, flips, transit."""
    found = [Command("EndMovement", seat)]
    reach = _Reach(state, seat)
    for at, stack in reach.own:
        found += reach.sailing(at, stack)
        found += reach.stopping(at, stack)
    if state.transit_open:
        found += _transits(state, seat)
    return found + _reveals(state, seat)


def _free(stack: Stack) -> dict[str, int]:
    """The stack's pieces that have not moved this turn, by kind."""
    pieces, spent = stack.pieces, stack.spent
    return {k: pieces[k] - spent[k] for k in pieces}


def _loads(state: State, seat: int, free: dict[str, int]) -> list[dict[str, int]]:
    loads = []
    whole = counts(**free)
    hold = whole["transport"] + whole["war_canoe"]
    whole["band"] = min(whole["band"], hold)
    whole["colony"] = min(whole["colony"], whole["transport"], hold - whole["band"])
    if whole["transport"] + whole["war_canoe"]:
        loads.append(whole)
    if free["war_canoe"]:
        loads.append(counts(war_canoe=1, band=min(1, free["band"])))
    if free["transport"]:
        loads.append(counts(transport=1, colony=min(1, free["colony"])))
    if free["rumor"]:
        loads.append(counts(rumor=1))
    # A stack of one canoe (and its rider) is also that canoe's single load: each load once,
    # or its moves would be listed twice.
    distinct: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
    for load in loads:
        if sea.capacity(state, seat, load):
            distinct.setdefault(tuple(sorted(load.items())), load)
    return [{k: v for k, v in load.items() if v} for load in distinct.values()]


class _Reach:
    """The paths one seat's loads may sail in one state, as `move.judge_move` accepts them
    without stops: the terrain's paths (`terrain.Terrain`, shared by the states of the seat's
    moves) less those no load could sail, with what the seat's own pieces decide worked out
    once for every load of the legal list."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        self.terrain = terrain(state, seat)
        self.own = sorted([(at, stack) for (at, owner), stack in state.stacks.items() if owner == seat])
        islands = state.islands
        # Where the seat's pieces at sea are not carried by their canoes as they stand: as a
        # move leaves nobody stranded, hardly ever a hex, and then every path found is sailed.
        self.uncarried = {
            at for at, stack in self.own if at not in islands and not capacity(state, seat, stack.pieces)
        }
        self.found: dict[tuple[Hex, bool, bool], list[tuple[int, Hex, bool, Any]]] = {}

    def paths(self, start: Hex, war: bool, escorted: bool) -> list[tuple[int, Hex, bool, Any]]:
        """The terrain's paths from `start` a load may sail, each with its hexes' count, its
        end, whether the seat's pieces there are carried as they stand (or ashore), and its
        hexes as a command writes them; a path leaving the seat's pieces at sea between its
        ends without canoes to carry them is left out (no load may sail it)."""
        wanted = (start, war, escorted)
        known = self.found.get(wanted)
        if known is not None:
            return known
        uncarried = self.uncarried
        found = self.found[wanted] = [
            (hexes, end, end not in uncarried, written)
            for hexes, end, written, path in self.terrain.paths(self.state, start, war, escorted)
            if not uncarried or uncarried.isdisjoint(path[1:-1])
        ]
        return found

    def sailing(self, at: Hex, stack: Stack) -> list[Command]:
        """The flip of the stack at `at` and its moves without stops. While no piece of the
        seat's is stranded, these read nothing but the stack's pieces and the terrain: the
        terrain keeps them for the next state with the same pieces there (a move changes one
        or two stacks, a flip only whether a transport shows)."""
        kept = self.terrain.sailed
        if not self.uncarried:
            known = kept.get(at)
            if known is not None and known[0] is stack.pieces and known[1] is stack.spent:
                return known[2]
        state, seat = self.state, self.seat
        found = [Command("FlipTransport", seat, {"hex": list(at)})] if stack.pieces["transport"] else []
        for pieces in _loads(state, seat, _free(stack)):
            # What decide_move judges once it has read the command's arguments (sound here:
            # hexes of the map, a non-empty count of known kinds, no stops), split in what
            # the load alone decides and what each path found does.
            full = counts(**pieces)
            if move.load_refused(state, seat, at, full):
                continue
            found += self.moves(at, pieces, full)
        if not self.uncarried:
            kept[at] = (stack.pieces, stack.spent, found)
        return found

    def moves(self, at: Hex, pieces: dict[str, int], full: dict[str, int]) -> list[Command]:
        """The Moves of a load `move.load_refused` accepts from `at` without stops. While no
        piece of the seat's is stranded, once the start is judged they read nothing but the
        load and the terrain: the terrain keeps them for other stacks with that load there."""
        if self.uncarried:
            return [
                Command("Move", self.seat, {"path": path, "pieces": pieces})
                for path in self.allowed(at, full)
            ]
        state, seat = self.state, self.seat
        if at not in state.islands and not capacity(state, seat, add(state.pieces(at, seat), full, -1)):
            return []
        key = (at, *pieces.items())
        known = self.terrain.moved.get(key)
        if known is None:
            known = self.terrain.moved[key] = [
                Command("Move", seat, {"path": path, "pieces": pieces}) for path in self.allowed(at, full)
            ]
        return known

    def stopping(self, at: Hex, stack: Stack) -> list[Command]:
        """`_stopping` from `at`: these read the terrain and the seat's pieces (and those moved)
        in the hexes `_halfway` looked at, so the terrain keeps them for the next state with
        the same pieces there."""
        pieces, spent = stack.pieces, stack.spent
        if pieces["transport"] == spent["transport"] and pieces["war_canoe"] == spent["war_canoe"]:
            return []  # no canoe to stop halfway
        stacks, seat = self.state.stacks, self.seat
        kept = self.terrain.stopped
        known = kept.get(at)
        if known is not None:
            for h, had, moved in known[0]:
                there = stacks.get((h, seat))
                if there is None:
                    if had is not None:
                        break
                elif there.pieces is not had or there.spent is not moved:
                    break
            else:
                return known[1]
        read = [at]
        found = _stopping(self.state, seat, at, _free(stack), self, read)
        seen = []
        for h in dict.fromkeys(read):
            there = stacks.get((h, seat))
            seen.append((h, None, None) if there is None else (h, there.pieces, there.spent))
        kept[at] = (tuple(seen), found)
        return found

    def allowed(self, start: Hex, full: dict[str, int]) -> list[Any]:
        """The paths (as a command writes them) a load `move.load_refused` accepts may sail
        from `start` without stops: `move.path_refused`, its stranding counted on the path's
        sea hexes (the start less the load, the end with it, the hexes between as they stand;
        pieces carried as they stand are carried with a load its canoes carry added)."""
        state, seat = self.state, self.seat
        war = full["war_canoe"] > 0
        paths = self.paths(start, war, war or not full["transport"])
        islands = state.islands
        if start not in islands and not capacity(state, seat, add(state.pieces(start, seat), full, -1)):
            return []
        if total(full) == full["rumor"]:  # a path found enters known hexes: a rumor's goes one
            return [
                written
                for hexes, end, landed, written in paths
                if hexes == 2 and (landed or capacity(state, seat, add(state.pieces(end, seat), full)))
            ]
        return [
            written
            for _, end, landed, written in paths
            if landed or capacity(state, seat, add(state.pieces(end, seat), full))
        ]


def _stopping(
    state: State, seat: int, start: Hex, free: dict[str, int], reach: _Reach, read: list[Hex]
) -> list[Command]:
    """P-3.3, a sample: one canoe putting its passenger ashore halfway and going on, one empty
    canoe taking a passenger aboard halfway (the first of each that decide accepts); the hexes
    whose pieces of the seat's it looked at (beside `start`'s) go to `read`."""
    dropping: list[Command] = []
    taking: list[Command] = []
    for canoe in ("transport", "war_canoe"):
        if not free[canoe]:
            continue
        riders = ("colony", "band") if canoe == "transport" else ("band",)
        aboard = next((k for k in riders if free[k]), None)
        if aboard is not None and not dropping:
            ashore = partial(_ashore, state, aboard)
            dropping = _halfway(reach, start, {canoe: 1, aboard: 1}, ashore, read)
        if not taking:
            waiting = partial(_waiting, state, seat, riders=riders)
            taking = _halfway(reach, start, {canoe: 1}, waiting, read)
    return dropping + taking


def _ashore(state: State, kind: str, at: Hex) -> dict[str, Any] | None:
    """A stop putting one `kind` ashore at `at`, where an island group is."""
    return {"drop": {kind: 1}} if at in state.islands else None


def _waiting(state: State, seat: int, at: Hex, riders: tuple[str, ...]) -> dict[str, Any] | None:
    """A stop taking aboard one of `seat`'s passengers at `at` that has not moved yet, if any."""
    here = state.stack(at, seat)
    kind = next((k for k in riders if here.pieces[k] > here.spent[k]), None)
    return None if kind is None else {"take": {kind: 1}}


def _halfway(
    reach: _Reach,
    start: Hex,
    pieces: dict[str, int],
    stop_at: Callable[[Hex], dict[str, Any] | None],
    read: list[Hex],
) -> list[Command]:
    """The first two-hex Move of `pieces` (a canoe, maybe a passenger) from `start` stopping
    halfway as `stop_at` says: what `move.judge_move` accepts, its checks split as for the
    loads without stops (the load's once, the path's as `_Reach` knows them, the stop's)."""
    state, seat = reach.state, reach.seat
    full = counts(**pieces)
    if move.load_refused(state, seat, start, full):
        return []
    war = full["war_canoe"] > 0
    for mid, ends in reach.terrain.two_steps(state, start, war, war or not full["transport"]):
        read.append(mid)
        stop = stop_at(mid)
        if stop is None:
            continue
        # decide_move's judgement of the command below, its arguments read as it reads them.
        halt = move.Stop(1, counts(**stop.get("drop", {})), counts(**stop.get("take", {})))
        load = move.stop_load(state, seat, start, mid, full, halt)
        if load is None:
            continue
        for end in ends:
            read.append(end)
            if move.stop_refused(state, seat, end, load):
                continue
            path = [list(start), list(mid), list(end)]
            return [Command("Move", seat, {"path": path, "pieces": pieces, "stops": [{"at": 1, **stop}]})]
    return []


def _transits(state: State, seat: int) -> list[Command]:
    found = []
    for part in components(state, seat):
        for at in sorted(part):
            stack = state.stack(at, seat)
            free = dict(stack.pieces)
            free["transport"] -= 1 if stack.shown else 0
            load = {k: v for k, v in free.items() if v}
            if not load:
                continue
            for to in sorted(part - {at}):
                command = Command("Transit", seat, {"path": [list(at), list(to)], "pieces": load})
                if _allowed(state, command):
                    found.append(command)
    return found


def _allowed(state: State, command: Command) -> bool:
    try:
        engine.judge(state, command)
    except IllegalMove:
        return False
    return True


PLANS = (
    ("settle", "village", "agriculture", "card", "war_canoe", "band"),
    ("settle", "village", "agriculture", "war_canoe", "transport", "band", "colony"),
    ("settle", "village", "agriculture", "colony", "transport", "band", "rumor"),
)
"""Ways to spend a whole phase's points, item by item in turn while any fits: villages first."""


def _order(item: str, at: Hex | None) -> dict[str, Any]:
    return {"item": item} if at is None else {"item": item, "hex": list(at)}


def _commit(seat: int, orders: list[dict[str, Any]]) -> Command:
    return Command("EndBuild", seat, {"orders": orders}) if orders else Command("EndBuild", seat)


def _places(state: State, seat: int) -> list[Hex | None]:
    places: list[Hex | None] = [None]
    places += [state.bases[seat]] if state.phase == START else list(controlled(state, seat))
    places += sorted(at for (at, owner), s in state.stacks.items() if owner == seat and s.pieces["colony"])
    return list(dict.fromkeys(places))


def _fitting(state: State, seat: int, draft: Draft, item: str, places: list[Hex | None]) -> list[Hex | None]:
    """The places where `item` may be added to `draft` (a card's: None)."""
    return [
        at
        for at in places
        if (item == "card") == (at is None) and build.item_error(state, seat, draft, item, at) is None
    ]


_NOWHERE, _UNASKED = ("nowhere",), ("unasked",)


def _first_fitting(state: State, seat: int, draft: Draft, item: str, places: list[Hex | None]) -> Any:
    """The first of `_fitting`'s places, or _NOWHERE when it finds none (None is a card's)."""
    if item in KINDS and build.none_left(state, seat, draft, item):
        return _NOWHERE  # `build.item_error` refuses it anywhere
    for at in places:
        if (item == "card") == (at is None) and build.item_error(state, seat, draft, item, at) is None:
            return at
    return _NOWHERE


def _planned(
    state: State, seat: int, plan: tuple[str, ...], rotate: bool, fits: dict[tuple[Draft, str], Any]
) -> list[dict[str, Any]]:
    """The orders of `plan`: one item of each in turn, where it first fits, until none does;
    `fits` keeps where an item first fits a draft, for the other plans starting alike."""
    places = _places(state, seat)
    if state.phase != START:  # `build.item_error` refuses a hex without an island group to all items
        places = [at for at in places if at is None or at in state.islands]
    draft = Draft(rotate=rotate)
    orders = [{"item": "rotate"}] if rotate else []
    added = True
    while added:
        added = False
        for item in plan:
            at = fits.get((draft, item), _UNASKED)
            if at is _UNASKED:
                at = fits[draft, item] = _first_fitting(state, seat, draft, item, places)
            if at is not _NOWHERE:
                draft = replace(draft, items=draft.items + ((item, at),))
                orders.append(_order(item, at))
                added = True
    return orders


def _builds(state: State, seat: int) -> list[Command]:
    """A seat's orders go in one command (Q-1: no one sees how many before all commit), too many
    to list: no order, each order alone, and each plan of PLANS spending the whole phase's points
    (with internal rotation too, when allowed). `decide` judges any other list."""
    found = [_commit(seat, [])]
    places = _places(state, seat)
    for item in build.ITEMS:
        found += [_commit(seat, [_order(item, at)]) for at in _fitting(state, seat, Draft(), item, places)]
    rotations = [False]
    if state.phase == BUILD:
        for extra in build.EXTRAS:
            command = _commit(seat, [{"item": extra}])
            if _allowed(state, command):
                found.append(command)
                rotations += [True] if extra == "rotate" else []
    seen = {repr(c.args) for c in found}
    fits: dict[tuple[Draft, str], Any] = {}
    for rotate in rotations:
        for plan in PLANS:
            command = _commit(seat, _planned(state, seat, plan, rotate, fits))
            if repr(command.args) not in seen:
                seen.add(repr(command.args))
                found.append(command)
    return found
