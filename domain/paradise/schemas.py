"""Conquest of Paradise's messages as JSON Schema, for the API document.

Plain data, read by the service's document builder through GameModule.schemas. Bounds are
the outer ones a body may have (those the service's command schema holds too); which hex or
piece the position allows the rules say (422).
"""

from __future__ import annotations

from domain.game_module import GameSchemas
from domain.json_schema import JsonSchema, listed, nullable, obj
from domain.paradise.build import EXTRAS, ITEMS, ORDERS_AT_MOST
from domain.paradise.combat import FRONT_KINDS
from domain.paradise.move import PASSENGERS
from domain.paradise.setup import SWITCHES
from domain.paradise.state import BUILD, ENDED, EXPLORE, INDEPENDENT, MOVE, START, VICTORY
from domain.paradise.tables import CARDS, CHITS, KINDS, TILES, VARIABLE_END_AT_MOST

MAX_HEX = 63
"""No map coordinate is larger; which hexes exist the rules say."""
MAX_PATH = 4
"""No move goes through more hexes than its canoes' reach allows."""
MAX_STACK = 99
SEATS = 8
ORDER = "order"
PHASES = [START, ORDER, EXPLORE, MOVE, BUILD, VICTORY, ENDED]
CHOICES = [
    "order",
    "redirect",
    "fight",
    "casualty",
    "haka",
    "arioi",
    "retreat",
    "save",
    "base",
    "deforest",
    "kumara",
    "marker",
]

SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": SEATS - 1}
OWNER: JsonSchema = {
    "type": "integer",
    "minimum": INDEPENDENT,
    "maximum": SEATS - 1,
    "description": "A seat, or -1: an independent printed group.",
}
COUNT: JsonSchema = {"type": "integer", "minimum": 0}
BOOLEAN: JsonSchema = {"type": "boolean"}
HEX: JsonSchema = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": MAX_HEX},
    "minItems": 2,
    "maxItems": 2,
    "description": "A hex as [column, row] of the map.",
}
CARD: JsonSchema = {"type": "string", "enum": sorted(CARDS)}
ORDER_ITEM: JsonSchema = obj(
    ("item",),
    item={"type": "string", "enum": list(ITEMS + EXTRAS)},
    hex=nullable(
        {**HEX, "description": "Where; every item but a card, rotation or saving is built at a hex."}
    ),
)
GROUP_NAME: JsonSchema = {"type": "string", "maxLength": 32, "description": "An island group's name."}
TILE: JsonSchema = {"type": "string", "enum": sorted(TILES)}
SIDE: JsonSchema = {"type": "integer", "enum": [0, 1], "description": "0 the attacker, 1 the defender."}


def by_kind(kinds: tuple[str, ...], required: bool = False) -> JsonSchema:
    """How many pieces of each kind."""
    return obj(kinds if required else (), **{kind: {**COUNT, "maximum": MAX_STACK} for kind in kinds})


PIECES: JsonSchema = {
    **by_kind(KINDS),
    "additionalProperties": False,
    "minProperties": 1,
    "description": "How many pieces of each kind (at least one in all).",
}
ALL_PIECES = by_kind(KINDS, required=True)
FRONT = by_kind(FRONT_KINDS, required=True)
PATH: JsonSchema = {
    "type": "array",
    "items": HEX,
    "minItems": 2,
    "maxItems": MAX_PATH,
    "description": "The hexes the pieces go through, first where they are.",
}

PASSENGER_COUNTS: JsonSchema = {
    **by_kind(PASSENGERS),
    "additionalProperties": False,
    "description": "How many bands and colonies (no other kind goes ashore or aboard halfway).",
}
STOPS: JsonSchema = {
    **listed(
        {
            **obj(
                ("at",),
                at={
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_PATH - 2,
                    "description": "The hex's index in the path, neither its first nor its last.",
                },
                drop={**PASSENGER_COUNTS, "description": "Passengers put ashore there (first)."},
                take={**PASSENGER_COUNTS, "description": "Passengers taken aboard there (then)."},
            ),
            "additionalProperties": False,
        }
    ),
    "maxItems": MAX_PATH - 2,
    "description": "P-3.3: halts on the way, in path order, one a hex; the canoes go on.",
}

# --- commands (engine.py's BY_PHASE and BY_CHOICE) --------------------------------------------

HEX_ONLY = obj(("hex",), hex=HEX)
COMMANDS: dict[str, JsonSchema] = {
    "ChooseOrder": obj(
        ("first",),
        first={**SEAT, "description": "P-1.2: the seat that plays first this turn."},
        clockwise={**BOOLEAN, "description": "The direction of play (default true)."},
    ),
    "Explore": obj(
        ("hex",),
        hex=HEX,
        **{"from": {**HEX, "description": "A first step only: the pre-move hex it sets out from (P-2.1)."}},
    ),
    "EndExploration": obj(),
    "SeekKumara": HEX_ONLY,
    "KumaraStep": HEX_ONLY,
    "ReachSouthAmerica": obj(),
    "Redirect": HEX_ONLY,
    "RevealTile": HEX_ONLY,
    "RevealCard": obj(("card",), card=CARD),
    "Move": obj(
        ("path", "pieces"),
        path=PATH,
        pieces={**PIECES, "description": "The pieces that set out from the path's first hex."},
        stops=STOPS,
    ),
    "Transit": obj(("path", "pieces"), path={**PATH, "maxItems": 2}, pieces=PIECES),
    "FlipTransport": HEX_ONLY,
    "EndMovement": obj(),
    "Fight": obj(
        ("hex", "defender"),
        hex=HEX,
        defender={**OWNER, "description": "The seat attacked (-1: independents)."},
    ),
    "Lose": obj(
        ("piece",), piece={"type": "string", "enum": list(FRONT_KINDS), "description": "The kind hit."}
    ),
    "UseCard": obj(("use",), use={**BOOLEAN, "description": "Haka or Arioi: true plays it."}),
    "Retreat": HEX_ONLY,
    "SaveVillages": obj(
        ("war_canoes", "bands"),
        war_canoes={**COUNT, "maximum": MAX_STACK},
        bands={**COUNT, "maximum": MAX_STACK},
    ),
    "ChooseBase": HEX_ONLY,
    "Deforest": obj(target={**SEAT, "description": "The claimant who loses VP; none: keep the card."}),
    "EndBuild": obj(
        orders={
            **listed(ORDER_ITEM),
            "maxItems": ORDERS_AT_MOST,
            "description": "All of the seat's build orders of the phase at once (none: build nothing). "
            "`rotate` (internal rotation) and `save` (a saved point) once each.",
        }
    ),
}
"""The seats' commands; Draw is the system's, never a seat's."""

# --- events --------------------------------------------------------------------------------------

SEAT_ONLY = obj(("seat",), seat=SEAT)
SEAT_HEX = obj(("seat", "hex"), seat=SEAT, hex=HEX)
KNOTS = obj(("seat", "knots"), seat=SEAT, knots=COUNT)
REMAINING = listed(
    {"type": "array", "items": {}, "minItems": 2, "maxItems": 2, "description": "[hex, defender]"}
)
RESULT = obj(
    ("winner", "winners", "reason", "totals", "vp", "cards"),
    winner={**nullable(SEAT), "description": "null: a tie no tie-break settles."},
    winners=listed(SEAT),
    reason={"type": "string", "enum": ["target", "last_turn"]},
    totals={**listed({"type": "integer"}), "description": "Whole VP per seat."},
    vp={**listed({"type": "number"}), "description": "VP per seat with the halves (atolls)."},
    cards={**listed(listed(CARD)), "description": "Every seat's hand, shown at the end."},
)
EVENTS: dict[str, JsonSchema] = {
    "SetupDrawn": obj(("ocean", "island"), ocean=listed(COUNT), island=listed(COUNT)),
    "TurnStarted": obj(("turn",), turn=COUNT),
    "PhaseStarted": obj(("phase",), phase={"type": "string", "enum": PHASES}),
    "OrderChosen": obj(
        ("seat", "first", "clockwise", "order"), seat=SEAT, first=SEAT, clockwise=BOOLEAN, order=listed(SEAT)
    ),
    "MalariaArmed": obj(),
    "MalariaStruck": obj(("roll", "hex", "seat"), roll=COUNT, hex=nullable(HEX), seat=nullable(SEAT)),
    "ExpeditionStarted": SEAT_ONLY,
    "ExplorerEntered": obj(
        ("seat", "hex", "penalty"),
        seat=SEAT,
        hex=HEX,
        penalty=COUNT,
        crossing=BOOLEAN,
        **{"from": {**HEX, "description": "A first step only: the pre-move hex it set out from."}},
    ),
    "ChitDrawn": obj(
        ("seat", "hex", "kind", "knots", "chit"),
        seat=SEAT,
        hex=HEX,
        kind={"type": "string", "enum": sorted({c.kind for c in CHITS})},
        knots=COUNT,
        chit={**nullable(COUNT), "description": "The chit's number; null: the cup was empty."},
        ignored={**BOOLEAN, "description": "A disruption Navigation ignores."},
    ),
    "VoyageRedirected": obj(("seat", "explorer", "hex"), seat=SEAT, explorer=SEAT, hex=HEX),
    "TileFound": obj(
        ("seat", "hex", "face_up"),
        seat=SEAT,
        hex=HEX,
        face_up=BOOLEAN,
        tile={**TILE, "description": "Face up only; else in the secret."},
        index=COUNT,
    ),
    "TileExamined": SEAT_HEX,
    "TileRevealed": obj(("hex", "tile", "by"), hex=HEX, tile=TILE, by=nullable(SEAT)),
    "ExplorerReturned": KNOTS,
    "ExplorerLost": KNOTS,
    "ExplorerRecovered": SEAT_ONLY,
    "KumaraSought": SEAT_HEX,
    "KumaraRolled": obj(
        ("seat", "die", "roll", "result"),
        seat=SEAT,
        die={"type": "integer", "minimum": 1, "maximum": 6},
        roll={"type": "integer"},
        result={"type": "string", "enum": ["lost", "return", "disrupted", "explore"]},
    ),
    "KumaraStepped": SEAT_HEX,
    "KumaraFound": SEAT_ONLY,
    "SouthIslandPlaced": obj(("hex", "next_to"), hex=nullable(HEX), next_to=HEX),
    "PiecesMoved": obj(
        ("seat", "path", "count", "how"),
        seat=SEAT,
        path=listed(HEX),
        count={**COUNT, "description": "How many pieces set out."},
        how={"type": "string", "enum": ["move", "transit"]},
        stops={
            **listed(obj(("at", "drop", "take"), at=COUNT, drop=COUNT, take=COUNT)),
            "description": "Only with stops: the path index, how many pieces went ashore and aboard.",
        },
    ),
    "TransportFlipped": obj(("seat", "hex", "shown"), seat=SEAT, hex=HEX, shown=BOOLEAN),
    "MovementEnded": obj(("seat", "battles"), seat=SEAT, battles=REMAINING),
    "BattleStarted": obj(
        ("hex", "attacker", "defender", "pieces", "front", "villages"),
        hex=HEX,
        attacker=SEAT,
        defender=OWNER,
        pieces={**listed(by_kind(KINDS)), "minItems": 2, "maxItems": 2},
        front={**listed(FRONT), "minItems": 2, "maxItems": 2},
        villages=COUNT,
    ),
    "DieRolled": obj(
        ("hex", "die", "roll"),
        hex=HEX,
        die={"type": "integer", "minimum": 1, "maximum": 6},
        roll={"type": "integer"},
    ),
    "PieceHit": obj(
        ("hex", "side", "piece", "how"),
        hex=HEX,
        side=SIDE,
        piece={"type": "string", "enum": list(FRONT_KINDS)},
        how={"type": "string", "enum": ["panicked", "removed"]},
    ),
    "CardUsed": obj(("seat", "card", "shown"), seat=OWNER, card=CARD, shown=BOOLEAN),
    "CardAnswered": obj(("seat", "card", "use"), seat=SEAT, card=CARD, use=BOOLEAN),
    "BattleEnded": obj(("hex", "winner"), hex=HEX, winner=SIDE),
    "RetreatRequired": obj(
        ("hex", "seat", "pieces", "options"),
        hex=HEX,
        seat=SEAT,
        pieces={**by_kind(KINDS), "description": "What the canoes carry away."},
        options=listed(HEX),
        takes={
            **listed(by_kind(KINDS)),
            "description": "What each option takes, in the options' order: the canoes' load, or "
            "the whole force wading to the other New Zealand tile (Q-A4).",
        },
    ),
    "Retreated": obj(
        ("hex", "seat", "pieces", "to"),
        hex=HEX,
        seat=SEAT,
        pieces=by_kind(KINDS),
        to={**nullable(HEX), "description": "null: nowhere to go, the pieces are removed."},
        options=listed(HEX),
    ),
    "SavingOffered": obj(
        ("hex", "seat", "options"),
        hex=HEX,
        seat=SEAT,
        options=listed({**listed(COUNT), "description": "[war_canoes, bands]"}),
    ),
    "GroupConquered": obj(
        ("hex", "seat", "saved", "given"),
        hex=HEX,
        seat=SEAT,
        saved=COUNT,
        given=by_kind(("war_canoe", "band")),
    ),
    "BaseMoved": obj(("seat", "hex"), seat=SEAT, hex=nullable(HEX)),
    "BattleOver": obj(
        ("hex", "winner", "remaining"),
        hex=HEX,
        winner=nullable(SIDE),
        remaining=REMAINING,
        lost={**by_kind(KINDS), "description": "At sea: the winner's pieces no canoe of theirs carries."},
    ),
    "BuildOrdered": {**SEAT_ONLY, "description": "Games stored before orders were sent together only."},
    "BuildCommitted": SEAT_ONLY,
    "BuildRevealed": obj(
        ("seat", "villages", "settled", "agriculture", "cards", "placed", "rotate", "save"),
        seat=SEAT,
        villages=listed(HEX),
        settled=listed(HEX),
        agriculture=listed(HEX),
        cards=COUNT,
        placed={
            "type": "object",
            "additionalProperties": COUNT,
            "description": '"column,row" -> how many pieces (face down) are placed there.',
        },
        rotate=BOOLEAN,
        save=BOOLEAN,
        void={
            **listed(
                obj(
                    ("item", "hex", "why"),
                    item={"type": "string", "enum": list(ITEMS)},
                    hex=nullable(HEX),
                    why={"type": "string"},
                )
            ),
            "description": "Q-1: orders an earlier seat's reveal made impossible; void, at no cost.",
        },
    ),
    "CardDrawn": SEAT_ONLY,
    "CardRevealed": obj(("seat", "card"), seat=SEAT, card=CARD),
    "VictoryClaimed": obj(
        ("seats", "shown"),
        seats=listed(SEAT),
        shown={
            "type": "object",
            "additionalProperties": listed(CARD),
            "description": "Seat (as text) -> cards shown.",
        },
    ),
    "DeforestationOffered": obj(("seat", "targets"), seat=SEAT, targets=listed(SEAT)),
    "DeforestationAnswered": obj(("seat", "target"), seat=SEAT, target=nullable(SEAT)),
    "GameEnded": RESULT,
}
SECRETS: dict[str, JsonSchema] = {
    "PiecesMoved": obj(
        ("pieces", "aboard_war"),
        pieces=by_kind(KINDS),
        aboard_war=COUNT,
        stops={
            **listed(
                obj(("at", "drop", "take"), at=COUNT, drop=by_kind(PASSENGERS), take=by_kind(PASSENGERS))
            ),
            "description": "Only with stops: the path index, the passengers put ashore and taken aboard.",
        },
    ),
    "TileFound": obj(("tile", "index"), tile=TILE, index=COUNT),
    "TileExamined": obj(("tile",), tile=TILE),
    "BuildOrdered": obj(
        ("item", "hex"), item={"type": "string", "enum": list(ITEMS + EXTRAS)}, hex=nullable(HEX)
    ),
    "BuildCommitted": obj(
        ("orders",),
        orders={
            **listed(
                obj(("item", "hex"), item={"type": "string", "enum": list(ITEMS + EXTRAS)}, hex=nullable(HEX))
            ),
            "description": "The seat's orders, rotation first and saving last (none in games stored "
            "before orders were sent together).",
        },
    ),
    "BuildRevealed": obj(
        ("items",),
        items=listed(
            {"type": "array", "items": {}, "minItems": 2, "maxItems": 2, "description": "[kind, hex]"}
        ),
    ),
    "CardDrawn": obj(("card", "index"), card=CARD, index=COUNT),
}

# --- options (setup.py's `options_from`) -----------------------------------------------------

OPTIONS: JsonSchema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        **{name: {**BOOLEAN, "description": "An advanced rule (Q-A1..Q-A5)."} for name in SWITCHES},
        "end_shift": {
            "type": "integer",
            "minimum": -VARIABLE_END_AT_MOST,
            "maximum": VARIABLE_END_AT_MOST,
            "description": "Q-A6: the victory target moved by this many VP.",
        },
        "last_turn": {
            **nullable({"type": "integer", "minimum": 1}),
            "description": "The game ends after this turn.",
        },
    },
}

# --- the view (view.py) -------------------------------------------------------------------------

ISLAND = obj(
    ("hex", "face_up", "discoverers"),
    hex=HEX,
    face_up=BOOLEAN,
    discoverers=listed(SEAT),
    name={**GROUP_NAME, "description": "What follows only once the viewer may see the group."},
    green=COUNT,
    brown=COUNT,
    atoll=BOOLEAN,
    owner=nullable(OWNER),
    villages=COUNT,
    agriculture=COUNT,
    warriors=COUNT,
)
STACK = obj(
    ("hex", "seat", "count", "face_up_transport"),
    hex=HEX,
    seat=SEAT,
    count=COUNT,
    face_up_transport=BOOLEAN,
    pieces={**by_kind(KINDS), "description": "The owner's own stacks only (all once ended)."},
    moved=by_kind(KINDS),
)
PLAYER = obj(
    (
        "seat",
        "name",
        "base",
        "explorer",
        "vp",
        "cards_shown",
        "cards_held",
        "cards",
        "kumara",
        "saved",
        "committed",
    ),
    seat=SEAT,
    name={"type": "string"},
    base=nullable(HEX),
    explorer={
        "oneOf": [{"type": "string", "enum": ["home", "lost"]}, HEX],
        "description": "home, lost, or the hex it explores.",
    },
    vp={
        "type": "number",
        "description": "In play the VP track: face-down cards left out, even the viewer's own; "
        "once ended the result's VP, every hand counted.",
    },
    cards_shown=listed(CARD),
    cards_held=COUNT,
    cards={
        **nullable(listed(CARD)),
        "description": "The viewer's own hand, null for others'; every hand once ended.",
    },
    kumara=BOOLEAN,
    saved=COUNT,
    committed=BOOLEAN,
)
VIEW = obj(
    (
        "game",
        "phase",
        "turn",
        "active",
        "acting",
        "seats",
        "players",
        "order",
        "marker",
        "target",
        "islands",
        "ocean",
        "unknown",
        "stacks",
        "expedition",
        "chits_left",
        "tiles_left",
        "deck_left",
        "battle",
        "choice",
        "draft",
        "result",
    ),
    game={"type": "string"},
    phase={"type": "string", "enum": PHASES},
    turn=COUNT,
    active={**nullable(SEAT), "description": "The first seat the game waits for; null: the system."},
    acting=listed(SEAT),
    seats=listed(obj(("seat", "name"), seat=SEAT, name={"type": "string"})),
    players=listed(PLAYER),
    order=listed(SEAT),
    marker=SEAT,
    target={"type": "integer", "description": "The VP that win."},
    islands=listed(ISLAND),
    ocean=listed(HEX),
    unknown=listed(HEX),
    stacks=listed(STACK),
    expedition=nullable(obj(("seat", "hex", "knots"), seat=SEAT, hex=nullable(HEX), knots=COUNT)),
    chits_left=COUNT,
    tiles_left=COUNT,
    deck_left=COUNT,
    battle=nullable(
        obj(
            ("hex", "attacker", "defender", "front", "panicked", "rear", "villages"),
            hex=HEX,
            attacker=SEAT,
            defender=OWNER,
            front=listed(FRONT),
            panicked=listed(FRONT),
            rear=listed(by_kind(KINDS)),
            villages=COUNT,
        )
    ),
    choice=nullable(
        obj(
            ("kind", "seat", "options"),
            kind={"type": "string", "enum": CHOICES},
            seat=SEAT,
            options={"type": "array", "items": {}, "description": "What the seat chooses among (by kind)."},
        )
    ),
    draft={
        **nullable(
            obj(
                ("items", "rotate", "save", "committed"),
                items=listed(
                    obj(("item", "hex"), item={"type": "string", "enum": list(ITEMS)}, hex=nullable(HEX))
                ),
                rotate=BOOLEAN,
                save=BOOLEAN,
                committed=BOOLEAN,
            )
        ),
        "description": "The viewer's own build orders; null for a spectator.",
    },
    result=nullable(RESULT),
)

SCHEMAS = GameSchemas(
    commands=COMMANDS, events=EVENTS, secrets=SECRETS, view=VIEW, options=OPTIONS, result=RESULT
)
