"""The island games' messages as JSON Schema: what the API document types for each of them.

Plain data, read by the service's document builder through GameModule.schemas. Bounds are
the outer ones a body may have; which island or line fits the board the rules say (422).
"""

from __future__ import annotations

from typing import Any

from domain.game_module import GameSchemas
from domain.islands.decide import answer_commands, seat_commands
from domain.islands.ruleset import KAHUNA_EDITIONS, ruleset_for
from domain.json_schema import JsonSchema, obj

MAX_NAME = 32
"""No island name is longer; the API's bound for one word."""

ISLAND: JsonSchema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME,
    "description": "An island name.",
}
SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 7}
COUNT: JsonSchema = {"type": "integer", "minimum": 0}


def islands(least: int, most: int | None = None, description: str = "") -> JsonSchema:
    """A list of `least`..`most` island names (exactly `least` when `most` is None)."""
    shown = {"description": description} if description else {}
    return {
        "type": "array",
        "items": ISLAND,
        "minItems": least,
        "maxItems": least if most is None else most,
        **shown,
    }


LINE = islands(2, description="The two islands a bridge line joins.")
SEA = islands(3, description="The three islands around a sea space.")
SOURCE: JsonSchema = {"type": "string", "enum": ["face_up", "stack"]}
CARDS = islands(1, 16)

# --- commands --------------------------------------------------------------------------

COMMANDS: dict[str, JsonSchema] = {
    "PlaceBridge": obj(
        ("card", "line"),
        card=ISLAND,
        line=LINE,
        take_back=islands(2, description="O-11, out of bridges: the line of one's own bridge it moves."),
    ),
    "RemoveBridge": obj(("cards", "line"), cards=islands(2), line=LINE),
    "SwapBridge": obj(
        ("cards", "line"),
        cards=islands(1, 2, "Two cards, or one with kanaloa."),
        line=LINE,
        kanaloa={"type": "boolean", "description": "G-5: the god Kanaloa stands in for a card."},
    ),
    "DiscardCards": obj(("cards",), cards=CARDS),
    "DrawCard": obj(("source",), source=SOURCE, card={**ISLAND, "description": "With face_up: which card."}),
    "EndTurn": obj(cards=islands(1, 16, "A hand over its limit: the cards discarded face down.")),
    "SkipDraw": obj(),
    "PlaceFreeBridge": obj(("line",), line=LINE),
    "DeferFinalTurn": obj(),
    "PlayCard": obj(("card",), card=ISLAND),
    "TakeBackBridge": obj(("line",), line=LINE),
    "PlaceShip": obj(("cards", "sea"), cards=islands(3), sea=SEA),
    "MoveShip": obj(("from", "to"), **{"from": SEA, "to": SEA}),
    "UseKanaloa": obj(("line",), line=LINE),
    "UseKu": obj(("target",), target={**SEAT, "description": "The seat whose hand Ku shows."}),
    "UsePele": obj(),
    "UseLono": obj(("source",), source=SOURCE, card={**ISLAND, "description": "With face_up: which card."}),
    "ChooseFaceUp": obj(("card",), card=ISLAND),
    "ChooseRemoval": obj(("line",), line=LINE),
    "TakeCard": obj(("card",), card=ISLAND),
    "GiveCards": obj(
        ("gifts",),
        gifts={
            "type": "object",
            "additionalProperties": ISLAND,
            "maxProperties": 8,
            "description": "Seat number (as text) -> the card given back to that seat (G-7).",
        },
    ),
}

# --- events ----------------------------------------------------------------------------

SEAT_ONLY = obj(("seat",), seat=SEAT)
TOTALS: JsonSchema = {"type": "array", "items": {"type": "integer"}}
RESULT = obj(
    ("winner", "totals", "reason"),
    winner={**SEAT, "nullable": True, "description": "null: a draw."},
    totals=TOTALS,
    reason={"type": "string", "enum": ["points", "draw", "premature", "eleventh_island"]},
    round={"type": "integer", "description": "I-7: the round a premature end came in."},
    tournament=obj(
        ("points", "island_points"),
        points=TOTALS,
        island_points=TOTALS,
    ),
)
CHOICE_KINDS: JsonSchema = {"type": "string", "enum": ["relative_majority", "ku", "pele_return", "pele_draw"]}

EVENTS: dict[str, JsonSchema] = {
    "DeckShuffled": obj(("round", "size"), round=COUNT, size=COUNT),
    "HandDealt": obj(("seat", "count"), seat=SEAT, count=COUNT),
    "FaceUpLaid": obj(("cards",), cards=islands(0, 16)),
    "RoundStarted": obj(("round", "first"), round=COUNT, first=SEAT),
    "CardsPlayed": obj(("seat", "cards"), seat=SEAT, cards=islands(1, 16)),
    "BridgePlaced": obj(("seat", "line"), seat=SEAT, line=LINE, free={"type": "boolean"}),
    "BridgeRemoved": obj(
        ("seat", "line", "by", "cause"),
        seat=SEAT,
        line=LINE,
        by=SEAT,
        cause={"type": "string", "description": "attack, swap, majority, taken_back, ..."},
    ),
    "IslandTaken": obj(("seat", "island"), seat=SEAT, island=ISLAND),
    "IslandLost": obj(("seat", "island"), seat=SEAT, island=ISLAND),
    "CardsDiscarded": obj(("seat", "count"), seat=SEAT, count=COUNT),
    "CardDrawn": obj(("seat", "source"), seat=SEAT, source=SOURCE, card=ISLAND),
    "FaceUpRefilled": obj(("card",), card=ISLAND),
    "TurnEnded": obj(("seat", "next"), seat=SEAT, next=SEAT),
    "RoundEnded": obj(("round",), round=COUNT),
    "RoundScored": obj(
        ("round", "islands", "points", "totals"), round=COUNT, islands=TOTALS, points=TOTALS, totals=TOTALS
    ),
    "GameEnded": RESULT,
    "DrawSkipped": SEAT_ONLY,
    "FinalTurnsStarted": obj(("order",), order={"type": "array", "items": SEAT}),
    "FinalTurnDeferred": obj(("seat", "order"), seat=SEAT, order={"type": "array", "items": SEAT}),
    "FinalTurnFinished": SEAT_ONLY,
    "FaceUpChosen": SEAT_ONLY,
    "FaceUpRevealed": obj(("cards",), cards=islands(0, 16)),
    "ShipPlaced": obj(("seat", "sea"), seat=SEAT, sea=SEA),
    "ShipMoved": obj(("seat", "from", "to"), seat=SEAT, **{"from": SEA, "to": SEA}),
    "ShipSunk": obj(("seat", "sea", "by", "cause"), seat=SEAT, sea=SEA, by=SEAT, cause={"type": "string"}),
    "ChoiceRequired": obj(
        ("kind", "seat"),
        kind=CHOICE_KINDS,
        seat=SEAT,
        island={"type": "string", "maxLength": MAX_NAME},
        target={**SEAT, "nullable": True},
        options={"type": "array", "items": {}, "description": "Open choices only; else in the secret."},
    ),
    "ChoiceResolved": obj(("kind", "seat"), kind=CHOICE_KINDS, seat=SEAT),
    "GodsPlaced": obj(("stones",), stones={"type": "object", "additionalProperties": {"type": "string"}}),
    "GodTaken": obj(("seat", "island", "god"), seat=SEAT, island=ISLAND, god={"type": "string"}),
    "GodUsed": obj(("seat", "god"), seat=SEAT, god={"type": "string"}),
    "KaneScored": obj(("seat", "island", "points"), seat=SEAT, island=ISLAND, points={"type": "integer"}),
    "HandShown": obj(("seat", "target"), seat=SEAT, target=SEAT),
    "CardTaken": obj(("seat", "from", "how"), seat=SEAT, how={"type": "string"}, **{"from": SEAT}),
    "CardGiven": obj(("seat", "to"), seat=SEAT, to=SEAT),
    "ChoosingStarted": obj(),
}

SECRETS: dict[str, JsonSchema] = {
    "DeckShuffled": obj(("stack",), stack=islands(0, 64)),
    "HandDealt": obj(("cards",), cards=islands(0, 16)),
    "CardsDiscarded": obj(("cards",), cards=islands(1, 16)),
    "CardDrawn": obj(("card",), card=ISLAND),
    "FaceUpChosen": obj(("card",), card=ISLAND),
    "ChoiceRequired": obj(("options",), options={"type": "array", "items": {}}),
    "HandShown": obj(("cards",), cards=islands(0, 16)),
    "CardTaken": obj(("card",), card=ISLAND),
    "CardGiven": obj(("card",), card=ISLAND),
}

# --- views and options -------------------------------------------------------------------

PLACED = obj(("seat",), seat=SEAT, line=LINE, sea=SEA)
SEAT_VIEW = obj(
    ("seat", "name", "hand_count", "bridges_in_stock", "islands", "score"),
    seat=SEAT,
    name={"type": "string"},
    hand_count=COUNT,
    bridges_in_stock=COUNT,
    islands={"type": "array", "items": ISLAND},
    score={"type": "integer"},
    ships_in_stock={**COUNT, "description": "Seafarers (S) only."},
    free_bridges={**COUNT, "description": "With a handicap (I-8) only."},
    god_stones={"type": "array", "items": {"type": "string"}, "description": "The Power of the Gods only."},
)
PENDING = obj(
    ("kind", "seat"),
    kind=CHOICE_KINDS,
    seat=SEAT,
    island={"type": "string"},
    target=SEAT,
    options={
        "type": "array",
        "items": {},
        "description": "What the seat may choose; shown to that seat only.",
    },
)


def view_schema(options: JsonSchema) -> JsonSchema:
    """The island view (domain/islands/view.py); keys of one game are optional."""
    return obj(
        ("game", "mode", "phase", "round", "rounds", "active", "seats", "bridges", "options"),
        game={"type": "string"},
        mode={"type": "string", "enum": ["casual", "tournament"]},
        phase={"type": "string", "enum": ["setup", "choosing", "play", "final", "scoring", "ended"]},
        round=COUNT,
        rounds=COUNT,
        active=SEAT,
        viewer={**SEAT, "nullable": True, "description": "null for a spectator."},
        seats={"type": "array", "items": SEAT_VIEW},
        bridges={"type": "array", "items": PLACED},
        control={"type": "object", "additionalProperties": SEAT, "description": "Island -> its seat."},
        face_up={"type": "array", "items": ISLAND},
        stack_count=COUNT,
        discard={"type": "array", "items": ISLAND},
        hidden_discards=COUNT,
        scorings={"type": "array", "items": TOTALS},
        result={**RESULT, "nullable": True},
        options=options,
        ships={"type": "array", "items": PLACED, "description": "Seafarers (S) only."},
        gods={"type": "object", "additionalProperties": {"type": "string"}, "description": "Island -> god."},
        chosen={"type": "array", "items": {"type": "boolean"}, "description": "O-2: who has chosen."},
        final_order={"type": "array", "items": SEAT},
        finished={"type": "array", "items": SEAT, "description": "Seats that played their final turn."},
        pending={
            "type": "array",
            "items": PENDING,
            "description": "Choices the rules wait for, first first.",
        },
        hand={"type": "array", "items": ISLAND, "description": "The viewer's own cards; not for spectators."},
        my_face_up_choice=ISLAND,
        hands={
            "type": "array",
            "items": {"type": "array", "items": ISLAND},
            "description": "After the end with the log revealed: every seat's hand.",
        },
    )


HANDICAP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["seat"],
    "properties": {
        "seat": {"type": "integer", "enum": [0, 1]},
        "free_bridges": {"type": "integer", "minimum": 0, "maximum": 3},
        "extra_cards": {"type": "integer", "minimum": 0, "maximum": 2},
        "hand_limit": {"type": "integer", "enum": [5, 6]},
    },
    "description": "I-8: what the weaker seat receives.",
}
OPTIONS: dict[str, JsonSchema] = {
    "kahuna": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"edition": {"type": "string", "enum": list(KAHUNA_EDITIONS)}},
    },
    "arabana-ikibiti": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"seafarers": {"type": "boolean"}, "handicap": HANDICAP},
    },
    "arabana-opodopo": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"gods": {"type": "boolean"}},
    },
}


def schemas_for(game: str) -> GameSchemas:
    """What `game` sends and shows: only the commands some variant of it knows."""
    known: set[str] = set()
    for options in _variants(game):
        rules = ruleset_for(game, options)
        known |= set(seat_commands(rules)) | answer_commands(rules)
    return GameSchemas(
        commands={name: schema for name, schema in COMMANDS.items() if name in known},
        events=EVENTS,
        secrets=SECRETS,
        view=view_schema(OPTIONS[game]),
        options=OPTIONS[game],
        result=RESULT,
    )


def _variants(game: str) -> list[dict[str, Any]]:
    """One options mapping per switch that adds commands."""
    if game == "arabana-ikibiti":
        return [{"seafarers": True, "handicap": {"seat": 0, "free_bridges": 1}}]
    if game == "arabana-opodopo":
        return [{"gods": True}]
    return [{"edition": edition} for edition in KAHUNA_EDITIONS]
