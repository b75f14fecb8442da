"""The game's data tables (Q-D1..Q-D6) and map, read once at import from the files in data/.

Another edition's tables replace the files, not the code. Reading them at import keeps the
rules themselves free of I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

Hex = tuple[int, int]
KINDS = ("transport", "war_canoe", "band", "colony", "rumor")
"""A player's piece kinds (Q-D1), in the order counts are listed."""
CANOES = ("transport", "war_canoe")


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Tile:
    """An island group: village squares (green), squares needing agriculture (brown), atoll."""

    name: str
    green: int
    brown: int
    atoll: bool
    set_aside: bool = False


@dataclass(frozen=True)
class Card:
    """An Arts & Culture card (Q-D6): its VP, how it is used and what it does."""

    name: str
    vp: int
    use: str
    effect: str | None
    bonus_vp: int
    bonus_islands: tuple[str, ...]
    penalty: int


@dataclass(frozen=True)
class Chit:
    """A discovery chit kind (Q-D5): island, ocean or voyage disrupted, with its knots."""

    kind: str
    knots: int
    count: int


@dataclass(frozen=True)
class Printed:
    """An island group printed on the map: a base or an independent group."""

    name: str
    hex: Hex
    green: int
    warriors: int
    atoll: bool
    malaria: tuple[int, ...]
    base: bool


@dataclass(frozen=True)
class Board:
    columns: int
    rows: int
    printed: tuple[Printed, ...]
    known_ocean: frozenset[Hex]
    east_ocean: frozenset[Hex]
    unknown: frozenset[Hex]
    historic: dict[str, Hex]
    setup_ocean: tuple[Hex, ...]
    to_south_america: tuple[Hex, ...]
    galapagos: tuple[Hex, ...]

    @property
    def hexes(self) -> frozenset[Hex]:
        return frozenset(p.hex for p in self.printed) | self.known_ocean | self.east_ocean | self.unknown


def _hex(raw: list[int]) -> Hex:
    return (int(raw[0]), int(raw[1]))


def _board(raw: dict[str, Any]) -> Board:
    printed = [Printed(n, _hex(b["hex"]), b["villages"], 0, False, (), True) for n, b in raw["bases"].items()]
    printed += [
        Printed(
            n,
            _hex(g["hex"]),
            g["villages"],
            g["warriors"],
            bool(g.get("atoll")),
            tuple(g.get("malaria", ())),
            False,
        )
        for n, g in raw["independents"].items()
    ]
    return Board(
        columns=raw["columns"],
        rows=raw["rows"],
        printed=tuple(printed),
        known_ocean=frozenset(_hex(h) for h in raw["known_ocean"]),
        east_ocean=frozenset(_hex(h) for h in raw["east_ocean"]),
        unknown=frozenset(_hex(h) for h in raw["unknown"]),
        historic={n: _hex(h) for n, h in raw["historic_positions"].items()},
        setup_ocean=tuple(_hex(h) for h in raw["setup_ocean_hexes"].values()),
        to_south_america=tuple(_hex(h) for h in raw["to_south_america"]),
        galapagos=(_hex(raw["galapagos"]), _hex(raw["unfortunate_islands"])),
    )


def _card(raw: dict[str, Any]) -> Card:
    bonus = raw.get("bonus", {})
    return Card(
        raw["name"],
        raw["vp"],
        raw["use"],
        raw.get("effect"),
        bonus.get("vp", 0),
        tuple(bonus.get("while_controlling", ())),
        raw.get("penalty", 0),
    )


BOARD_RAW: dict[str, Any] = _read("board")
BOARD = _board(BOARD_RAW)
_PIECES = _read("pieces")
PIECES: dict[str, int] = dict(_PIECES["pieces"])
START: dict[str, int] = dict(_PIECES["start"])
START_VILLAGES: int = _PIECES["start_villages"]
VARIABLE_START_POINTS: int = _PIECES["variable_start_points"]
DISCOVERY_MARKERS: int = _PIECES["discovery_markers"]
_BUILD = _read("build")
COSTS: dict[str, int] = dict(_BUILD["costs"])
CARDS_PER_TURN: int = _BUILD["cards_per_turn"]
ROTATION_POINTS: int = _BUILD["internal_rotation"]
SAVED_AT_MOST: int = _BUILD["saved_points_at_most"]
_VP = _read("vp")
HALVES: dict[str, int] = dict(_VP["halves"])
TARGETS: dict[int, int] = {int(n): t for n, t in _VP["targets"].items()}
VARIABLE_END_AT_MOST: int = _VP["variable_end_at_most"]
TILES: dict[str, Tile] = {
    t["name"]: Tile(t["name"], t["green"], t["brown"], t["atoll"], bool(t.get("set_aside")))
    for t in _read("tiles")["tiles"]
}
CHITS: tuple[Chit, ...] = tuple(Chit(c["kind"], c["knots"], c["count"]) for c in _read("chits")["chits"])
_CARDS_RAW = _read("cards")["cards"]
CARDS: dict[str, Card] = {c["name"]: _card(c) for c in _CARDS_RAW}
DECK: tuple[str, ...] = tuple(sorted(c["name"] for c in _CARDS_RAW for _ in range(c.get("count", 1))))
"""Every card once per copy, sorted: a draw is an index into what remains of it."""


_BY_EFFECT: dict[str, str] = {}
for _card_of in CARDS.values():
    if _card_of.effect is not None:
        _BY_EFFECT.setdefault(_card_of.effect, _card_of.name)


def card_with(effect: str) -> str:
    """The name of the card that has `effect`."""
    return _BY_EFFECT[effect]
