"""P-3.1..P-3.3 movement: transit along transport-canoe chains, canoe moves, capacity, stacks, rumors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise import advanced
from domain.paradise.empire import components, controller, is_enemy, is_known
from domain.paradise.hexes import as_hex, neighbours
from domain.paradise.sea import at_sea, capacity
from domain.paradise.state import (
    EMPTY,
    Choice,
    Counts,
    Stack,
    State,
    add,
    carry_over,
    counts,
    put_stack,
    replace,
    total,
    with_stack,
)
from domain.paradise.tables import KINDS, Hex
from domain.paradise.terrain import speed, stops_war_canoe, terrain

PASSENGERS = ("band", "colony")
"""P-3.3: what a canoe takes aboard or puts ashore on its way; canoes and rumors go all the way."""


@dataclass(frozen=True)
class Stop:
    """A halt on a move's way (P-3.3): the path index, the passengers put ashore, then taken aboard."""

    at: int
    drop: Mapping[str, int]
    take: Mapping[str, int]


def pieces_arg(raw: object, code: str = "bad_pieces", field: str = "pieces") -> dict[str, int]:
    """The pieces a command names, by kind; IllegalMove(code) when malformed."""
    if not isinstance(raw, Mapping) or set(raw) - set(KINDS):
        raise IllegalMove(code, f"pieces counts kinds among {list(KINDS)}", field=field)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in raw.values()):
        raise IllegalMove(code, "each count is a whole number from 0", field=field)
    pieces = counts(**raw)
    if not total(pieces):
        raise IllegalMove(code, "name at least one piece", field=field)
    return pieces


def _passengers_arg(raw: object) -> dict[str, int]:
    """A stop's passengers by kind (bands and colonies only, P-3.3); none when it names none."""
    if raw is None or raw == {}:
        return counts()
    pieces = pieces_arg(raw, "bad_stops", "stops")
    if any(pieces[kind] for kind in KINDS if kind not in PASSENGERS):
        raise IllegalMove(
            "stop_kind", "only bands and colonies go aboard or ashore on the way", field="stops"
        )
    return pieces


def stops_arg(raw: object, hexes: int) -> list[Stop]:
    """A move's stops, in path order, each inside the path and doing something; IllegalMove(bad_stops)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise IllegalMove("bad_stops", "stops lists halts on the path", field="stops")
    stops: list[Stop] = []
    for entry in raw:
        at = entry.get("at") if isinstance(entry, Mapping) else None
        if not isinstance(entry, Mapping) or set(entry) - {"at", "drop", "take"}:
            raise IllegalMove("bad_stops", "a stop has at, and drop or take", field="stops")
        if not isinstance(at, int) or isinstance(at, bool) or not 1 <= at <= hexes - 2:
            raise IllegalMove("bad_stops", "a stop is at a hex between the path's ends", field="stops")
        if stops and at <= stops[-1].at:
            raise IllegalMove("bad_stops", "stops come in path order, one a hex", field="stops")
        stop = Stop(at, _passengers_arg(entry.get("drop")), _passengers_arg(entry.get("take")))
        if not total(stop.drop) and not total(stop.take):
            raise IllegalMove(
                "bad_stops", "a stop puts a passenger ashore or takes one aboard", field="stops"
            )
        stops.append(stop)
    return stops


def _within(pieces: Counts, have: Counts) -> bool:
    return all(pieces[k] <= have[k] for k in KINDS)


def _leaves_garrison(state: State, at: Hex, seat: int, pieces: Counts) -> bool:
    island = state.islands.get(at)
    held = island is not None and island.garrison == seat
    return held and total(pieces) >= total(state.pieces(at, seat))


def decide_transit(state: State, command: Command) -> list[Event]:
    """P-3.1: before any other move, pieces go as far as a chain of face-up transports reaches."""
    seat = command.seat
    assert seat is not None
    raw = command.args.get("path")
    ends = [as_hex(h) for h in raw] if isinstance(raw, list) and len(raw) == 2 else [None, None]
    start, end = ends
    pieces = pieces_arg(command.args.get("pieces"))
    if not state.transit_open:
        raise IllegalMove("transit_over", "transit comes before every other move of the phase")
    if (
        start is None
        or end is None
        or start == end
        or not any({start, end} <= c for c in components(state, seat))
    ):
        raise IllegalMove("not_on_chain", "transit runs between two hexes of one chain", field="path")
    stack = state.stack(start, seat)
    movable = add(stack.pieces, counts(transport=1 if stack.shown else 0), -1)
    if not _within(pieces, movable):
        raise IllegalMove("not_enough_pieces", "those pieces are not there (the chain's canoe stays)")
    if _leaves_garrison(state, start, seat, pieces):
        raise IllegalMove("garrison", "a conquered printed group keeps one of its conqueror's pieces")
    _refuse_stranding(state, seat, [start, end], pieces)
    return [_moved(seat, [start, end], pieces, "transit", 0)]


def _moved(
    seat: int, path: list[Hex], pieces: Counts, how: str, aboard: int, stops: Sequence[Stop] = ()
) -> Event:
    """PiecesMoved: everyone sees how many pieces set out and how many go ashore or aboard at
    each stop; which kinds only the mover does (P-3.4)."""
    data: dict[str, Any] = {"seat": seat, "path": [list(h) for h in path], "count": total(pieces), "how": how}
    secret: dict[str, Any] = {"pieces": dict(pieces), "aboard_war": aboard}
    if stops:
        data["stops"] = [{"at": s.at, "drop": total(s.drop), "take": total(s.take)} for s in stops]
        secret["stops"] = [{"at": s.at, "drop": _named(s.drop), "take": _named(s.take)} for s in stops]
    return Event("PiecesMoved", data, secret, (seat,))


def _named(pieces: Counts) -> dict[str, int]:
    """The kinds `pieces` holds, with their counts (an event keeps no zeros)."""
    return {kind: n for kind, n in pieces.items() if n}


def path_error(state: State, seat: int, path: list[Hex], pieces: Counts) -> str | None:
    """Why `pieces` cannot sail `path`, or None (P-3.2)."""
    if not 2 <= len(path) <= speed(state, seat) + 1:
        return "a move is one hex or more, up to the canoes' reach"
    for here, there in zip(path, path[1:], strict=False):
        if there not in neighbours(here):
            return "each step goes to a neighbouring hex"
    for n, at in enumerate(path[1:], start=1):
        if not is_known(state, at):
            return "canoes enter known hexes only"
        if pieces["war_canoe"] == 0 and pieces["transport"] and is_enemy(state, at, seat):
            return "transport canoes enter enemy hexes only with a war canoe"
        if pieces["war_canoe"] and n < len(path) - 1 and stops_war_canoe(state, at, seat):
            return "a war canoe stops where an enemy group or war canoe is"
    return None


def rumor_path_error(state: State, path: list[Hex]) -> str | None:
    """P-3.5: rumors move at will, so a rumor's path names only where it goes: any known hex."""
    if len(path) != 2 or path[0] == path[1]:
        return "a rumor's path names where it is and where it goes"
    if not is_known(state, path[1]):
        return "a rumor goes to a known hex"
    return None


def decide_move(state: State, command: Command) -> list[Event]:
    """P-3.2: canoes (with what they carry) or rumors sail from one hex along a path."""
    seat = command.seat
    assert seat is not None
    raw = command.args.get("path")
    path = [as_hex(h) for h in raw] if isinstance(raw, list) else []
    pieces = pieces_arg(command.args.get("pieces"))
    if not path or any(h is None for h in path):
        raise IllegalMove("bad_path", "path lists hexes of the map, from where the pieces are", field="path")
    hexes = [h for h in path if h is not None]
    stops = stops_arg(command.args.get("stops"), len(hexes))
    return [judge_move(state, seat, hexes, pieces, stops)]


def judge_move(state: State, seat: int, hexes: list[Hex], pieces: Counts, stops: list[Stop]) -> Event:
    """The PiecesMoved of a move whose arguments are read (hexes of the map, a full count of
    pieces, stops in the path), or IllegalMove (`load_refused` and `path_refused` split its
    checks for the legal lists)."""
    stack = state.stack(hexes[0], seat)
    have, spent = stack.pieces, stack.spent
    if not all(pieces[k] <= have[k] - spent[k] for k in KINDS):
        raise IllegalMove("not_enough_pieces", "those pieces are not there, or moved already this turn")
    canoes = pieces["transport"] + pieces["war_canoe"]
    wading = not canoes and advanced.wades(state, hexes)
    if not canoes and (stops or (total(pieces) != pieces["rumor"] and not wading)):
        raise IllegalMove("no_canoe", "bands and colonies travel in canoes", field="stops" if stops else None)
    if not wading and not capacity(state, seat, pieces):
        raise IllegalMove("over_capacity", "more passengers than the canoes carry")
    if total(pieces) == pieces["rumor"]:
        error = rumor_path_error(state, hexes)
    elif terrain(state, seat).sails(state, hexes, pieces):
        error = None  # path_error's checks, the terrain knowing what they read
    else:
        error = path_error(state, seat, hexes, pieces)
    if error:
        raise IllegalMove("bad_path", error, field="path")
    if _leaves_garrison(state, hexes[0], seat, pieces):
        raise IllegalMove("garrison", "a conquered printed group keeps one of its conqueror's pieces")
    last = _ride(state, seat, hexes, pieces, stops)
    _refuse_stranding(state, seat, hexes, pieces, stops)
    return _moved(seat, hexes, pieces, "move", min(last["band"], last["war_canoe"]), stops)


def load_refused(state: State, seat: int, start: Hex, pieces: Counts) -> bool:
    """Whether `judge_move` refuses `pieces` (canoes, or rumors alone) leaving `start` without
    stops whatever their path: its checks that do not read the path, asked once per load by
    the legal lists instead of once per path."""
    stack = state.stack(start, seat)
    have, spent = stack.pieces, stack.spent
    if not all(pieces[k] <= have[k] - spent[k] for k in KINDS):
        return True
    if not pieces["transport"] + pieces["war_canoe"] and total(pieces) != pieces["rumor"]:
        return True
    return not capacity(state, seat, pieces) or _leaves_garrison(state, start, seat, pieces)


def path_refused(state: State, seat: int, hexes: list[Hex], pieces: Counts) -> bool:
    """Whether `judge_move` refuses a load `load_refused` accepts sailing `hexes` without stops,
    the path found as `path_error` accepts it: its checks that read the path."""
    if total(pieces) == pieces["rumor"] and rumor_path_error(state, hexes) is not None:
        return True
    return stranded(state, seat, hexes, pieces)


def stop_load(state: State, seat: int, start: Hex, mid: Hex, pieces: Counts, stop: Stop) -> Counts | None:
    """The load reaching the end of a path `start`, `mid`, end of canoes `load_refused` accepts,
    found as `path_error` accepts it, with one `stop` at `mid`; None when `judge_move` refuses
    it whatever the end: its checks that read the stop, and the stranding at the start and at
    `mid` (`stop_refused` is the end's part)."""
    try:
        load = _ride(state, seat, [start, mid], pieces, [stop])
    except IllegalMove:
        return None
    islands = state.islands
    if start not in islands and not capacity(state, seat, add(state.pieces(start, seat), pieces, -1)):
        return None
    if mid in islands:
        return load
    here = add(add(state.pieces(mid, seat), stop.drop), stop.take, -1)
    return load if capacity(state, seat, here) else None


def stop_refused(state: State, seat: int, end: Hex, load: Counts) -> bool:
    """Whether `judge_move` refuses a move `stop_load` accepts on its way, with `load` reaching
    `end` (a hex neither its start nor its stop): the stranding at the end."""
    return end not in state.islands and not capacity(state, seat, add(state.pieces(end, seat), load))


def _refuse_stranding(
    state: State, seat: int, path: list[Hex], pieces: Counts, stops: Sequence[Stop] = ()
) -> None:
    """P-3.3: no band or colony is left at sea without a canoe of its own able to carry it."""
    if stranded(state, seat, path, pieces, stops):
        raise IllegalMove(
            "stranded_at_sea", "no band or colony stays at sea without a canoe to carry it", field="path"
        )


def stranded(state: State, seat: int, path: list[Hex], pieces: Counts, stops: Sequence[Stop] = ()) -> bool:
    """Whether moving `pieces` along `path` leaves a band or colony of `seat` at sea on it
    without canoes to carry it."""
    sea = [at for at in path if at_sea(state, at)]
    if not sea:
        return False
    after = _pieces_after(state, seat, path, pieces, stops) if stops else None
    for at in sea:
        if after is not None:
            here = after[at]
        else:  # no stops: the pieces leave the first hex and reach the last, nothing between
            here = state.pieces(at, seat)
            if at == path[0]:
                here = add(here, pieces, -1)
            if at == path[-1]:
                here = add(here, pieces)
        if not capacity(state, seat, here):
            return True
    return False


def _pieces_after(
    state: State, seat: int, path: list[Hex], load: Counts, stops: Sequence[Stop]
) -> dict[Hex, Counts]:
    """`seat`'s pieces on `path` once `load` sailed it, as `pieces_moved` counts them (a state
    of its own for every candidate move cost the legal lists dearly)."""
    after: dict[Hex, Counts] = {at: state.pieces(at, seat) for at in path}
    after[path[0]] = add(after[path[0]], load, -1)
    for stop in stops:
        at = path[stop.at]
        after[at] = add(add(after[at], stop.drop), stop.take, -1)
        load = add(add(load, stop.drop, -1), stop.take)
    after[path[-1]] = add(after[path[-1]], load)
    return after


def _ride(state: State, seat: int, path: list[Hex], load: Counts, stops: list[Stop]) -> Counts:
    """The pieces that reach the path's end, the stops played out on the way; IllegalMove at
    the first stop the rules refuse (P-3.3: a piece rides one canoe a turn, capacity on every leg).

    The seat's stacks on the way are counted as `pieces_moved` changes them (pieces and those
    moved, a stack left empty gone), without a State per stop: the legal lists judge many."""
    if not stops:
        return load
    nothing = EMPTY.pieces
    mine: dict[Hex, tuple[Counts, Counts]] = {}

    def stack(at: Hex) -> tuple[Counts, Counts]:
        known = mine.get(at)
        if known is None:
            here = state.stack(at, seat)
            known = (here.pieces, here.spent)
        return known

    def put(at: Hex, pieces: Counts, spent: Counts) -> None:
        mine[at] = (pieces, spent) if total(pieces) else (nothing, nothing)

    pieces, spent = stack(path[0])
    put(path[0], add(pieces, load, -1), spent)
    islands = state.islands
    for stop in stops:
        at = path[stop.at]
        if not _within(stop.drop, load):
            raise IllegalMove(
                "not_aboard", f"the canoes carry no such passengers at stop {stop.at}", field="stops"
            )
        pieces, spent = stack(at)
        if total(stop.drop) and not (at in islands or pieces["transport"] + pieces["war_canoe"] > 0):
            raise IllegalMove(
                "no_landing", "passengers go ashore on an island group or by a canoe", field="stops"
            )
        pieces, spent = add(pieces, stop.drop), add(spent, stop.drop)
        put(at, pieces, spent)
        pieces, spent = stack(at)
        if not _within(stop.take, add(pieces, spent, -1)):
            raise IllegalMove(
                "not_enough_pieces",
                f"those pieces are not at stop {stop.at}, or moved already",
                field="stops",
            )
        island = islands.get(at)
        if island is not None and island.garrison == seat and total(stop.take) >= total(pieces):
            raise IllegalMove(
                "garrison", "a conquered printed group keeps one of its conqueror's pieces", field="stops"
            )
        put(at, add(pieces, stop.take, -1), spent)
        load = add(add(load, stop.drop, -1), stop.take)
        if not capacity(state, seat, load):
            raise IllegalMove(
                "over_capacity", f"more passengers than the canoes carry after stop {stop.at}", field="stops"
            )
    return load


def _depart(stacks: dict[tuple[Hex, int], Stack], at: Hex, seat: int, pieces: Counts) -> None:
    """`seat`'s stack at `at` less `pieces`; its transport stays face up while one is left."""
    old = stacks.get((at, seat)) or EMPTY
    left = add(old.pieces, pieces, -1)
    put_stack(stacks, at, seat, replace(old, pieces=left, shown=old.shown and left["transport"] > 0))


def _arrive(
    stacks: dict[tuple[Hex, int], Stack], at: Hex, seat: int, pieces: Counts, spent: bool, aboard: int = 0
) -> None:
    """`seat`'s stack at `at` with `pieces` added: moved for this turn when a canoe brought them."""
    new = stacks.get((at, seat)) or EMPTY
    arrived = Stack(
        add(new.pieces, pieces),
        add(new.spent, pieces) if spent else new.spent,
        new.shown,
        new.aboard_war + aboard,
    )
    put_stack(stacks, at, seat, arrived)


def pieces_moved(state: State, data: dict[str, Any], secret: Any) -> State:
    if not secret:
        return state
    seat, load = data["seat"], counts(**secret["pieces"])
    path: list[Hex] = [tuple(h) for h in data["path"]]
    moving = data["how"] == "move"
    # One copy of the stacks changed stack by stack, and one state: a state per departure and
    # arrival (`with_stack`) cost more than the rest of the commonest event of a search.
    stacks = dict(state.stacks)
    _depart(stacks, path[0], seat, load)
    for stop in secret.get("stops", ()):
        at = path[stop["at"]]
        drop, take = counts(**stop.get("drop", {})), counts(**stop.get("take", {}))
        _arrive(stacks, at, seat, drop, spent=True)
        _depart(stacks, at, seat, take)
        load = add(add(load, drop, -1), take)
    _arrive(stacks, path[-1], seat, load, moving, secret.get("aboard_war", 0))
    after = replace(
        state, stacks=stacks, transit_open=not moving and state.transit_open, moved=state.moved or moving
    )
    return carry_over(state, after, seat)


def decide_flip(state: State, command: Command) -> list[Event]:
    """P-3.3: one transport of a stack may lie face up, to be part of a chain (after transit)."""
    at = as_hex(command.args.get("hex"))
    seat = command.seat
    assert seat is not None
    if at is None or not state.pieces(at, seat)["transport"]:
        raise IllegalMove("no_transport", "you have no transport canoe there", field="hex")
    return [
        Event("TransportFlipped", {"seat": seat, "hex": list(at), "shown": not state.stack(at, seat).shown})
    ]


def transport_flipped(state: State, data: dict[str, Any], secret: Any) -> State:
    at: Hex = tuple(data["hex"])
    seat = data["seat"]
    flipped = with_stack(state, at, seat, replace(state.stack(at, seat), shown=data["shown"]))
    return carry_over(state, replace(flipped, transit_open=False), seat)


def battles_for(state: State, seat: int) -> list[tuple[Hex, int]]:
    """P-3.4: where `seat`'s war canoes share a hex with an enemy group, enemy canoes or rumors."""
    found = []
    for (at, owner), stack in sorted(state.stacks.items()):
        if owner != seat or not stack.pieces["war_canoe"]:
            continue
        island = state.islands.get(at)
        ruler = controller(island) if island is not None else None
        defenders = {ruler} if ruler not in (None, seat) else set()
        for other in state.occupants(at):
            theirs = state.pieces(at, other)
            # A rumor passes for canoes: drawn into a battle, it is shown and removed (P-3.3).
            if other != seat and (theirs["transport"] or theirs["war_canoe"] or theirs["rumor"]):
                defenders.add(other)
        found += [(at, d) for d in sorted(d for d in defenders if d is not None)]
    return found


def decide_end(state: State, command: Command) -> list[Event]:
    seat = command.seat
    assert seat is not None
    battles = [[list(at), d] for at, d in battles_for(state, seat)]
    return [Event("MovementEnded", {"seat": seat, "battles": battles})]


def movement_ended(state: State, data: dict[str, Any], secret: Any) -> State:
    battles = tuple((tuple(at), d) for at, d in data["battles"])
    if not battles:
        return replace(state, active=state.active + 1, transit_open=True, moved=False)
    return replace(state, battles=battles, choice=Choice("fight", data["seat"], battles))


EVOLVERS = {
    "PiecesMoved": pieces_moved,
    "TransportFlipped": transport_flipped,
    "MovementEnded": movement_ended,
}
