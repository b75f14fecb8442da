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

What pairing programs read besides (JaVaFo's TRF(x) and bbpPairings' TRF(bx) lines): "XXR"
the number of rounds planned, "XXC white1" (pairing number 1 had white in round 1), and the
point system when it is not 1 / 1/2 / 0, both as JaVaFo's "XXS" codes and as bbpPairings'
"BBW BBD BBL BBZ BBF BBU" lines; such programs check every player's points against it.
read_trf reads all of it back: write_trf(read_trf(text)) == text for every text write_trf wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

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
class PointSystem:
    """Points per result: a played win, draw and loss, a forfeit loss (a forfeit win scores a
    win), the pairing-allocated bye (U), the full-, half- and zero-point byes (F, H, Z)."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    forfeit_loss: float = 0.0
    pairing_bye: float = 1.0
    full_bye: float = 1.0
    half_bye: float = 0.5
    zero_bye: float = 0.0

    def points(self, result: str) -> float:
        """What one round's result code scores."""
        return {
            "1": self.win,
            "W": self.win,
            "+": self.win,
            "=": self.draw,
            "D": self.draw,
            "0": self.loss,
            "L": self.loss,
            "-": self.forfeit_loss,
            "U": self.pairing_bye,
            "F": self.full_bye,
            "H": self.half_bye,
            "Z": self.zero_bye,
        }[result]


STANDARD = PointSystem()
# JaVaFo's XXS codes for each field of PointSystem (a forfeit win, FW, scores a win).
XXS_CODES = {
    "win": ("WW", "BW", "FW"),
    "draw": ("WD", "BD"),
    "loss": ("WL", "BL"),
    "forfeit_loss": ("FL",),
    "pairing_bye": ("PAB",),
    "full_bye": ("FPB",),
    "half_bye": ("HPB",),
    "zero_bye": ("ZPB",),
}
# bbpPairings' lines; its zero-point bye (BBZ) also scores an absence.
BB_CODES = {
    "win": "BBW",
    "draw": "BBD",
    "loss": "BBL",
    "zero_bye": "BBZ",
    "forfeit_loss": "BBF",
    "pairing_bye": "BBU",
}


@dataclass(frozen=True)
class TrfTournament:
    """The header lines (012 name, 022 city, 042/052 dates, 062 players, 132 round dates), the
    rounds planned (XXR), the point system and whether pairing number 1 had white (XXC white1)."""

    name: str
    players: tuple[TrfPlayer, ...]
    city: str = ""
    federation: str = ""
    start: date | None = None
    end: date | None = None
    arbiter: str = ""
    round_dates: tuple[date, ...] = ()
    rounds: int | None = None
    points: PointSystem = field(default=STANDARD)
    white1: bool = False


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
    if t.rounds is not None:
        lines.append(f"XXR {t.rounds}")
    if t.white1:
        lines.append("XXC white1")
    if t.points != STANDARD:
        lines.append("XXS " + " ".join(_xxs(t.points)))
        lines += [f"{code} {getattr(t.points, name):>4.1f}" for name, code in BB_CODES.items()]
    return lines


def _xxs(points: PointSystem) -> list[str]:
    return [f"{code}={_figure(getattr(points, name))}" for name, codes in XXS_CODES.items() for code in codes]


def _figure(value: float) -> str:
    return f"{value:g}"


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


def read_trf(text: str) -> TrfTournament:
    """The tournament a TRF-16 text describes (the lines write_trf writes; others are skipped).

    ValueError names the line that does not read.
    """
    header: dict[str, str] = {}
    players: list[TrfPlayer] = []
    round_dates: tuple[date, ...] = ()
    rounds: int | None = None
    white1 = False
    points: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        code, value = line[:3], line[4:]
        try:
            if code == "001":
                players.append(_read_player(line))
            elif code == "132":
                round_dates = tuple(_date(line[c - 1 : c + 7], "%y/%m/%d") for c in _round_columns(line))
            elif code == "XXR":
                rounds = int(value)
            elif code == "XXC":
                white1 = "white1" in value.split()
            elif code == "XXS":
                points.update(_read_xxs(value))
            elif code in ("012", "022", "032", "042", "052", "102"):
                header[code] = value
        except (ValueError, KeyError, IndexError) as error:
            raise ValueError(f"line {number} does not read as TRF-16: {line!r} ({error})") from error
    return TrfTournament(
        name=header.get("012", ""),
        players=tuple(players),
        city=header.get("022", ""),
        federation=header.get("032", ""),
        start=_date(header["042"], "%Y/%m/%d") if "042" in header else None,
        end=_date(header["052"], "%Y/%m/%d") if "052" in header else None,
        arbiter=header.get("102", ""),
        round_dates=round_dates,
        rounds=rounds,
        points=PointSystem(**points),
        white1=white1,
    )


def _read_xxs(value: str) -> dict[str, float]:
    by_code = {code: name for name, codes in XXS_CODES.items() for code in codes}
    read: dict[str, float] = {}
    for item in value.split():
        code, figure = item.split("=")
        read[by_code[code]] = float(figure)
    return read


def _read_player(line: str) -> TrfPlayer:
    def col(first: int, last: int) -> str:
        return line[first - 1 : last].strip()

    games = []
    for column in _round_columns(line):
        opponent = int(line[column - 1 : column + 3])
        games.append(TrfGame(opponent or None, line[column + 4], line[column + 6]))
    birth = col(70, 79)
    return TrfPlayer(
        number=int(col(5, 8)),
        name=col(15, 47),
        points=float(col(81, 84)),
        rank=int(col(86, 89)),
        games=tuple(games),
        sex=col(10, 10),
        title=col(11, 13),
        rating=int(col(49, 52) or 0),
        federation=col(54, 56),
        fide_id=col(58, 68),
        birth=_date(birth, "%Y/%m/%d") if birth else None,
    )


def _round_columns(line: str) -> list[int]:
    """The first column of each round the line fills."""
    return list(range(ROUNDS_FROM, len(line) + 1, 10))


def _date(text: str, pattern: str) -> date:
    return datetime.strptime(text.strip(), pattern).date()


def score_mismatches(tournament: TrfTournament) -> list[int]:
    """The start numbers whose points differ from what their results score by the point system."""
    return [
        p.number
        for p in tournament.players
        if abs(sum(tournament.points.points(g.result) for g in p.games) - p.points) > 1e-9
    ]
