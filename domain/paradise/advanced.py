"""Advanced rules with their own steps: the South Island (Q-A4) and the voyage for Kumara (Q-A5)."""

from __future__ import annotations

from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise.empire import is_enemy, is_known, revealed_effect
from domain.paradise.explore import start_region
from domain.paradise.hexes import HEXES, as_hex, neighbours, reachable
from domain.paradise.state import Choice, Due, Island, State, put, replace, with_island
from domain.paradise.tables import BOARD, TILES, Hex

AOTEAROA, SOUTH_ISLAND = "Aotearoa", "Te Waka Maui"
SOUTH_AMERICA = "south_america"
KUMARA_BONUS_CARDS = ("navigation", "canoes_three", "double_hull")
EAST_EDGE = max(col for col, _ in HEXES)


# --- Q-A4: the South Island -------------------------------------------------------------------


def south_island_event(state: State) -> Event | None:
    """Once Aotearoa lies face up, Te Waka Maui goes to the hex south of it, or out of the game.

    Our ruling: the seed aligns the two tiles' drawings; on our grid the South Island lies in
    the hex below Aotearoa. Off the map, or on a printed group or a face-up tile, it is out.
    """
    if not state.options.south_island or state.south_done:
        return None
    north = next((at for at, i in state.islands.items() if i.name == AOTEAROA and i.face_up), None)
    if north is None:
        return None
    south = (north[0], north[1] + 1)
    there = state.islands.get(south)
    if south not in HEXES or (there is not None and (there.face_up or there.printed)):
        return Event("SouthIslandPlaced", {"hex": None, "next_to": list(north)})
    return Event("SouthIslandPlaced", {"hex": list(south), "next_to": list(north)})


def south_island_placed(state: State, data: dict[str, Any], secret: Any) -> State:
    state = replace(state, south_done=True)
    if data["hex"] is None:
        return state
    at: Hex = (data["hex"][0], data["hex"][1])
    tile = TILES[SOUTH_ISLAND]
    island = Island(tile.name, tile.green, tile.brown, tile.atoll, False, True)
    state = replace(state, unknown=state.unknown - {at}, ocean=state.ocean - {at})
    return with_island(state, at, island)


def wades(state: State, path: list[Hex]) -> bool:
    """Q-A4: bands and colonies cross between Aotearoa and Te Waka Maui without canoes."""
    names = {state.islands[at].name for at in path if at in state.islands}
    return len(path) == 2 and names == {AOTEAROA, SOUTH_ISLAND}


# --- Q-A5: Kumara -----------------------------------------------------------------------------


def kumara_starts(state: State, seat: int) -> list[Hex]:
    """The "to South America" hexes the explorer can pre-move to (never across the east ocean)."""
    if not state.options.kumara or state.kumara[seat]:
        return []

    def passable(at: Hex) -> bool:
        return at not in BOARD.east_ocean and is_known(state, at) and not is_enemy(state, at, seat)

    region = reachable(start_region(state, seat), passable)
    return [at for at in BOARD.to_south_america if at in region and passable(at)]


def decide_seek(state: State, command: Command) -> list[Event]:
    exp = state.expedition
    assert exp is not None and command.seat is not None
    at = as_hex(command.args.get("hex"))
    if exp.at is not None or at is None or at not in kumara_starts(state, command.seat):
        raise IllegalMove("cannot_seek_kumara", "start from a reachable 'to South America' hex", field="hex")
    return [Event("KumaraSought", {"seat": command.seat, "hex": list(at)})]


def kumara_sought(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    assert exp is not None
    at: Hex = (data["hex"][0], data["hex"][1])
    return replace(state, expedition=replace(exp, at=at, kumara=True), due=Due("kumara", {"die": 6}))


def kumara_result(roll: int, ocean_chart: bool) -> str:
    """The seed's Kumara table."""
    if roll <= 1:
        return "return" if ocean_chart else "lost"
    if roll <= 3:
        return "return"
    return "disrupted" if roll == 4 else "explore"


def roll_events(state: State, die: int) -> list[Event]:
    exp = state.expedition
    assert exp is not None and exp.at is not None
    seat = exp.seat
    bonus = int(state.galapagos[seat]) + int(any(revealed_effect(state, seat, e) for e in KUMARA_BONUS_CARDS))
    result = kumara_result(die + bonus, revealed_effect(state, seat, "ocean_chart"))
    events = [Event("KumaraRolled", {"seat": seat, "die": die, "roll": die + bonus, "result": result})]
    if result == "lost":
        events.append(Event("ExplorerLost", {"seat": seat, "knots": exp.knots}))
    elif result == "return":
        events.append(Event("ExplorerReturned", {"seat": seat, "knots": exp.knots}))
    return events


def _options(at: Hex, result: str) -> tuple[Any, ...]:
    near = neighbours(at)
    if result == "disrupted":
        return tuple(n for n in near if n[0] <= at[0])
    return tuple(near) + ((SOUTH_AMERICA,) if at[0] == EAST_EDGE else ())


def kumara_rolled(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    state = replace(state, due=None)
    if data["result"] not in ("disrupted", "explore") or exp is None or exp.at is None:
        return state
    return replace(state, choice=Choice("kumara", data["seat"], _options(exp.at, data["result"])))


def decide_step(state: State, command: Command) -> list[Event]:
    choice = state.choice
    assert choice is not None and command.seat is not None
    to: Hex | str | None = (
        SOUTH_AMERICA if command.type == "ReachSouthAmerica" else as_hex(command.args.get("hex"))
    )
    if to is None or to not in choice.options:
        raise IllegalMove("bad_step", "go to one of the hexes the table allows", field="hex")
    if to == SOUTH_AMERICA:
        return [
            Event("KumaraFound", {"seat": command.seat}),
            Event("ExplorerReturned", {"seat": command.seat, "knots": 0}),
        ]
    assert isinstance(to, tuple)
    return [Event("KumaraStepped", {"seat": command.seat, "hex": list(to)})]


def kumara_stepped(state: State, data: dict[str, Any], secret: Any) -> State:
    exp = state.expedition
    assert exp is not None
    at: Hex = (data["hex"][0], data["hex"][1])
    seat = data["seat"]
    galapagos = put(state.galapagos, seat, True) if at in BOARD.galapagos else state.galapagos
    return replace(
        state, expedition=replace(exp, at=at), galapagos=galapagos, choice=None, due=Due("kumara", {"die": 6})
    )


def kumara_found(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, kumara=put(state.kumara, data["seat"], True), choice=None)


EVOLVERS = {
    "SouthIslandPlaced": south_island_placed,
    "KumaraSought": kumara_sought,
    "KumaraRolled": kumara_rolled,
    "KumaraStepped": kumara_stepped,
    "KumaraFound": kumara_found,
}
