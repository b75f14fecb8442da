"""A tournament's settings: read once from the create request, kept in TournamentCreated.

The game and its options are checked through the game registry (domain.games), so this
package never imports a game family. The scoring scheme follows from the game's declaration
(`two_seat_scoring`: I-9 for Arabana-Ikibiti, 3:1 / 2:2 for the other 2-player games) and
placement points at tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import Event, IllegalMove
from domain.game_module import GameModule
from domain.games import rules_for

ROUND_ROBIN, SWISS, TABLES = "round_robin", "swiss", "tables"
FORMATS = (ROUND_ROBIN, SWISS, TABLES)
I9, WIN_DRAW, PLACEMENT = "i9", "win_draw", "placement"
TABLE_SIZES = (4, 3)
# The same points for a win at either size and the same mean per seat (3): a seat's luck of
# the draw between a table of 3 and one of 4 neither helps nor hurts it.
DEFAULT_PLACEMENT = {4: (6, 4, 2, 0), 3: (6, 3, 0)}
MAX_ROUNDS = 50
MAX_TIME_LIMIT = 7 * 24 * 3600
KEYS = frozenset(
    {
        "name",
        "game",
        "options",
        "format",
        "rounds",
        "double",
        "rated",
        "move_time_limit",
        "late_entry",
        "placement_points",
        "pairing_numbers",
        "signed_moves",
    }
)
LOTS, RATINGS = "lots", "ratings"
PAIRING_NUMBERS = (LOTS, RATINGS)


@dataclass(frozen=True)
class Settings:
    """What the organizer chose at creation, with the defaults filled in."""

    name: str
    game: str
    options: Mapping[str, Any]
    format: str
    rounds: int | None  # None for a round robin: its tables fix the count at the start
    double: bool
    rated: bool
    move_time_limit: int | None  # seconds a seat may take over one move
    late_entry: bool
    placement_points: Mapping[int, tuple[int, ...]]  # table size -> points by place
    scoring: str
    table_sizes: tuple[int, ...]
    pairing_numbers: str = LOTS  # a Swiss's pairing numbers: by the lots, or by rating then lot
    # Person entrants register a public key, and every move of theirs is signed (record.seat_keys).
    signed_moves: bool = False

    def to_data(self) -> dict[str, Any]:
        """The settings as TournamentCreated stores them (JSON: sizes as text keys)."""
        return {
            "name": self.name,
            "game": self.game,
            "options": dict(self.options),
            "format": self.format,
            "rounds": self.rounds,
            "double": self.double,
            "rated": self.rated,
            "move_time_limit": self.move_time_limit,
            "late_entry": self.late_entry,
            "placement_points": {str(n): list(p) for n, p in self.placement_points.items()},
            "scoring": self.scoring,
            "table_sizes": list(self.table_sizes),
            "pairing_numbers": self.pairing_numbers,
            # Only when chosen: the TournamentCreated of the others keeps its earlier shape.
            **({"signed_moves": True} if self.signed_moves else {}),
        }

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Settings:
        """The settings a TournamentCreated recorded."""
        return Settings(
            name=data["name"],
            game=data["game"],
            options=dict(data["options"]),
            format=data["format"],
            rounds=data["rounds"],
            double=data["double"],
            rated=data["rated"],
            move_time_limit=data["move_time_limit"],
            late_entry=data["late_entry"],
            placement_points={int(n): tuple(p) for n, p in data["placement_points"].items()},
            scoring=data["scoring"],
            table_sizes=tuple(data["table_sizes"]),
            pairing_numbers=data.get("pairing_numbers", LOTS),  # recorded before it existed: lots
            signed_moves=data.get("signed_moves", False),
        )


def created(request: Mapping[str, Any]) -> Event:
    """TournamentCreated for a create request; IllegalMove with a stable code for bad settings."""
    return Event("TournamentCreated", read_settings(request).to_data())


def read_settings(request: Mapping[str, Any]) -> Settings:
    unknown = sorted(set(request) - KEYS)
    if unknown:
        raise IllegalMove("unknown_setting", f"unknown settings: {unknown}", unknown[0])
    game = _text(request, "game", required=True)
    module = rules_for(game)
    options = request.get("options") or {}
    if not isinstance(options, Mapping):
        raise IllegalMove("bad_options", "options must be an object", "options")
    module.check_options(options)
    fmt = request.get("format")
    if fmt not in FORMATS:
        raise IllegalMove("bad_format", f"format must be one of {list(FORMATS)}", "format")
    sizes = _table_sizes(fmt, module.min_seats, module.max_seats, game)
    for size in sizes:
        _check_at_tables(module, options, size)
    late_entry = _flag(request, "late_entry", False)
    if fmt == ROUND_ROBIN and late_entry:
        raise IllegalMove(
            "late_entry_not_for_round_robin", "a round robin's tables are fixed at the start", "late_entry"
        )
    double = _flag(request, "double", False)
    if double and fmt != ROUND_ROBIN:
        raise IllegalMove("bad_double", "only a round robin is played double", "double")
    return Settings(
        name=_text(request, "name", required=False),
        game=game,
        options=dict(options),
        format=fmt,
        rounds=_rounds(request.get("rounds"), fmt),
        double=double,
        rated=_flag(request, "rated", True),
        move_time_limit=_time_limit(request.get("move_time_limit")),
        late_entry=late_entry,
        placement_points=_placement(request.get("placement_points"), fmt, sizes),
        scoring=PLACEMENT if fmt == TABLES else _two_seat_scoring(module),
        table_sizes=sizes,
        pairing_numbers=_pairing_numbers(request.get("pairing_numbers", LOTS), fmt),
        signed_moves=_flag(request, "signed_moves", False),
    )


def _two_seat_scoring(module: GameModule[Any]) -> str:
    """The scheme the game declares for two-seat tables; a scheme the points do not know is the
    game's mistake, refused before anything is written."""
    if module.two_seat_scoring not in (I9, WIN_DRAW):
        raise IllegalMove(
            "bad_scoring",
            f"{module.name} declares a scoring no tournament knows: {module.two_seat_scoring!r}",
        )
    return module.two_seat_scoring


def _pairing_numbers(value: Any, fmt: str) -> str:
    if value not in PAIRING_NUMBERS:
        raise IllegalMove(
            "bad_pairing_numbers", f"pairing_numbers is one of {list(PAIRING_NUMBERS)}", "pairing_numbers"
        )
    if value == RATINGS and fmt != SWISS:
        raise IllegalMove("bad_pairing_numbers", "only a Swiss pairs by rating", "pairing_numbers")
    return str(value)


def _text(request: Mapping[str, Any], key: str, required: bool) -> str:
    value = request.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 100:
        raise IllegalMove(f"bad_{key}", f"{key} must be a text of at most 100 characters", key)
    return value.strip()


def _flag(request: Mapping[str, Any], key: str, default: bool) -> bool:
    value = request.get(key, default)
    if not isinstance(value, bool):
        raise IllegalMove("bad_flag", f"{key} must be true or false", key)
    return value


def _check_at_tables(module: GameModule[Any], options: Mapping[str, Any], size: int) -> None:
    """Options that do not fit a table size are refused now, not when that table opens."""
    try:
        module.check_options_for(options, size)
    except IllegalMove as refused:
        message = f"{refused.message} (this tournament plays at tables of {size} seats)"
        raise IllegalMove(refused.code, message, refused.field) from refused


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _table_sizes(fmt: str, least: int, most: int, game: str) -> tuple[int, ...]:
    wanted = TABLE_SIZES if fmt == TABLES else (2,)
    sizes = tuple(n for n in wanted if least <= n <= most)
    if not sizes:
        raise IllegalMove("format_not_for_game", f"{game} is not played at tables of {wanted}", "format")
    return sizes


def _rounds(value: Any, fmt: str) -> int | None:
    if fmt == ROUND_ROBIN:
        if value is not None:
            raise IllegalMove("bad_rounds", "a round robin plays as many rounds as its tables", "rounds")
        return None
    if not _is_int(value) or not 1 <= value <= MAX_ROUNDS:
        raise IllegalMove("bad_rounds", f"rounds must be a whole number from 1 to {MAX_ROUNDS}", "rounds")
    return int(value)


def _time_limit(value: Any) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or not 1 <= value <= MAX_TIME_LIMIT:
        raise IllegalMove(
            "bad_time_limit", f"move_time_limit is seconds, from 1 to {MAX_TIME_LIMIT}", "move_time_limit"
        )
    return int(value)


def _placement(value: Any, fmt: str, sizes: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    if fmt != TABLES:
        if value is not None:
            raise IllegalMove("bad_placement_points", "only tables score by placement", "placement_points")
        return {}
    chosen = {n: DEFAULT_PLACEMENT[n] for n in sizes}
    if value is None:
        return chosen
    if not isinstance(value, Mapping):
        raise IllegalMove("bad_placement_points", "placement_points maps a table size to points")
    for key, points in value.items():
        size = int(key) if str(key).isdigit() else None
        if size not in sizes or not _points_by_place(points, size):
            raise IllegalMove(
                "bad_placement_points",
                f"placement_points[{key!r}]: a table size of {list(sizes)} mapped to one whole number "
                "per place, 0 or more, never rising from first to last",
                "placement_points",
            )
        chosen[int(key)] = tuple(points)
    return chosen


def _points_by_place(points: Any, size: int | None) -> bool:
    return (
        isinstance(points, list)
        and len(points) == size
        and all(_is_int(p) and 0 <= p <= 1000 for p in points)
        and all(a >= b for a, b in zip(points, points[1:], strict=False))
    )
