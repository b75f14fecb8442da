"""FIDE TRF-16 report of a Swiss tournament: plain data in, text out.

The Tournament Report File is the fixed-column text FIDE takes for rating and pairing
programs read. Header lines carry a three-digit code and their value from column 5
(012 name, 022 city, 032 federation, 042/052 start and end as YYYY/MM/DD, 062 the number
of players, 102 the chief arbiter, 132 the round dates as YY/MM/DD at columns 92-99,
102-109, ...). Each player is one "001" line:

    1-3 "001"   5-8 start number   10 sex   11-13 title   15-47 name   49-52 rating
    54-56 federation   58-68 FIDE number   70-79 birth date   81-84 points   86-89 rank

then ten columns per round from column 92: the opponent's start number (92-95, "0000"
for none), the colour (97: w, b, or - for no game) and the result (99). The first seat
is white. A pairing-allocated bye is "0000 - U". Columns are 1-based, as in the spec.
Header lines without a value are left out; lines end with "\\n" and no trailing blanks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

COLOURS = ("w", "b", "-")
RESULTS = ("1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z")
ROUNDS_FROM = 92  # the column where round 1 starts; each round takes ten


@dataclass(frozen=True)
class TrfGame:
    """One round of one player: opponent's start number (None: no opponent), colour, result.

    colour: "w" (first seat), "b" (second seat) or "-" (no game); result: "1", "0", "=",
    "+" (won by forfeit), "-" (lost by forfeit), "U" (pairing-allocated bye), "H", "F", "Z"
    (half-point, full-point and zero-point byes), "W", "D", "L" (unrated games).
    """

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True)
class TrfPlayer:
    """A player line ("001"): start number, name, points, rank and one TrfGame per round."""

    number: int
    name: str
    points: float
    rank: int
    games: tuple[TrfGame, ...] = ()
    sex: str = ""
    title: str = ""
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    birth: date | None = None


@dataclass(frozen=True)
class TrfTournament:
    """The header lines (012 name, 022 city, 042/052 dates, 062 players, 132 round dates)."""

    name: str
    players: tuple[TrfPlayer, ...]
    city: str = ""
    federation: str = ""
    start: date | None = None
    end: date | None = None
    arbiter: str = ""
    round_dates: tuple[date, ...] = ()


def write_trf(tournament: TrfTournament) -> str:
    """The tournament as TRF-16 text, one line per record, "\\n" line ends."""
    numbers = {p.number for p in tournament.players}
    if len(numbers) != len(tournament.players):
        raise ValueError("two players share a start number")
    lines = _header(tournament)
    for player in sorted(tournament.players, key=lambda p: p.number):
        lines.append(_player_line(player, numbers))
    return "".join(line.rstrip() + "\n" for line in lines)


def _header(t: TrfTournament) -> list[str]:
    values = [
        ("012", t.name),
        ("022", t.city),
        ("032", t.federation),
        ("042", t.start.strftime("%Y/%m/%d") if t.start else ""),
        ("052", t.end.strftime("%Y/%m/%d") if t.end else ""),
        ("062", str(len(t.players))),
        ("102", t.arbiter),
    ]
    lines = [f"{code} {value}" for code, value in values if value]
    if t.round_dates:
        line = _Line("132")
        for i, day in enumerate(t.round_dates):
            line.put(ROUNDS_FROM + 10 * i, day.strftime("%y/%m/%d"))
        lines.append(line.text())
    return lines


def _player_line(p: TrfPlayer, numbers: set[int]) -> str:
    if not 1 <= p.number <= 9999 or not 0 <= p.rank <= 9999:
        raise ValueError(f"start number and rank have four digits: {p.number}, {p.rank}")
    if not 0 <= p.points < 100 or round(p.points, 1) != p.points:
        raise ValueError(f"points are written as 99.9: {p.points}")
    line = _Line("001")
    line.put(5, f"{p.number:>4}")
    line.put(10, p.sex[:1])
    line.put(11, f"{p.title[:3]:>3}")
    line.put(15, p.name[:33])
    line.put(49, f"{p.rating:>4}" if p.rating else "")
    line.put(54, p.federation[:3])
    line.put(58, f"{p.fide_id[:11]:>11}")
    line.put(70, p.birth.strftime("%Y/%m/%d") if p.birth else "")
    line.put(81, f"{p.points:>4.1f}")
    line.put(86, f"{p.rank:>4}")
    for i, game in enumerate(p.games):
        _check(game, p.number, numbers)
        column = ROUNDS_FROM + 10 * i
        line.put(column, f"{game.opponent or 0:04d}")
        line.put(column + 5, game.colour)
        line.put(column + 7, game.result)
    return line.text()


def _check(game: TrfGame, player: int, numbers: set[int]) -> None:
    if game.colour not in COLOURS or game.result not in RESULTS:
        raise ValueError(f"player {player}: no TRF colour and result {game.colour!r} {game.result!r}")
    if game.opponent is not None and (game.opponent not in numbers or game.opponent == player):
        raise ValueError(f"player {player}: no opponent {game.opponent}")
    if (game.opponent is None) != (game.colour == "-"):
        raise ValueError(f"player {player}: a colour needs an opponent and an opponent a colour")


class _Line:
    """A line built by 1-based columns, as the spec counts them."""

    def __init__(self, code: str) -> None:
        self._chars = list(code)

    def put(self, column: int, text: str) -> None:
        end = column - 1 + len(text)
        self._chars.extend(" " * (end - len(self._chars)))
        self._chars[column - 1 : end] = text

    def text(self) -> str:
        return "".join(self._chars)
