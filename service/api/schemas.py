"""Marshmallow schemas, one per request and response body; OpenAPI is generated from them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import (
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    post_dump,
    post_load,
    validate,
    validates_schema,
)

from ai.policies import KINDS as AI_KINDS
from ai.policies import LEVELS as AI_LEVELS
from domain.games import GAMES
from domain.text import NOT_BLANK, is_blank
from domain.undo import SCOPES
from service.api.deal_schemas import DealReportSchema, entropy_field
from service.api.finish_schemas import EndingSchema, FinishSchema
from service.api.move_clock_schemas import move_clock_field, move_time_field
from service.api.receipt_schemas import ReceiptSchema
from service.api.remembered_dumps import RememberedNested
from service.api.seat_key_schemas import PublicKeySchema

MODES = ("casual", "tournament")
DEFAULT_AI_LEVEL = 2
# Bounds of the request fields, in the OpenAPI document as the server enforces them. They
# are outer bounds only: the rules refuse, naming what is allowed, what lies within them.
MAX_SEATS = 8
MAX_NAME = 64
MAX_OPTIONS = 16
MAX_TOKEN = 32
"""An island name, a command type or an option: none is longer."""
MAX_CARDS = 16
MAX_PIECES = 64
"""No board game's view numbers more pieces."""
MAX_COORDINATE = 64
"""A cell's coordinates lie within this of 0 on any board; the rules say which cells exist."""
MAX_VERSION = 10**9
"""No game holds a billion events; larger numbers are refused before they reach the rules."""
MAX_HEX = 63
MAX_PATH = 4
MAX_STACK = 99
MAX_PIECE_KINDS = 8
MAX_BUILD_ORDERS = 40
"""Conquest of Paradise: a map coordinate, hexes in one move, pieces of a kind, piece kinds,
build orders in one EndBuild."""


class StrictBoolean(fields.Boolean):
    """true or false only: marshmallow's Boolean also takes "no", "off" or 0, and a client
    that sends "no" for false must not get true."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _not_blank(text: str) -> None:
    if is_blank(text):
        raise ValidationError("must not be blank")


def _name(**kwargs: Any) -> fields.String:
    """A person's name: 1-64 characters, not all blank."""
    metadata = {"pattern": NOT_BLANK, **kwargs.pop("metadata", {})}
    return fields.String(
        validate=[validate.Length(min=1, max=MAX_NAME), _not_blank], metadata=metadata, **kwargs
    )


def at_most_keys(count: int) -> Any:
    """A validator of a mapping's size: at most `count` entries."""

    def check(mapping: Mapping[str, Any]) -> None:
        if len(mapping) > count:
            raise ValidationError(f"at most {count} entries")

    return check


class RegisteredGame(validate.OneOf):
    """One of the games registered when the request comes (domain.games.register_game), not
    those known when this module was imported; the OpenAPI document lists them the same way."""

    def __init__(self) -> None:
        super().__init__(())

    @property  # type: ignore[override]
    def choices(self) -> list[str]:
        return sorted(GAMES)

    @choices.setter
    def choices(self, value: Any) -> None:
        pass

    @property
    def choices_text(self) -> str:
        return ", ".join(self.choices)

    @choices_text.setter
    def choices_text(self, value: Any) -> None:
        pass


def _word(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(max=MAX_TOKEN), **kwargs)


class PieceField(fields.Field[Any]):
    """A piece: its number in the view (Nanuuk!) or its kind (Conquest of Paradise); the game's
    rules say which they take."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, bool):
            raise ValidationError("must be a piece number or a piece kind")
        if isinstance(value, int):
            if not 0 <= value < MAX_PIECES:
                raise ValidationError(f"a piece number lies from 0 to {MAX_PIECES - 1}")
            return value
        if isinstance(value, str):
            if len(value) > MAX_TOKEN:
                raise ValidationError(f"a piece kind has at most {MAX_TOKEN} characters")
            return value
        raise ValidationError("must be a piece number or a piece kind")


class SetOutField(fields.Field[Any]):
    """Where a move sets out from: a sea space as its three islands (ships: MoveShip) or a hex as
    [column, row] (Conquest of Paradise: Explore); the game's rules say which they take."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if isinstance(value, list) and len(value) == 3 and all(_is_word(v) for v in value):
            return value
        if isinstance(value, list) and len(value) == 2 and all(_is_coordinate(v) for v in value):
            return value
        raise ValidationError("must be a sea space's three island names or a hex [column, row]")

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


def _is_word(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TOKEN


def _is_coordinate(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_COORDINATE


class OpenSchema(Schema):
    """Dumps its declared fields and passes any other key of the dumped mapping through.

    For what the rules build (views, legal commands): the rules decide what a viewer may
    see, and a key they add must reach the client unchanged. Loading still refuses
    unknown fields.
    """

    @post_dump(pass_original=True)
    def _keep_undeclared(self, data: dict[str, Any], original: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(original, Mapping):
            return data
        declared = {f.attribute or name for name, f in self.fields.items()}
        return {**{k: v for k, v in original.items() if k not in declared}, **data}


# --- requests ------------------------------------------------------------------------


class SeatRequestSchema(Schema):
    name = _name(
        metadata={"description": "Required, except for an open seat (422 name_required without it)."}
    )
    open = StrictBoolean(
        metadata={
            "description": "An open seat: no name and no token now; the first person to take it "
            "(POST /games/{game_id}/seats/{seat}) names it and gets its token. The game's commands "
            "wait (409 seats_open) until every open seat is taken. With a name, ai, level or "
            "public_key: 422 open_seat_with_player."
        }
    )
    public_key = fields.Nested(
        PublicKeySchema,
        metadata={
            "description": "The seat's public key: its commands are signed from the start (the "
            "Archipelago-Signature header). Not for a computer seat (422 key_for_computer)."
        },
    )
    ai = fields.String(
        validate=validate.OneOf(AI_KINDS),
        metadata={"description": "A computer seat: random, greedy or ismcts. It gets no token."},
    )
    level = fields.Integer(
        strict=True,
        validate=validate.Range(min=min(AI_LEVELS), max=max(AI_LEVELS)),
        metadata={
            "description": "A computer seat's strength 1-5 (ismcts: 0.1-5 s per command); default 2. "
            "Only with ai (else 422 level_needs_ai)."
        },
    )

    @post_load
    def _default_level(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if "ai" in data:
            data.setdefault("level", DEFAULT_AI_LEVEL)
        return data


class CreateGameSchema(Schema):
    """POST /games. The seat count, first seat and options are checked by the game's rules."""

    game = fields.String(required=True, validate=RegisteredGame())
    seats = fields.List(
        fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(max=MAX_SEATS)
    )
    first_seat = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "Who starts; drawn at random when absent."},
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=MAX_TOKEN)),
        load_default=dict,
        validate=at_most_keys(MAX_OPTIONS),
        metadata={
            "description": 'Game options, e.g. {"edition": "original"} for kahuna.',
            "maxProperties": MAX_OPTIONS,
        },
    )
    mode = fields.String(load_default="casual", validate=validate.OneOf(MODES))
    reveal_after_end = StrictBoolean(
        load_default=True,
        metadata={"description": "Open the whole log, hidden cards included, once the game ends."},
    )
    organizer = _name(
        metadata={
            "description": "Tournament games only (else 422 organizer_needs_tournament): the "
            "organizer's name, recorded in corrections."
        },
    )
    entropy = entropy_field(
        "Optional: 16 to 64 random bytes of the creator's own, as lowercase hex, mixed into "
        "every draw of the game (the first seat's lot and the first deal included)."
    )
    move_time = move_time_field()


def declared_command_fields() -> set[str]:
    """Every field a registered game's commands may carry (GameModule.command_fields, schemas)."""
    names: set[str] = set()
    for game in GAMES.values():
        names.update(game.command_fields)
        for body in game.schemas.commands.values():
            names.update(body.get("properties", {}))
    return names


def _passengers(description: str) -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.Length(max=MAX_TOKEN)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_STACK)),
        validate=at_most_keys(MAX_PIECE_KINDS),
        metadata={"description": description, "maxProperties": MAX_PIECE_KINDS},
    )


class StopSchema(Schema):
    """Conquest of Paradise: a halt on a Move's way (P-3.3); which pieces may go ashore or
    aboard there the rules say."""

    at = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=1, max=MAX_PATH - 2),
        metadata={"description": "The hex's index in the path, neither its first nor its last."},
    )
    drop = _passengers("Bands and colonies put ashore there, by kind.")
    take = _passengers("Bands and colonies taken aboard there, by kind.")


class BuildOrderSchema(Schema):
    """Conquest of Paradise: one build order of an EndBuild; which fit the rules say."""

    item = _word(
        required=True,
        metadata={"description": "A piece kind, village, agriculture, card, settle, rotate or save."},
    )
    hex = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_HEX)),
        validate=validate.Length(equal=2),
        allow_none=True,
        metadata={"description": "Where, as [column, row]; none for a card, rotate or save."},
    )


class CommandSchema(OpenSchema):
    """A seat's command, as GET /games/{id}/legal lists them; which fields a type needs,
    and which types a game knows, the rules decide (unknown_command, bad_command: 422).

    The fields below are bounded here; a field only a newer game declares passes to its rules
    as sent, and a field no registered game declares is refused."""

    class Meta:
        unknown = INCLUDE

    @validates_schema(pass_original=True)
    def _declared_by_a_game(self, data: dict[str, Any], original: Any, **kwargs: Any) -> None:
        if not isinstance(original, Mapping):
            return
        declared = {f.data_key or name for name, f in self.fields.items()}
        # What the games declare is gathered only for a field this schema does not name.
        unknown = [key for key in original if key not in declared]
        if unknown:
            games_declare = declared_command_fields()
            unknown = [key for key in unknown if key not in games_declare]
        if unknown:
            raise ValidationError({key: ["Unknown field."] for key in unknown})

    type = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_TOKEN),
        metadata={"description": "e.g. PlaceBridge, RemoveBridge, DiscardCards, DrawCard"},
    )
    card = _word(metadata={"description": "An island name (PlaceBridge, DrawCard)."})
    cards = fields.List(
        _word(),
        validate=validate.Length(min=1, max=MAX_CARDS),
        metadata={"description": "Island names (RemoveBridge: two, DiscardCards: one or more)."},
    )
    line = fields.List(
        _word(),
        validate=validate.Length(equal=2),
        metadata={"description": "The two islands a bridge line joins."},
    )
    take_back = fields.List(
        _word(),
        validate=validate.Length(equal=2),
        metadata={"description": "PlaceBridge out of bridges: the line of one's own bridge it moves (O-11)."},
    )
    source = fields.String(validate=validate.OneOf(("face_up", "stack")))
    sea = fields.List(
        _word(),
        validate=validate.Length(equal=3),
        metadata={"description": "The three islands around a sea space (ships)."},
    )
    from_ = SetOutField(
        data_key="from",
        attribute="from",
        metadata={
            "description": "A sea space's three islands (MoveShip) or a hex [column, row] (Explore).",
            "oneOf": [
                {
                    "type": "array",
                    "items": {"type": "string", "maxLength": MAX_TOKEN},
                    "minItems": 3,
                    "maxItems": 3,
                },
                {
                    "type": "array",
                    "items": {"type": "integer", "minimum": -MAX_COORDINATE, "maximum": MAX_COORDINATE},
                    "minItems": 2,
                    "maxItems": 2,
                },
            ],
        },
    )
    to = fields.List(_word(), validate=validate.Length(equal=3))
    target = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "A seat number (UseKu)."},
    )
    kanaloa = StrictBoolean(metadata={"description": "SwapBridge with the god Kanaloa."})
    piece = PieceField(
        metadata={
            "description": "Nanuuk!: a piece by its number in the game's view (0-63). "
            "Conquest of Paradise (Lose): the kind of piece that panics or is removed.",
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": MAX_PIECES - 1},
                {"type": "string", "maxLength": MAX_TOKEN},
            ],
        },
    )
    cell = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=-MAX_COORDINATE, max=MAX_COORDINATE)),
        validate=validate.Length(equal=2),
        metadata={"description": "A hexagonal cell as axial coordinates [q, r] (Nanuuk!)."},
    )
    bear = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=-MAX_COORDINATE, max=MAX_COORDINATE)),
        validate=validate.Length(equal=2),
        metadata={
            "description": "Move into a bear's cell: the free cell [q, r] the bear is chased to (Nanuuk!)."
        },
    )
    crack = fields.List(
        fields.List(
            fields.Integer(strict=True, validate=validate.Range(min=-MAX_COORDINATE, max=MAX_COORDINATE)),
            validate=validate.Length(equal=2),
        ),
        validate=validate.Length(equal=2),
        metadata={"description": "A line between two cells, [[q, r], [q, r]] (Nanuuk! PlaceCrack)."},
    )
    kayak = StrictBoolean(metadata={"description": "Move across a crack by kayak (Nanuuk!)."})
    sled = StrictBoolean(metadata={"description": "Move twice with husky and sled (Nanuuk!)."})
    one_crack = StrictBoolean(
        metadata={"description": "With sled, under the option mover_chooses: one crack at the end (Nanuuk!)."}
    )
    animal = _word(metadata={"description": "fish, seal, walrus or whale (Nanuuk! Exchange, BringIn)."})
    gifts = fields.Dict(
        keys=fields.String(validate=validate.Length(max=MAX_TOKEN)),
        values=_word(),
        validate=at_most_keys(MAX_SEATS),
        metadata={
            "description": "Seat number (as text) -> the card given to that seat.",
            "maxProperties": MAX_SEATS,
        },
    )
    # Conquest of Paradise: hexes are [column, row] of its map.
    first = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "ChooseOrder: the seat that plays first this turn."},
    )
    clockwise = StrictBoolean(metadata={"description": "ChooseOrder: the direction of play."})
    hex = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_HEX)),
        validate=validate.Length(equal=2),
        metadata={"description": "A hex as [column, row] (Explore, Fight, Build, Retreat, ...)."},
    )
    path = fields.List(
        fields.List(
            fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_HEX)),
            validate=validate.Length(equal=2),
        ),
        validate=validate.Length(min=2, max=MAX_PATH),
        metadata={"description": "Move, Transit: the hexes the pieces go through, first where they are."},
    )
    pieces = fields.Dict(
        keys=fields.String(validate=validate.Length(max=MAX_TOKEN)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_STACK)),
        validate=at_most_keys(MAX_PIECE_KINDS),
        metadata={
            "description": "Move, Transit: how many pieces of each kind.",
            "maxProperties": MAX_PIECE_KINDS,
        },
    )
    stops = fields.List(
        fields.Nested(StopSchema),
        validate=validate.Length(max=MAX_PATH - 2),
        metadata={"description": "Move: halts on the way where passengers go ashore or aboard."},
    )
    defender = fields.Integer(
        strict=True,
        validate=validate.Range(min=-1, max=MAX_SEATS - 1),
        metadata={"description": "Fight: the seat attacked (-1: an independent group)."},
    )
    use = StrictBoolean(metadata={"description": "UseCard: true plays the card, false keeps it."})
    war_canoes = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_STACK))
    bands = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_STACK))
    orders = fields.List(
        fields.Nested(BuildOrderSchema),
        validate=validate.Length(max=MAX_BUILD_ORDERS),
        metadata={"description": "EndBuild (Conquest of Paradise): all of the seat's build orders at once."},
    )
    scope = fields.String(
        validate=validate.OneOf(SCOPES),
        metadata={"description": 'Undo: "command" (the last one) or "turn" (back to its start).'},
    )
    to_version = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={"description": "RequestTakeback: the version whose state the game goes back to."},
    )
    accept = StrictBoolean(metadata={"description": "AnswerTakeback: true accepts, false declines."})


class UndoSchema(Schema):
    """POST /games/{id}/undo: take back one's own commands of the current turn."""

    scope = fields.String(
        load_default="command",
        validate=validate.OneOf(SCOPES),
        metadata={
            "description": '"command": back to before your last command of this turn (the '
            'default); "turn": back to the start of your turn.'
        },
    )


class TakebackRequestSchema(Schema):
    """POST /games/{id}/takebacks: ask the other seats to go back to a version."""

    to_version = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={"description": "The game goes back to the state after this version."},
    )


class TakebackAnswerSchema(Schema):
    """POST /games/{id}/takebacks/current: accept or decline the pending takeback."""

    accept = StrictBoolean(required=True)


class CorrectionSchema(Schema):
    """POST /games/{id}/corrections: the organizer sets a tournament game back, saying why."""

    to_version = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={"description": "The game goes back to the state after this version."},
    )
    reason = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=1000), _not_blank],
        metadata={"description": "Why: recorded in the Corrected event for the audit.", "pattern": NOT_BLANK},
    )


class AfterSchema(Schema):
    """?after=N: only events with a version above N."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0))


# --- responses -----------------------------------------------------------------------


class SeatTokenSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(
        metadata={"description": "The seat's bearer token, shown only once; none for a computer seat."}
    )
    ai = fields.String(metadata={"description": "A computer seat's player: random, greedy or ismcts."})
    level = fields.Integer()
    open = fields.Boolean(
        metadata={
            "description": "An open seat: no token until someone takes it "
            "(POST /games/{game_id}/seats/{seat})."
        }
    )


class CreatedSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatTokenSchema))
    organizer_token = fields.String(
        metadata={"description": "Tournament games: the organizer's bearer token, shown only once."}
    )


class TakebackSchema(Schema):
    """A takeback request waiting for the other seats' answers."""

    requested_by = fields.Integer(metadata={"description": "The seat that asked."})
    to_version = fields.Integer(metadata={"description": "The version the game would go back to."})
    version = fields.Integer(metadata={"description": "The version of the request."})
    accepted_by = fields.List(fields.Integer())
    waiting_for = fields.List(fields.Integer(), metadata={"description": "Seats yet to answer."})


class UndoPolicySchema(Schema):
    """The parts of the undo policy (docs/undo.md) that differ from game to game."""

    takeback_across_reveal = fields.Boolean(
        metadata={
            "description": "True in practice against the computer (a casual game whose other seats "
            "are all computer players): the person takes their own moves back across reveals."
        }
    )


class CurrentTakebackSchema(Schema):
    version = fields.Integer()
    takeback = fields.Nested(TakebackSchema, allow_none=True)


class ChainBrokenSchema(Schema):
    """Where the game's stored hash chain breaks; GET /games/{game_id}/verify tells more."""

    version = fields.Integer(
        metadata={
            "description": "The first event whose hash or link is wrong: the view shows the "
            "game before it, and the game takes no command (409 chain_broken)."
        }
    )


class GameViewSchema(OpenSchema):
    """The keys the platform adds to the rules' view of a game; the rest passes through as the
    rules give it, and the document types it per game (service/api/game_components.py)."""

    class Meta:
        description = "The game as one viewer may see it."

    game_id = fields.String()
    version = fields.Integer(metadata={"description": "The version shown (?at=N: N)."})
    latest_version = fields.Integer(metadata={"description": "With ?at=N: the game's current version."})
    game = fields.String()
    takeback = fields.Nested(
        TakebackSchema, allow_none=True, metadata={"description": "The pending takeback, if any."}
    )
    undo = fields.Nested(UndoPolicySchema, metadata={"description": "What this game's undo policy allows."})
    chain_broken = fields.Nested(
        ChainBrokenSchema,
        allow_none=True,
        metadata={"description": "null while every stored event's hash and link hold."},
    )
    ending = fields.Nested(EndingSchema, allow_none=True, metadata={"description": "null while in play."})
    move_clock = move_clock_field()
    finish = fields.Nested(
        FinishSchema, metadata={"description": "What your seat may do to end the game now."}
    )


class LegalSchema(Schema):
    version = fields.Integer()
    commands = fields.List(RememberedNested(CommandSchema))


class EventSchema(Schema):
    """An event as one viewer may see it: `secret` is null and `redacted` true when hidden.

    Every field the hash covers is here, so any viewer can recompute the chain."""

    version = fields.Integer()
    type = fields.String()
    schema = fields.Integer()
    data = fields.Dict()
    secret = fields.Dict(allow_none=True)
    redacted = fields.Boolean()
    secret_digest = fields.String(
        metadata={"description": "sha256(salt ‖ canonical JSON of the secret), hex; shown even when redacted"}
    )
    salt = fields.String(
        metadata={"description": "the secret's 32 random bytes in hex; only beside a readable secret"}
    )
    audience = fields.List(fields.Integer())
    actor = fields.String()
    command_id = fields.String()
    event_id = fields.String()
    at = fields.String()
    prev_hash = fields.String()
    hash = fields.String()
    command = fields.Dict(
        metadata={
            "description": "On the first event of each command: the command that caused the events "
            "from here to the next command, {type, seat, args}; `args` is absent when hidden "
            "(in command_secret). Hashed."
        }
    )
    command_audience = fields.List(
        fields.Integer(),
        metadata={"description": "The seats that may read the command's hidden part. Hashed."},
    )
    command_digest = fields.String(
        metadata={
            "description": "sha256(command_salt ‖ canonical JSON of command_secret), hex; empty when "
            "the command hides nothing. Hashed."
        }
    )
    command_secret = fields.Dict(
        allow_none=True,
        metadata={"description": "The command's hidden part, {args}; null when withheld from this viewer"},
    )
    command_salt = fields.String(
        metadata={"description": "The hidden part's 32 random bytes in hex; only beside a readable one"}
    )
    command_redacted = fields.Boolean()


class EventsSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))


class ExecutedSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    duplicate = fields.Boolean(
        metadata={"description": "true when an Idempotency-Key replay returned the first answer"}
    )
    receipt = fields.Nested(ReceiptSchema, required=True)


class HealthSchema(Schema):
    status = fields.String(metadata={"description": "ok: this process answers (and, on /health, Redis)."})
    store = fields.String(
        validate=validate.OneOf(["ok", "full", "read_only"]),
        metadata={
            "description": "/health only: whether the store takes writes now. ok; full: Redis refuses "
            "writes for want of memory (maxmemory) or disk (a failed AOF write or save, MISCONF); "
            "read_only: Redis is a replica. Reads are served in every case; commands are answered "
            "503 store_unavailable until it is ok again. A store loading its data or out of reach "
            "is a 503 problem whose `store` says loading or unreachable."
        },
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details, with the stable machine `code` of the refusal."""

    class Meta:
        description = (
            "RFC 9457 problem details with a stable `code`; some refusals add members of "
            "their own (e.g. `version`, `line`)."
        )

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    code = fields.String()
    detail = fields.String()
    errors = fields.Dict(metadata={"description": "Field name -> messages, for invalid input."})
    store = fields.String(
        validate=validate.OneOf(["full", "read_only", "loading", "unreachable"]),
        metadata={
            "description": "store_unavailable only: why the store refused (full: out of memory or "
            "disk; read_only: a replica; loading: loading its data; unreachable: no answer)."
        },
    )


# --- replays, export/import, annotations (service/api/replays.py) ---------------------


class AtSchema(Schema):
    """?at=N: the game as it was at version N (1..the current version)."""

    at = fields.Integer(
        metadata={"description": "A version 1..current; absent: the current one.", "minimum": 1}
    )


class ReplayStepSchema(Schema):
    version = fields.Integer(metadata={"description": "The last version the command appended."})
    first_version = fields.Integer(metadata={"description": "The first version it appended."})
    actor = fields.String(metadata={"description": "seat:N, system, worker or organizer"})
    at = fields.String()
    types = fields.List(fields.String(), metadata={"description": "The event types, in order."})
    description = fields.String(
        metadata={"description": "In words, as this viewer may know it (no withheld secret)."}
    )


class AnnotationSchema(Schema):
    """One annotation: a comment, a move mark or highlighted islands/lines on a version."""

    id = fields.String(metadata={"description": "Its id in the game's annotation stream."})
    layer = fields.String(metadata={"description": "The author's name: one layer per author."})
    author_kind = fields.String(metadata={"description": "seat, guest or analysis"})
    seat = fields.Integer(metadata={"description": "The author's seat (seat authors only)."})
    version = fields.Integer(metadata={"description": "The version it is attached to (0..)."})
    kind = fields.String(metadata={"description": "comment, mark or highlight"})
    text = fields.String()
    mark = fields.String(metadata={"description": "! ? !! ?? !? ?!"})
    islands = fields.List(fields.String())
    lines = fields.List(fields.List(fields.String()))
    audience = fields.List(
        fields.Integer(),
        metadata={
            "description": "The seats that may read it, when it was computed from hidden information "
            "(the analysis); everyone once the game's log is revealed."
        },
    )
    at = fields.String(metadata={"description": "When it was written (UTC)."})


class ReplaySchema(Schema):
    version = fields.Integer()
    steps = fields.List(fields.Nested(ReplayStepSchema))
    annotations = fields.List(fields.Nested(AnnotationSchema))


class AnnotationRequestSchema(Schema):
    """POST /games/{id}/annotations. With a seat's token the layer is that seat's name;
    without one, `author` names the layer (the game must have ended)."""

    version = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "The version annotated: 0..the current one."},
    )
    kind = fields.String(required=True, validate=validate.OneOf(("comment", "mark", "highlight")))
    text = fields.String(validate=validate.Length(min=1, max=2000))
    mark = fields.String(validate=validate.OneOf(("!", "?", "!!", "??", "!?", "?!")))
    islands = fields.List(_word(), validate=validate.Length(min=1, max=64))
    lines = fields.List(
        fields.List(_word(), validate=validate.Length(equal=2)),
        validate=validate.Length(min=1, max=64),
        metadata={"description": "Bridge lines, each the pair of islands it joins."},
    )
    author = fields.String(
        validate=[validate.Length(min=1, max=60), _not_blank],
        metadata={
            "description": "Without a token: the author's name (1-60 characters, not all blank).",
            "pattern": NOT_BLANK,
        },
    )
    author_kind = fields.String(
        load_default="guest",
        validate=validate.OneOf(("guest", "analysis")),
        metadata={"description": "Without a token: guest (default) or analysis (a program's layer)."},
    )


class LayerSchema(Schema):
    """?layer=Name: only the annotations of that author."""

    layer = fields.String(validate=validate.Length(min=1, max=64))


class AnnotationsSchema(Schema):
    version = fields.Integer()
    annotations = fields.List(fields.Nested(AnnotationSchema))


class ImportRequestSchema(Schema):
    """POST /games/import as JSON: the game file's text in `jsonl`."""

    jsonl = fields.String(required=True, validate=validate.Length(min=1))


class ImportedSchema(Schema):
    game_id = fields.String()
    archived = fields.Boolean()
    version = fields.Integer()


class RefereeSchema(Schema):
    """The referee replay: every stored command run through the rules from the state before it."""

    ok = fields.Boolean(metadata={"description": "Whether no command was found at fault."})
    status = fields.String(
        validate=validate.OneOf(["refereed", "partial", "not_recorded", "fault"]),
        metadata={
            "description": "refereed: every event was; partial: from unchecked_from on it was not; "
            "not_recorded: the game was stored before commands were, its events only fold; "
            "fault: first_fault names the command."
        },
    )
    commands = fields.Integer(metadata={"description": "The commands the record holds."})
    checked = fields.Integer(metadata={"description": "The commands run through the rules."})
    first_fault = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The version of the first event of the first command at fault; null when none is."
        },
    )
    fault = fields.String(metadata={"description": "What is wrong with that command; empty when none is."})
    recorded_from = fields.Integer(
        allow_none=True,
        metadata={"description": "The first version that records a command; null when none does."},
    )
    unchecked_from = fields.Integer(
        allow_none=True, metadata={"description": "The first version not refereed; null when every one was."}
    )
    unchecked = fields.String(metadata={"description": "Why those versions were not refereed."})


class VerifySchema(Schema):
    """The check of the game's hash chain, event by event, as the store holds it now, and the
    referee replay of its commands."""

    game_id = fields.String()
    ok = fields.Boolean(
        metadata={
            "description": "Whether every hash and every link holds, the referee finds no fault, "
            "and (once the seed is revealed) every chance event is what the seed draws."
        }
    )
    first_bad_version = fields.Integer(
        allow_none=True, metadata={"description": "The first event that fails; null when ok."}
    )
    version = fields.Integer(metadata={"description": "The newest stored event."})
    archived = fields.Boolean(metadata={"description": "Whether the game was imported from a file."})
    deal = fields.Nested(
        DealReportSchema,
        metadata={"description": "The deal's check: every chance event redrawn from the revealed seed."},
    )
    referee = fields.Nested(
        RefereeSchema,
        allow_none=True,
        metadata={"description": "The referee replay of the stored commands; null when the chain breaks."},
    )
    chain_truncated = fields.Nested(
        "ChainTruncatedSchema",
        allow_none=True,
        metadata={
            "description": "Set when the stream lost its tail; first_bad_version is then the first "
            "missing event."
        },
    )


class ChainTruncatedSchema(Schema):
    """A stream that ends before the last event its store's head vouches for (chain_truncated)."""

    stored_version = fields.Integer(
        required=True, metadata={"description": "The last event the stream still holds."}
    )
    vouched_version = fields.Integer(
        required=True,
        metadata={"description": "The last event the head written by every append vouches for."},
    )
