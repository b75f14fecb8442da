"""P-2 exploration: the explorer's pre-move, discovery chits, tiles, voyages disrupted, knots."""

from __future__ import annotations

from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise.empire import controlled, is_enemy, is_known, revealed_effect
from domain.paradise.hexes import as_hex, neighbours, reachable
from domain.paradise.map_facts import facts
from domain.paradise.state import (
    HOME,
    LOST,
    Choice,
    Due,
    Expedition,
    Island,
    State,
    kept,
    occupied,
    put,
    replace,
    with_island,
)
from domain.paradise.tables import CHITS, DISCOVERY_MARKERS, TILES, Hex

MUST_RETURN, LOST_AT = 5, 6
"""P-2.4: five knots send the explorer home, six or more lose it."""
PENALTY = 2
"""P-2.5: knots for crossing a known hex, examining another's tile, a disruption with nowhere to go."""
EMPTY_CUP_KNOTS = 1
"""Our ruling: an unknown hex explored when the cup is empty is ocean of one knot."""


def explorable(state: State, at: Hex, seat: int) -> bool:
    """An explorer may explore `at`: an unknown hex, or a face-down tile `seat` has not seen."""
    if at in state.unknown:
        return True
    island = state.islands.get(at)
    return island is not None and not island.face_up and seat not in island.discoverers


def start_region(state: State, seat: int) -> set[Hex]:
    """P-2.1: hexes the explorer reaches from a controlled group through known, friendly hexes
    (never to be changed by the caller: see `_reach`)."""
    return _reach(state, seat)[0]


def first_steps(state: State, seat: int) -> list[Hex]:
    """Where the explorer may set out to (never to be changed by the caller: see `_reach`)."""
    return _reach(state, seat)[1]


@kept
def _reach(state: State, seat: int) -> tuple[set[Hex], list[Hex]]:
    """The start region and first steps, worked out once per state and seat, and once per map
    of groups, unknown hexes and hexes where others have pieces (all they read): the legal
    list, decide and the automatic steps ask them of one state, and every exploration phase
    of a search's worlds asks them of a map met before."""
    occupied_by = occupied(state)
    others = frozenset(at for at, seats in occupied_by.items() if seats != (seat,))
    memo = facts(state.islands).explorer
    wanted = (seat, state.unknown, others)
    found: tuple[set[Hex], list[Hex]] | None = memo.get(wanted)
    if found is None:

        def passable(at: Hex) -> bool:
            return is_known(state, at) and not is_enemy(state, at, seat)

        region = reachable(controlled(state, seat), passable)
        steps = sorted({n for at in region for n in neighbours(at) if explorable(state, n, seat)})
        found = memo[wanted] = (region, steps)
    return found


def next_steps(state: State, exp: Expedition) -> list[Hex]:
    """Where the explorer may go on from where it is (P-2.4, P-2.5)."""
    if exp.at is None:
        return first_steps(state, exp.seat)
    steps = [n for n in neighbours(exp.at) if explorable(state, n, exp.seat)]
    if not exp.crossing and exp.knots + PENALTY < MUST_RETURN:
        steps += [n for n in neighbours(exp.at) if is_known(state, n) and not is_enemy(state, n, exp.seat)]
    return sorted(set(steps))


def markers_out(state: State, seat: int) -> int:
    return sum(1 for i in state.islands.values() if not i.face_up and seat in i.discoverers)


def decide_explore(state: State, command: Command) -> list[Event]:
    exp = state.expedition
    assert exp is not None
    at = as_hex(command.args.get("hex"))
    if at is None or at not in next_steps(state, exp):
        raise IllegalMove("cannot_explore", "the explorer cannot go there now", field="hex")
    start = _set_out_from(state, exp, at, command.args.get("from")) if exp.at is None else None
    return entering(state, exp.seat, at, start)


def _set_out_from(state: State, exp: Expedition, at: Hex, raw: object) -> Hex | None:
    """P-2.1: the hex of its pre-move the explorer sets out from, next to `at` (the command's
    `from`, else one of its groups there, else the first such hex): a voyage disrupted on this
    step turns from there (P-2.3)."""
    region, home = start_region(state, exp.seat), set(controlled(state, exp.seat))
    beside = sorted((n for n in neighbours(at) if n in region), key=lambda n: (n not in home, n))
    if raw is None:
        return beside[0] if beside else None
    start = as_hex(raw)
    if start not in beside:
        raise IllegalMove(
            "cannot_explore",
            "the explorer sets out from a hex of its pre-move next to that one",
            field="from",
        )
    return start


def entering(state: State, seat: int, at: Hex, start: Hex | None = None) -> list[Event]:
    """The events of the explorer entering `at` (from `start` on a first step), before any
    chance (P-2.2, P-2.5)."""
    island = state.islands.get(at)
    origin = {"from": list(start)} if start is not None else {}
    if at in state.unknown:
        return [Event("ExplorerEntered", {"seat": seat, "hex": list(at), "penalty": 0, **origin})]
    if island is not None and not island.face_up:
        events = [Event("ExplorerEntered", {"seat": seat, "hex": list(at), "penalty": PENALTY, **origin})]
        events.append(Event("TileExamined", {"seat": seat, "hex": list(at)}, {"tile": island.name}, (seat,)))
        if len(island.discoverers) + 1 == state.seats:
            events.append(Event("TileRevealed", {"hex": list(at), "tile": island.name, "by": None}))
        return events
    data = {"seat": seat, "hex": list(at), "penalty": PENALTY, "crossing": True, **origin}
    return [Event("ExplorerEntered", data)]


def explorer_entered(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    assert exp is not None
    at: Hex = (data["hex"][0], data["hex"][1])
    came_from = exp.at if exp.at is not None or not data.get("from") else (data["from"][0], data["from"][1])
    moved = replace(
        exp,
        at=at,
        came_from=came_from,
        knots=exp.knots + data["penalty"],
        crossing=bool(data.get("crossing")),
    )
    due = Due("chit", {"chit": sum(state.chits)}, {"hex": data["hex"]}) if at in state.unknown else None
    if due is not None and not sum(state.chits):
        due = None
    return replace(state, expedition=moved, due=due)


def chit_events(state: State, index: int | None) -> list[Event]:
    """What the drawn chit (None: the cup is empty) shows, and what it brings."""
    exp = state.expedition
    assert exp is not None and exp.at is not None
    if index is None:
        kind, knots, chit = "ocean", EMPTY_CUP_KNOTS, None
    else:
        chit = _chit_at(state.chits, index)
        kind, knots = CHITS[chit].kind, CHITS[chit].knots
    data = {"seat": exp.seat, "hex": list(exp.at), "kind": kind, "knots": knots, "chit": chit}
    if kind == "disrupted" and revealed_effect(state, exp.seat, "navigation") and not exp.ignored_disruption:
        data["ignored"] = True
    return [Event("ChitDrawn", data)]


def _chit_at(chits: tuple[int, ...], index: int) -> int:
    for kind, count in enumerate(chits):
        if index < count:
            return kind
        index -= count
    raise IndexError(index)


def chit_drawn(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    assert exp is not None and exp.at is not None
    chits = (
        state.chits if data["chit"] is None else put(state.chits, data["chit"], state.chits[data["chit"]] - 1)
    )
    state = replace(state, chits=chits, due=None)
    at = exp.at
    if data["kind"] == "disrupted":
        if data.get("ignored"):
            due = Due("chit", {"chit": sum(chits)}, {"hex": list(at)}) if sum(chits) else None
            return replace(state, expedition=replace(exp, ignored_disruption=True), due=due)
        return _disrupted(state, exp)
    explored = replace(exp, knots=exp.knots + data["knots"], explored=exp.explored + (at,))
    state = replace(state, expedition=explored, unknown=state.unknown - {at})
    if data["kind"] == "island" and state.tiles:
        return replace(state, due=Due("tile", {"tile": len(state.tiles)}, {"hex": list(at)}))
    return replace(state, ocean=state.ocean | {at})


def _disrupted(state: State, exp: Expedition) -> State:
    """P-2.3: the seat to the left sends the explorer to an adjacent explorable hex, if any."""
    assert exp.at is not None
    left = (exp.seat + 1) % state.seats
    origin = exp.came_from
    # The seed: a hex next to the explorer, which on a first step stands on the hex of its
    # pre-move it set out from. Games recorded before that hex was kept turn from the hexes
    # next to the one it meant to explore, as they were played.
    options = tuple(n for n in neighbours(origin or exp.at) if explorable(state, n, exp.seat) and n != exp.at)
    if not options:
        return replace(state, expedition=replace(exp, at=origin, knots=exp.knots + PENALTY, disrupted=False))
    return replace(
        state,
        expedition=replace(exp, at=origin, disrupted=True),
        choice=Choice("redirect", left, tuple(options), {"explorer": exp.seat}),
    )


def decide_redirect(state: State, command: Command) -> list[Event]:
    assert state.choice is not None
    at = as_hex(command.args.get("hex"))
    if at is None or at not in state.choice.options:
        raise IllegalMove("cannot_redirect", "send the explorer to an adjacent explorable hex", field="hex")
    explorer = state.choice.data["explorer"]
    return [
        Event("VoyageRedirected", {"seat": command.seat, "explorer": explorer, "hex": list(at)})
    ] + entering(replace(state, choice=None), explorer, at)


def voyage_redirected(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    assert exp is not None
    return replace(state, choice=None, expedition=replace(exp, disrupted=False))


def tile_events(state: State, index: int) -> list[Event]:
    """P-2.2: the tile drawn lies face down, known to its discoverer (who may show it at once,
    or, with its three markers out, must show this one or an older one: P-2.5)."""
    exp = state.expedition
    assert exp is not None and exp.at is not None
    name = state.tiles[index]
    data = {"seat": exp.seat, "hex": list(exp.at), "face_up": False}
    return [Event("TileFound", data, {"tile": name, "index": index}, (exp.seat,))]


def _markers_kept(state: State, seat: int) -> State:
    """P-2.5: a seat with more than three discovery markers out chooses a tile of its own to turn
    face up (the new one or an older one); the choice goes once it is back to three."""
    mine = tuple(sorted(at for at, i in state.islands.items() if not i.face_up and seat in i.discoverers))
    if len(mine) > DISCOVERY_MARKERS:
        return replace(state, choice=Choice("marker", seat, mine))
    if state.choice is not None and state.choice.kind == "marker" and state.choice.seat == seat:
        return replace(state, choice=None)
    return state


def tile_found(state: State, data: dict[str, Any], secret: Any) -> State:
    hidden = secret or {}
    name, index = data.get("tile", hidden.get("tile")), data.get("index", hidden.get("index"))
    if name is None or index is None:
        return state
    tile = TILES[name]
    at: Hex = (data["hex"][0], data["hex"][1])
    island = Island(name, tile.green, tile.brown, tile.atoll, False, data["face_up"], (data["seat"],))
    tiles = state.tiles[:index] + state.tiles[index + 1 :]
    return _markers_kept(replace(with_island(state, at, island), tiles=tiles, due=None), data["seat"])


def tile_examined(state: State, data: dict[str, Any], secret: Any) -> State:
    at: Hex = (data["hex"][0], data["hex"][1])
    island = state.islands[at]
    state = with_island(state, at, replace(island, discoverers=island.discoverers + (data["seat"],)))
    return _markers_kept(state, data["seat"])


def decide_reveal(state: State, command: Command) -> list[Event]:
    """P-2.2: a discoverer may turn its tile face up whenever it acts."""
    at = as_hex(command.args.get("hex"))
    island = state.islands.get(at) if at is not None else None
    if at is None or island is None or island.face_up or command.seat not in island.discoverers:
        raise IllegalMove(
            "cannot_reveal", "only a face-down tile you discovered can be turned up", field="hex"
        )
    return [Event("TileRevealed", {"hex": list(at), "tile": island.name, "by": command.seat})]


def tile_revealed(state: State, data: dict[str, Any], secret: Any) -> State:
    at: Hex = (data["hex"][0], data["hex"][1])
    state = with_island(state, at, replace(state.islands[at], face_up=True))
    choice = state.choice
    return _markers_kept(state, choice.seat) if choice is not None and choice.kind == "marker" else state


def decide_end(state: State, command: Command) -> list[Event]:
    exp = state.expedition
    assert exp is not None
    if exp.crossing:
        raise IllegalMove("must_explore", "after crossing a known hex the explorer explores on")
    return [Event("ExplorerReturned", {"seat": exp.seat, "knots": exp.knots})]


def automatic(state: State) -> Event | None:
    """The end an explorer's knots impose (P-2.4), or the lost explorer's recovery (P-2.0)."""
    exp = state.expedition
    if exp is None:
        seat = state.seat
        if state.explorers[seat] == LOST:
            return Event("ExplorerRecovered", {"seat": seat})
        return Event("ExpeditionStarted", {"seat": seat})
    if exp.knots >= LOST_AT:
        return Event("ExplorerLost", {"seat": exp.seat, "knots": exp.knots})
    if exp.knots >= MUST_RETURN:
        return Event("ExplorerReturned", {"seat": exp.seat, "knots": exp.knots})
    if exp.at is None and not first_steps(state, exp.seat):
        return Event("ExplorerReturned", {"seat": exp.seat, "knots": 0})
    if exp.at is not None and not next_steps(state, exp):
        return Event("ExplorerReturned", {"seat": exp.seat, "knots": exp.knots})
    return None


def expedition_started(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, expedition=Expedition(data["seat"]))


def _home(state: State, data: dict[str, Any], where: str) -> State:
    return replace(
        state, expedition=None, explorers=put(state.explorers, data["seat"], where), active=state.active + 1
    )


def explorer_returned(state: State, data: dict[str, Any], secret: Any) -> State:
    return _home(state, data, HOME)


def explorer_lost(state: State, data: dict[str, Any], secret: Any) -> State:
    return _home(state, data, LOST)


def explorer_recovered(state: State, data: dict[str, Any], secret: Any) -> State:
    return _home(state, data, HOME)


EVOLVERS = {
    "ExplorerEntered": explorer_entered,
    "ChitDrawn": chit_drawn,
    "VoyageRedirected": voyage_redirected,
    "TileFound": tile_found,
    "TileExamined": tile_examined,
    "TileRevealed": tile_revealed,
    "ExpeditionStarted": expedition_started,
    "ExplorerReturned": explorer_returned,
    "ExplorerLost": explorer_lost,
    "ExplorerRecovered": explorer_recovered,
}
