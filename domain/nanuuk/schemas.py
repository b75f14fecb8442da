"""The Nanuuk! games' messages as JSON Schema (docs/nanuuk.md), for the API document.

Plain data, read by the service's document builder through GameModule.schemas. Bounds are
the outer ones a body may have (those the service's command schema holds too); whether a cell
is ice or a piece may step there the rules say (422).
"""

from __future__ import annotations

from domain.game_module import GameSchemas
from domain.json_schema import JsonSchema, listed, nullable, obj
from domain.nanuuk.rules import (
    AIMS,
    ANIMALS,
    BEAR_FLIGHT,
    BEAR_HUNT,
    EACH_STEP,
    EQUIPMENT,
    HELPER,
    LEARNING,
    MOVER_CHOOSES,
    NANUUK,
    PARTNERS,
    TOKENS,
)
from domain.nanuuk.state import CRACK, ENDED, IGLOO, LAYOUT, MOVE, PLACING, PLAY, STEP, TAKE

MAX_COORDINATE = 64
"""A cell's coordinates lie within this of 0 on the board; which cells are ice the rules say."""
MAX_PIECES = 64
SEATS = 8

SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": SEATS - 1}
COUNT: JsonSchema = {"type": "integer", "minimum": 0}
BOOLEAN: JsonSchema = {"type": "boolean"}
PIECE: JsonSchema = {
    "type": "integer",
    "minimum": 0,
    "maximum": MAX_PIECES - 1,
    "description": "A piece by its number in the view's `pieces`.",
}
COORDINATE: JsonSchema = {"type": "integer", "minimum": -MAX_COORDINATE, "maximum": MAX_COORDINATE}
CELL: JsonSchema = {
    "type": "array",
    "items": COORDINATE,
    "minItems": 2,
    "maxItems": 2,
    "description": "A cell as axial coordinates [q, r].",
}
LINE: JsonSchema = {
    "type": "array",
    "items": CELL,
    "minItems": 2,
    "maxItems": 2,
    "description": "A line two cells share, [[q, r], [q, r]], the smaller first in events.",
}
ANIMAL: JsonSchema = {"type": "string", "enum": list(ANIMALS)}
TOTALS: JsonSchema = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 4}


# --- commands (decide.py's `canonical` and `_check`) ---------------------------------------

PIECE_ONLY = obj(("piece",), piece=PIECE)
COMMANDS: dict[str, JsonSchema] = {
    "PlacePiece": obj(("piece", "cell"), piece=PIECE, cell=CELL),
    "Move": obj(
        ("piece", "cell"),
        piece=PIECE,
        cell=CELL,
        bear={**CELL, "description": "N-6: entering a bear's cell, the free cell it is chased to."},
        kayak={**BOOLEAN, "description": "N-8: cross the crack on the way by kayak."},
        sled={**BOOLEAN, "description": "N-9: husky and sled give a double move."},
        one_crack={**BOOLEAN, "description": "V-1 with sled: true one crack at the end, false one per step."},
    ),
    "EndMove": obj(),
    "Stay": PIECE_ONLY,
    "Retire": PIECE_ONLY,
    "PlaceCrack": obj(("crack",), crack=LINE),
    "TakeAnimal": obj(),
    "LeaveAnimal": obj(),
    "Exchange": obj(("animal",), animal=ANIMAL),
    "BringIn": obj(("animal",), animal=ANIMAL),
    "EndIglooVisit": obj(),
}
"""The seats' commands; LayOutIce is the system's, never a seat's."""

# --- events (events.py) ---------------------------------------------------------------------

MOVED = obj(("piece", "seat"), piece=PIECE, seat=SEAT)
AT_CELL = obj(("piece", "seat", "cell"), piece=PIECE, seat=SEAT, cell=CELL)
AT_ANIMAL = obj(("piece", "seat", "cell", "animal"), piece=PIECE, seat=SEAT, cell=CELL, animal=ANIMAL)
TOKEN = obj(("cell", "kind"), cell=CELL, kind={"type": "string", "enum": list(TOKENS)})
END_REASONS = [
    "no_move_for_a_round",
    "last_left",
    "shut_in",
    "partner_shut_in",
    "bear_shut_in",
    "inuk_shut_in",
]
RESULT = obj(
    ("winner", "winners", "totals", "reason"),
    winner={**nullable(SEAT), "description": "null: a team or a tie equipment does not break."},
    winners=listed(SEAT),
    totals={
        **TOTALS,
        "description": "N-11's points; in the learning games 1 a winner (L-4: seats out before).",
    },
    reason={"type": "string", "enum": END_REASONS},
    points={**TOTALS, "description": "Nanuuk! only: N-11's points per seat."},
    equipment={**TOTALS, "description": "Nanuuk! only: carried equipment per seat (the tie-break)."},
)
NEXT = {"seat": SEAT, "next": SEAT}
EVENTS: dict[str, JsonSchema] = {
    "IceLaidOut": obj(
        ("tokens", "bears", "cracks"), tokens=listed(TOKEN), bears=listed(CELL), cracks=listed(LINE)
    ),
    "PiecePlaced": AT_CELL,
    "EquipmentUsed": obj(
        ("piece", "seat", "items"),
        piece=PIECE,
        seat=SEAT,
        items=listed({"type": "string", "enum": list(EQUIPMENT)}),
    ),
    "PieceMoved": obj(
        ("piece", "seat", "from", "to", "kayak", "sled", "one_crack"),
        piece=PIECE,
        seat=SEAT,
        kayak=BOOLEAN,
        sled=BOOLEAN,
        one_crack=BOOLEAN,
        **{"from": CELL, "to": CELL},
    ),
    "PieceStayed": AT_CELL,
    "StepsEnded": obj(("piece", "seat", "declined"), piece=PIECE, seat=SEAT, declined=BOOLEAN),
    "MoveEnded": MOVED,
    "MoveSkipped": obj(
        ("seat", "part", "reason"), seat=SEAT, part=COUNT, reason={"type": "string", "enum": ["cannot_move"]}
    ),
    "CrackPlaced": obj(
        ("seat", "cell", "crack", "kind", "forced"),
        seat=SEAT,
        cell=CELL,
        crack=LINE,
        kind={"type": "string", "enum": ["C", "d"]},
        forced=BOOLEAN,
    ),
    "InukJoined": AT_CELL,
    "AnimalTaken": AT_ANIMAL,
    "AnimalLeft": AT_ANIMAL,
    "BearSent": obj(
        ("piece", "seat", "bear", "from", "to"),
        piece=PIECE,
        seat=SEAT,
        bear={**PIECE, "description": "The bear's piece number."},
        **{"from": CELL, "to": CELL},
    ),
    "HarpoonReturned": MOVED,
    "AnimalExchanged": obj(
        ("piece", "seat", "animal", "equipment", "inuk"),
        piece=PIECE,
        seat=SEAT,
        animal=ANIMAL,
        equipment=listed({"type": "string", "enum": list(EQUIPMENT)}),
        inuk=BOOLEAN,
    ),
    "AnimalBroughtIn": obj(
        ("piece", "seat", "animal", "inuk"), piece=PIECE, seat=SEAT, animal=ANIMAL, inuk=BOOLEAN
    ),
    "IglooVisitEnded": MOVED,
    "HunterRetired": MOVED,
    "TurnEnded": obj(("seat", "next", "moved"), moved=BOOLEAN, **NEXT),
    "TurnSkipped": obj(
        ("seat", "next", "reason"),
        reason={"type": "string", "enum": ["retired", "cannot_move", "out"]},
        **NEXT,
    ),
    "PieceOut": obj(
        ("piece", "seat", "reason"),
        piece=PIECE,
        seat=nullable(SEAT),
        reason={"type": "string", "enum": ["cannot_move", "shut_in"]},
    ),
    "GameEnded": RESULT,
}

# --- options (rules.py's `read_options`) ----------------------------------------------------


def options_of(**properties: JsonSchema) -> JsonSchema:
    return {"type": "object", "additionalProperties": False, "properties": properties}


LAYOUT_KINDS = ("whale", "inuk", "fish", "seal", "walrus", "bear")
OPTIONS: dict[str, JsonSchema] = {
    NANUUK: options_of(
        two_hunters={**BOOLEAN, "description": "N-1, 2 seats only: two hunters each."},
        double_move_cracks={"type": "string", "enum": [EACH_STEP, MOVER_CHOOSES]},
        keep_igloo_reachable={**BOOLEAN, "description": "V-2."},
        pre_cracks={"type": "integer", "minimum": 0, "maximum": 30, "description": "V-3."},
        layout={
            "type": "object",
            "nullable": True,
            "properties": {kind: listed(CELL) for kind in LAYOUT_KINDS},
            "additionalProperties": False,
            "description": "N-2 given at creation: the cells of each kind (N-1's counts).",
        },
        cracks={**listed(LINE), "nullable": True, "description": "V-3 given at creation: the lines."},
    ),
    LEARNING: options_of(),
    BEAR_HUNT: options_of(
        bear_seat={**SEAT, "maximum": 2, "description": "The seat that plays the bear (below the seats)."},
        crack_each_step=BOOLEAN,
        bear_must_move_twice=BOOLEAN,
        bear_may_stay=BOOLEAN,
        play_on={**BOOLEAN, "description": "3 seats only: the Inuit play on after the bear is caught."},
    ),
    BEAR_FLIGHT: options_of(
        bears={"type": "integer", "minimum": 1, "maximum": 3},
        bear_must_move_twice=BOOLEAN,
        bear_may_stay=BOOLEAN,
    ),
    PARTNERS: options_of(aim={"type": "string", "enum": list(AIMS)}),
    HELPER: options_of(),
}

# --- the view (view.py) ---------------------------------------------------------------------

SHEET = obj(
    ("piece", "seat", "carried", "igloo", "points"),
    piece=PIECE,
    seat=SEAT,
    carried=obj(
        ("equipment", "animals", "inuk"),
        equipment=listed({"type": "string", "enum": list(EQUIPMENT)}),
        animals=listed(ANIMAL),
        inuk=BOOLEAN,
    ),
    igloo=obj(
        ("equipment", "animals", "inuit"),
        equipment=listed({"type": "string", "enum": list(EQUIPMENT)}),
        animals=obj(ANIMALS, **{animal: COUNT for animal in ANIMALS}),
        inuit=COUNT,
    ),
    points=COUNT,
)
VIEW_PIECE = obj(
    ("piece", "kind", "seat", "cell", "retired", "out"),
    piece=PIECE,
    kind={"type": "string", "enum": ["hunter", "bear", "inuk"]},
    seat={**nullable(SEAT), "description": "null: Nanuuk!'s bears, moved by no seat."},
    cell=nullable(CELL),
    retired=BOOLEAN,
    out=BOOLEAN,
)
AWAITING = obj(
    ("stage", "piece", "cell"),
    stage={"type": "string", "enum": ["place", MOVE, STEP, TAKE, IGLOO, CRACK]},
    piece=nullable(PIECE),
    cell=nullable(CELL),
)


def view_schema(options: JsonSchema) -> JsonSchema:
    return obj(
        (
            "game",
            "phase",
            "active",
            "viewer",
            "to_act",
            "seats",
            "result",
            "options",
            "ice",
            "water",
            "igloos",
            "cracks",
            "pieces",
            "tokens",
            "sheets",
            "scores",
            "awaiting",
        ),
        game={"type": "string"},
        phase={"type": "string", "enum": [LAYOUT, PLACING, PLAY, ENDED]},
        active=SEAT,
        viewer={**nullable(SEAT), "description": "null for a spectator."},
        to_act=listed(SEAT),
        seats=listed(obj(("seat", "name"), seat=SEAT, name={"type": "string"})),
        result=nullable(RESULT),
        options=options,
        ice=listed(CELL),
        water=listed(CELL),
        igloos={**listed(CELL), "description": "Empty in the learning games (L-1)."},
        cracks=listed(LINE),
        pieces=listed(VIEW_PIECE),
        tokens={**listed(TOKEN), "description": "Nanuuk! only; empty in the learning games."},
        sheets={**listed(SHEET), "description": "One per hunter (Nanuuk! only)."},
        scores=listed({"type": "integer"}),
        awaiting={
            **nullable(AWAITING),
            "description": "What legal_commands offers now; null during the layout and once ended.",
        },
    )


def schemas_for(game: str) -> GameSchemas:
    """What `game` sends and shows (one engine: every game name knows every command)."""
    return GameSchemas(
        commands=COMMANDS,
        events=EVENTS,
        view=view_schema(OPTIONS[game]),
        options=OPTIONS[game],
        result=RESULT,
    )
