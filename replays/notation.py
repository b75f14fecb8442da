"""A compact, readable notation for the island games: tag pairs, then one line per turn.

    [Game "kahuna"]
    [Seat1 "Ana"]
    [Seat2 "Ben"]

    R1: deck(24) hand(Ana:ALOA,BARI,LALE) hand(Ben:?3) up(DUDA,ELAI,LALE) first(Ana)
    1. Ana: +BARI-ELAI(BARI) <ELAI ^JOJO
    2. Ben: xKAHU-LALE(LALE,LALE) ~LALE/Ana d2 <?

`format(events)` writes the events of a game (as one viewer may see them: a secret that was
withheld shows as `?`) and `parse(text)` reads the text back into the same `Record`, so
`parse(format(events)) == record(events)` and `render(parse(text)) == text`. It is a record
for reading; the JSON Lines file (replays/archive.py) stays the authoritative archive. The
grammar, in EBNF, is in docs/notation.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

# --- the model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One token of a turn line: an action of the seat, or a consequence of one.

    `seat` names another seat concerned (an owner, a target); on a consequence it is None
    when that seat is the mover. `cards` None means the token shows no card list.
    """

    kind: str
    where: tuple[str, ...] = ()
    to: tuple[str, ...] = ()
    cards: tuple[str, ...] | None = None
    count: int | None = None
    seat: str | None = None
    god: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Turn:
    """`12. Ana: <moves>`: the moves of one turn of one seat."""

    number: int
    seat: str
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class Item:
    """`key(who:args)` on a note line, e.g. hand(Ana:ALOA,BARI,COCO) or deck(24)."""

    key: str
    args: tuple[str, ...] = ()
    who: str | None = None


@dataclass(frozen=True)
class Note:
    """A line of what happens between turns: `R2:` (a deal), `R1 score:`, `end:`, `undo:`..."""

    label: str
    items: tuple[Item, ...] = ()


Line = Turn | Note


@dataclass(frozen=True)
class Record:
    tags: tuple[tuple[str, str], ...]
    lines: tuple[Line, ...]

    @property
    def turns(self) -> list[Turn]:
        return [line for line in self.lines if isinstance(line, Turn)]

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)


class NotationError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


# --- writing -----------------------------------------------------------------------------


def format(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> str:
    """The notation of a game's events, as redacted dicts ({type, data, secret?, command_id?})."""
    return render(record(events, viewer))


def render(rec: Record) -> str:
    """The text of a record: its tags, a blank line, then its lines."""
    out = [f"[{name} {_quoted(value)}]" for name, value in rec.tags]
    out.append("")
    out += [_line_text(line) for line in rec.lines]
    return "\n".join(out) + "\n"


def _line_text(line: Line) -> str:
    if isinstance(line, Turn):
        body = " ".join(move_text(m) for m in line.moves)
        return f"{line.number}. {_name(line.seat)}:" + (f" {body}" if body else "")
    body = " ".join(_item_text(i) for i in line.items)
    return f"{line.label}:" + (f" {body}" if body else "")


def _item_text(item: Item) -> str:
    who = f"{_name(item.who)}:" if item.who is not None else ""
    return f"{item.key}({who}{','.join(_atom(a) for a in item.args)})"


def move_text(m: Move) -> str:
    """One move as its token."""
    line, cards = "-".join(m.where), _cards(m.cards)
    other = f"/{_name(m.seat)}" if m.seat is not None else ""
    simple = {"skip": "skip", "end": "end", "defer": "defer"}
    if m.kind in simple:
        return simple[m.kind]
    texts = {
        "place": lambda: f"+{line}{cards}",
        "free": lambda: f"+{line}(free)",
        "remove": lambda: f"x{line}{cards}",
        "swap": lambda: f"s{line}{cards}",
        "play": lambda: cards,
        "take_back": lambda: f"-{line}{cards}",
        "ship": lambda: f"&{line}{cards}",
        "sail": lambda: f"&{line}>{'-'.join(m.to)}",
        "discard": lambda: f"d{m.count}" if m.cards is None else f"d{cards}",
        "draw": lambda: f"<{m.where[0]}",
        "stack": lambda: "<?" + (m.cards[0] if m.cards else ""),
        "refill": lambda: f"^{m.where[0]}",
        "relative": lambda: f"%{line}",
        "taken": lambda: f"={line}{_god_suffix(m)}{other}",
        "lost": lambda: f"~{line}{other}",
        "sunk": lambda: f"#{line}{other}",
        "god": lambda: f"@{m.god}{_god_target(m)}",
        "take_card": lambda: f"<{_name(m.seat or '?')}:{(m.cards or ('?',))[0]}",
        "give_card": lambda: f">{_name(m.seat or '?')}:{(m.cards or ('?',))[0]}",
    }
    return texts[m.kind]()


def _god_suffix(m: Move) -> str:
    if m.god is None:
        return ""
    return f"@{m.god}" + (f"+{m.points}" if m.points is not None else "")


def _god_target(m: Move) -> str:
    if m.seat is None:
        return ""
    shown = f":{','.join(m.cards)}" if m.cards else ""
    return f"({_name(m.seat)}{shown})"


def _cards(cards: tuple[str, ...] | None) -> str:
    return "" if cards is None else f"({','.join(cards)})"


_BARE_NAME = re.compile(r"[^\W\d][\w.'-]*")
_BARE_ATOM = re.compile(r"[\w.'+?-]+")


def _name(name: str) -> str:
    """A seat's name: bare when it is one plain word, else a JSON string."""
    return name if _BARE_NAME.fullmatch(name) else json.dumps(name, ensure_ascii=False)


def _atom(value: str) -> str:
    return value if _BARE_ATOM.fullmatch(value) else json.dumps(value, ensure_ascii=False)


def _quoted(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- from events to the record -------------------------------------------------------------

SETUP_ITEMS = frozenset(
    {
        "DeckShuffled",
        "GodsPlaced",
        "HandDealt",
        "ChoosingStarted",
        "FaceUpChosen",
        "FaceUpRevealed",
        "FaceUpLaid",
        "RoundStarted",
    }
)
TURN_ENDS = frozenset({"TurnEnded", "FinalTurnFinished", "FinalTurnDeferred"})
REWINDS = frozenset({"Undone", "Corrected"})
SILENT = frozenset({"ChoiceRequired", "ChoiceResolved", "ChoosingStarted", "RoundEnded"})


@dataclass
class _Open:
    number: int
    seat: int
    moves: list[Move] = field(default_factory=list)


@dataclass
class _Builder:
    names: list[str]
    lines: list[Line] = field(default_factory=list)
    turn: _Open | None = None
    setup: list[Item] | None = None
    setup_label: str = "R1"
    round: int = 0
    count: int = 0  # turn lines numbered so far
    resume: tuple[int, int] | None = None  # (number, seat) a seat's interrupted turn goes on with
    played: tuple[int, tuple[str, ...], bool] | None = None  # cards waiting for their action
    joker: int | None = None  # the seat that just used Kanaloa
    swapped: tuple[Any, tuple[str, ...]] | None = None  # O-4: its BridgePlaced is part of the swap
    sunk: list[Move] = field(default_factory=list)  # S-5 "placed_on": told after the new ship
    group: Any = None
    group_drew: bool = False
    at_version: dict[int, tuple[int, tuple[int, int] | None]] = field(default_factory=dict)

    def name(self, seat: Any) -> str:
        if type(seat) is int and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def other(self, seat: Any) -> str | None:
        """A consequence's seat, or None when it is the mover's."""
        return None if self.turn is not None and seat == self.turn.seat else self.name(seat)

    # lines

    def open_turn(self, seat: int) -> _Open:
        if self.turn is not None and self.turn.seat != seat:
            self.close_turn()
        if self.turn is None:
            if self.resume is not None and self.resume[1] == seat:
                number = self.resume[0]
            else:
                self.count += 1
                number = self.count
            self.resume = None
            self.turn = _Open(number, seat)
        return self.turn

    def close_turn(self, interrupted: bool = False) -> None:
        self.flush()
        if self.turn is not None:
            self.lines.append(Turn(self.turn.number, self.name(self.turn.seat), tuple(self.turn.moves)))
            self.resume = (self.turn.number, self.turn.seat) if interrupted else None
        self.turn = None

    def note(self, label: str, items: Iterable[Item]) -> None:
        self.close_turn(interrupted=True)
        self.close_setup()
        self.lines.append(Note(label, tuple(items)))

    def setup_item(self, item: Item) -> None:
        if self.setup is None:
            self.close_turn()
            self.setup = []
            self.setup_label = f"R{self.round + 1}"
        self.setup.append(item)

    def close_setup(self) -> None:
        if self.setup is not None:
            self.lines.append(Note(self.setup_label, tuple(self.setup)))
        self.setup = None

    def move(self, seat: int, m: Move) -> None:
        self.open_turn(seat).moves.append(m)

    def flush(self) -> None:
        """Cards played with no bridge or ship after them (O-11): a move of their own."""
        if self.played is not None and self.turn is not None:
            self.turn.moves.append(Move("play", cards=self.played[1]))
        self.played = None


def record(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> Record:
    """The notation of `events` (a game from its GameCreated, as one viewer may see them)."""
    setup = dict(events[0].get("data") or {}) if events and events[0].get("type") == "GameCreated" else {}
    names = [str(s.get("name", f"seat {n}")) for n, s in enumerate(setup.get("seats", []))]
    builder = _Builder(names)
    for number, event in enumerate(events, start=1):
        version = event.get("version", number)
        _group(builder, event)
        _take(builder, event)
        builder.at_version[version] = (builder.count, _open_or_resume(builder))
    builder.close_turn()
    builder.close_setup()
    return Record(_tags(setup, events, viewer), tuple(builder.lines))


def _open_or_resume(b: _Builder) -> tuple[int, int] | None:
    return (b.turn.number, b.turn.seat) if b.turn is not None else b.resume


def _group(b: _Builder, event: Mapping[str, Any]) -> None:
    """Tracks whether the command an event belongs to drew a card (a turn ends with `end` if not).

    Without command ids, the events right before a TurnEnded tell: a draw (and its refill),
    unless Lono drew it (G-8).
    """
    kind, key = event.get("type"), event.get("command_id")
    if key is None:
        lono = b.turn is not None and bool(b.turn.moves) and b.turn.moves[-1] == Move("god", god="Lono")
        if kind != "TurnEnded":
            drew = kind == "DrawSkipped" or (kind == "CardDrawn" and not lono)
            b.group_drew = drew or (b.group_drew and kind == "FaceUpRefilled")
        return
    if key != b.group:
        # Cards wait for an action of their own command only (a stored O-11 card played alone).
        b.flush()
        b.group, b.group_drew = key, False
    if kind in ("CardDrawn", "DrawSkipped"):
        b.group_drew = True


def _tags(
    setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]], viewer: str | None
) -> tuple[tuple[str, str], ...]:
    tags: list[tuple[str, str]] = [("Game", str(setup.get("game", "?")))]
    at = str(events[0].get("at", "")) if events else ""
    if at:
        tags.append(("Date", at[:10]))
    for n, seat in enumerate(setup.get("seats", []), start=1):
        tags.append((f"Seat{n}", str(seat.get("name", ""))))
    tags.append(("Mode", str(setup.get("mode", "casual"))))
    options = _flat(setup.get("options") or {})
    if options:
        tags.append(("Options", " ".join(options)))
    if viewer is not None:
        tags.append(("Viewer", viewer))
    tags.append(("Result", _result(setup, events)))
    return tuple(tags)


def _flat(options: Mapping[str, Any], prefix: str = "") -> list[str]:
    flat = []
    for key, value in sorted(options.items()):
        if isinstance(value, Mapping):
            flat += _flat(value, f"{prefix}{key}.")
        else:
            flat.append(f"{prefix}{key}={value if isinstance(value, str) else json.dumps(value)}")
    return flat


def _result(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    ended = [e for e in events if e.get("type") == "GameEnded"]
    if not ended:
        return "*"
    winner = (ended[-1].get("data") or {}).get("winner")
    seats = setup.get("seats", [])
    if type(winner) is int and 0 <= winner < len(seats):
        return str(seats[winner].get("name", winner))
    return "draw"


def _secret(event: Mapping[str, Any], key: str) -> Any:
    secret = event.get("secret")
    return secret.get(key) if isinstance(secret, Mapping) else None


def _actor_seat(event: Mapping[str, Any], data: Mapping[str, Any]) -> int:
    actor = str(event.get("actor", ""))
    if actor.startswith("seat:") and actor[5:].isdigit():
        return int(actor[5:])
    seat = data.get("seat")
    return seat if type(seat) is int else -1


def _take(b: _Builder, event: Mapping[str, Any]) -> None:
    kind = str(event.get("type", ""))
    data: Mapping[str, Any] = event.get("data") or {}
    if b.played is not None and not _uses_cards(kind, data):
        b.flush()
    if kind == "GameCreated" or kind in SILENT:
        return
    if kind in SETUP_ITEMS or (kind == "FaceUpRefilled" and b.setup is not None):
        _setup_event(b, kind, event, data)
    elif kind in REWINDS:
        _rewind(b, kind, data)
    elif kind in NOTES:
        b.note(*NOTES[kind](b, data))
    elif kind in MOVES:
        seat = b.turn.seat if b.turn is not None else _actor_seat(event, data)
        b.open_turn(seat)
        MOVES[kind](b, seat, event, data)
        if kind in TURN_ENDS:
            b.close_turn()
    else:
        b.note(
            kind,
            [
                Item(k, (json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False),))
                for k, v in sorted(data.items())
            ],
        )


def _uses_cards(kind: str, data: Mapping[str, Any]) -> bool:
    """Whether this event is the action of the cards just played."""
    if kind in ("BridgePlaced", "ShipPlaced"):
        return True
    if kind == "BridgeRemoved":
        return data.get("cause") in ("attack", "swap", "taken_back")
    return kind == "ShipSunk" and data.get("cause") == "placed_on"


def _setup_event(b: _Builder, kind: str, event: Mapping[str, Any], data: Mapping[str, Any]) -> None:
    if kind == "DeckShuffled":
        b.close_setup()
        b.round = int(data.get("round", b.round + 1)) - 1
        b.setup_item(Item("deck", (str(data.get("size", "?")),)))
    elif kind == "GodsPlaced":
        by_god: dict[str, list[str]] = {}
        for island, god in data.get("stones", {}).items():
            by_god.setdefault(str(god), []).append(str(island))
        for god, islands in sorted(by_god.items()):
            b.setup_item(Item("gods", tuple(islands), god))
    elif kind == "HandDealt":
        cards = _secret(event, "cards")
        shown = tuple(cards) if cards is not None else (f"?{data.get('count', 0)}",)
        b.setup_item(Item("hand", shown, b.name(data.get("seat"))))
    elif kind == "FaceUpChosen":
        b.setup_item(Item("chose", (str(_secret(event, "card") or "?"),), b.name(data.get("seat"))))
    elif kind in ("FaceUpRevealed", "FaceUpLaid"):
        b.setup_item(Item("up", tuple(data.get("cards", []))))
    elif kind == "FaceUpRefilled":
        b.setup_item(Item("refill", (str(data.get("card")),)))
    elif kind == "RoundStarted":
        b.setup_item(Item("first", (b.name(data.get("first")),)))
        b.round = int(data.get("round", b.round + 1))
        b.close_setup()


def _rewind(b: _Builder, kind: str, data: Mapping[str, Any]) -> None:
    """Undone / Corrected: a note, and the turn numbers go back to those of `to_version`."""
    target = data.get("to_version")
    items = [Item("to", (str(target),))]
    if kind == "Undone":
        items.append(Item("by", (b.name(data.get("requested_by")),)))
        approved = [b.name(s) for s in data.get("approved_by") or []]
        if approved:
            items.append(Item("approved", tuple(approved)))
        label = "undo"
    else:
        items.append(Item("by", (str(data.get("organizer", "organizer")),)))
        items.append(Item("reason", (str(data.get("reason", "")),)))
        label = "correct"
    b.note(label, items)
    if type(target) is int and target in b.at_version:
        b.count, b.resume = b.at_version[target]


def _score(b: _Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    rows = zip(d.get("islands", []), d.get("points", []), d.get("totals", []), strict=False)
    items = [Item("score", (str(n), f"+{p}", str(t)), b.name(s)) for s, (n, p, t) in enumerate(rows)]
    return f"R{d.get('round', b.round)} score", items


def _final(b: _Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    return f"R{b.round} final", [Item("order", tuple(b.name(s) for s in d.get("order", [])))]


def _ended(b: _Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    winner = d.get("winner")
    items = [Item("winner", (b.name(winner),)) if winner is not None else Item("draw")]
    items.append(Item("reason", (str(d.get("reason", "?")),)))
    items.append(Item("totals", tuple(str(t) for t in d.get("totals", []))))
    if "round" in d:
        items.append(Item("round", (str(d["round"]),)))
    tournament = d.get("tournament")
    if isinstance(tournament, Mapping):
        for key in ("points", "island_points"):
            if key in tournament:
                items.append(Item(key, tuple(str(p) for p in tournament[key])))
    return "end", items


NOTES = {"RoundScored": _score, "FinalTurnsStarted": _final, "GameEnded": _ended}


def _line_of(data: Mapping[str, Any], key: str = "line") -> tuple[str, ...]:
    return tuple(str(x) for x in data.get(key, ()))


def _cards_played(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    joker = b.joker == seat
    b.joker = None
    b.played = (seat, tuple(d.get("cards", [])) + (("@",) if joker else ()), joker)


def _take_played(b: _Builder) -> tuple[str, ...] | None:
    cards = b.played[1] if b.played is not None else None
    b.played = None
    return cards


def _bridge_placed(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    line = _line_of(d)
    if b.swapped == (d.get("seat"), line):
        b.swapped = None
        return
    if d.get("free"):
        b.move(seat, Move("free", line))
        return
    cards = _take_played(b)
    if cards is None and b.joker == d.get("seat"):
        b.joker, cards = None, ("@",)
    b.move(seat, Move("place", line, cards=cards))


def _bridge_removed(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    line, cause = _line_of(d), d.get("cause")
    if cause == "attack":
        b.move(seat, Move("remove", line, cards=_take_played(b)))
    elif cause == "swap":
        b.move(seat, Move("swap", line, cards=_take_played(b)))
        b.swapped = (d.get("by"), line)
    elif cause == "relative_majority":
        b.move(seat, Move("relative", line))
    elif cause == "taken_back":
        # O-11: the card played moves the bridge; its placement follows as `+A-B`.
        b.move(seat, Move("take_back", line, cards=_take_played(b)))
    # "majority": every other bridge on an island just taken (F-1), told by the `=` before it


def _island(kind: str) -> Any:
    def told(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        b.move(seat, Move(kind, (str(d.get("island")),), seat=b.other(d.get("seat"))))

    return told


def _god_taken(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    if moves and moves[-1].kind == "taken" and moves[-1].where == (str(d.get("island")),):
        moves[-1] = replace(moves[-1], god=str(d.get("god")))


def _kane_scored(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    if moves and moves[-1].kind == "taken" and moves[-1].god is not None:
        moves[-1] = replace(moves[-1], points=int(d.get("points", 0)))


def _ship_placed(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("ship", _line_of(d, "sea"), cards=_take_played(b)))
    for sunk in b.sunk:
        b.move(seat, sunk)
    b.sunk = []


def _ship_sunk(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    sunk = Move("sunk", _line_of(d, "sea"), seat=b.other(d.get("seat")))
    if d.get("cause") == "placed_on" and b.played is not None:
        b.sunk.append(sunk)
    else:
        b.move(seat, sunk)


def _ship_moved(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("sail", _line_of(d, "from"), _line_of(d, "to")))


def _cards_discarded(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    cards = _secret(e, "cards")
    if cards is None:
        b.move(seat, Move("discard", count=int(d.get("count", 0))))
    else:
        b.move(seat, Move("discard", cards=tuple(cards)))


def _card_drawn(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if d.get("source") == "face_up":
        b.move(seat, Move("draw", (str(d.get("card")),)))
    else:
        card = _secret(e, "card")
        b.move(seat, Move("stack", cards=None if card is None else (str(card),)))


def _refilled(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    b.move(seat, Move("refill", (str(d.get("card")),)))


def _word(kind: str) -> Any:
    def told(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        b.move(seat, Move(kind))

    return told


def _turn_ended(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if not b.group_drew:
        b.move(seat, Move("end"))
    b.group_drew = False


def _god_used(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    if d.get("god") == "Kanaloa":
        b.joker = d.get("seat")
    else:
        b.move(seat, Move("god", god=str(d.get("god"))))


def _hand_shown(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
    moves = b.open_turn(seat).moves
    cards = _secret(e, "cards")
    if moves and moves[-1].kind == "god":
        shown = None if cards is None else tuple(cards)
        moves[-1] = replace(moves[-1], seat=b.name(d.get("target")), cards=shown)


def _card_moved(kind: str, key: str) -> Any:
    def told(b: _Builder, seat: int, e: Mapping[str, Any], d: Mapping[str, Any]) -> None:
        card = _secret(e, "card")
        b.move(seat, Move(kind, seat=b.name(d.get(key)), cards=None if card is None else (str(card),)))

    return told


MOVES = {
    "CardsPlayed": _cards_played,
    "BridgePlaced": _bridge_placed,
    "BridgeRemoved": _bridge_removed,
    "IslandTaken": _island("taken"),
    "IslandLost": _island("lost"),
    "GodTaken": _god_taken,
    "KaneScored": _kane_scored,
    "ShipPlaced": _ship_placed,
    "ShipSunk": _ship_sunk,
    "ShipMoved": _ship_moved,
    "CardsDiscarded": _cards_discarded,
    "CardDrawn": _card_drawn,
    "FaceUpRefilled": _refilled,
    "DrawSkipped": _word("skip"),
    "TurnEnded": _turn_ended,
    "FinalTurnFinished": _word("end"),
    "FinalTurnDeferred": _word("defer"),
    "GodUsed": _god_used,
    "HandShown": _hand_shown,
    "CardTaken": _card_moved("take_card", "from"),
    "CardGiven": _card_moved("give_card", "to"),
}


# --- reading -------------------------------------------------------------------------------

_NAME = r'(?:"(?:[^"\\]|\\.)*"|[^\W\d][\w.\'-]*)'
_ISL = r"[A-Z]\w*"
_LINE = rf"{_ISL}-{_ISL}"
_SEA = rf"{_ISL}-{_ISL}-{_ISL}"
_CARD = rf"(?:{_ISL}|@|\?)"
_CARDS = rf"\(({_CARD}(?:,{_CARD})*)\)"
_GOD = r"[A-Z][a-z]+"

_MOVE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(pattern))
    for kind, pattern in [
        ("skip", r"skip"),
        ("end", r"end"),
        ("defer", r"defer"),
        ("free", rf"\+({_LINE})\(free\)"),
        ("place", rf"\+({_LINE})(?:{_CARDS})?"),
        ("remove", rf"x({_LINE}){_CARDS}"),
        ("swap", rf"s({_LINE}){_CARDS}"),
        ("play", _CARDS),
        ("take_back", rf"-({_LINE})(?:{_CARDS})?"),
        ("ship", rf"&({_SEA}){_CARDS}"),
        ("sail", rf"&({_SEA})>({_SEA})"),
        ("discard", rf"d(?:(\d+)|{_CARDS})"),
        ("take_card", rf"<({_NAME}):({_ISL}|\?)"),
        ("give_card", rf">({_NAME}):({_ISL}|\?)"),
        ("stack", rf"<\?({_ISL})?"),
        ("draw", rf"<({_ISL})"),
        ("refill", rf"\^({_ISL})"),
        ("relative", rf"%({_LINE})"),
        ("taken", rf"=({_ISL})(?:@({_GOD})(?:\+(\d+))?)?(?:/({_NAME}))?"),
        ("lost", rf"~({_ISL})(?:/({_NAME}))?"),
        ("sunk", rf"#({_SEA})(?:/({_NAME}))?"),
        ("god", rf"@({_GOD})(?:\(({_NAME})(?::({_CARD}(?:,{_CARD})*))?\))?"),
    ]
]
_TOKEN = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')
_TAG = re.compile(r'\[([A-Za-z]\w*) ("(?:[^"\\]|\\.)*")\]')
_TURN = re.compile(rf"(\d+)\. ({_NAME}):(?: (.*))?")
_NOTE = re.compile(r"([A-Za-z][\w ]*?):(?: (.*))?")
_ITEM = re.compile(rf"([a-z_]+)\((?:({_NAME}):)?(.*)\)")
_ARG = re.compile(r'"(?:[^"\\]|\\.)*"|[^,"]+')


def parse(text: str) -> Record:
    """The record a notation text holds; NotationError naming the first line it cannot read."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    tags: list[tuple[str, str]] = []
    number = 0
    for number, raw in enumerate(lines, start=1):
        if raw == "":
            break
        found = _TAG.fullmatch(raw)
        if found is None:
            raise NotationError(number, f'expected a tag pair [Name "value"], got {raw!r}')
        tags.append((found.group(1), _unquote(found.group(2))))
    body = [_parse_line(raw, n) for n, raw in enumerate(lines[number:], start=number + 1)]
    return Record(tuple(tags), tuple(body))


def _parse_line(raw: str, number: int) -> Line:
    turn = _TURN.fullmatch(raw)
    if turn is not None:
        moves = tuple(parse_move(token, number) for token in _tokens(turn.group(3) or ""))
        return Turn(int(turn.group(1)), _unname(turn.group(2)), moves)
    note = _NOTE.fullmatch(raw)
    if note is None:
        raise NotationError(number, f"neither a turn nor a note: {raw!r}")
    items = tuple(_parse_item(token, number) for token in _tokens(note.group(2) or ""))
    return Note(note.group(1), items)


def _tokens(body: str) -> list[str]:
    return _TOKEN.findall(body)


def _parse_item(token: str, number: int) -> Item:
    found = _ITEM.fullmatch(token)
    if found is None:
        raise NotationError(number, f"expected key(args), got {token!r}")
    who = _unname(found.group(2)) if found.group(2) is not None else None
    args = tuple(_unatom(a) for a in _ARG.findall(found.group(3)))
    return Item(found.group(1), args, who)


def parse_move(token: str, number: int = 0) -> Move:
    """One token of a turn line as its Move."""
    for kind, pattern in _MOVE_PATTERNS:
        found = pattern.fullmatch(token)
        if found is not None:
            return _move(kind, found.groups())
    raise NotationError(number, f"unknown move {token!r}")


def _move(kind: str, g: tuple[Any, ...]) -> Move:
    def split(value: str | None) -> tuple[str, ...] | None:
        return None if value is None else tuple(value.split(","))

    def who(value: str | None) -> str | None:
        return None if value is None else _unname(value)

    if kind in ("skip", "end", "defer"):
        return Move(kind)
    if kind in ("free", "relative"):
        return Move(kind, tuple(g[0].split("-")))
    if kind in ("place", "remove", "swap", "ship", "take_back"):
        return Move(kind, tuple(g[0].split("-")), cards=split(g[1]))
    if kind == "play":
        return Move(kind, cards=split(g[0]))
    if kind == "sail":
        return Move(kind, tuple(g[0].split("-")), tuple(g[1].split("-")))
    if kind == "discard":
        return Move(kind, count=int(g[0])) if g[0] is not None else Move(kind, cards=split(g[1]))
    if kind in ("take_card", "give_card"):
        return Move(kind, seat=_unname(g[0]), cards=None if g[1] == "?" else (g[1],))
    if kind == "stack":
        return Move(kind, cards=split(g[0]))
    if kind in ("draw", "refill"):
        return Move(kind, (g[0],))
    if kind == "taken":
        points = int(g[2]) if g[2] is not None else None
        return Move(kind, (g[0],), god=g[1], points=points, seat=who(g[3]))
    if kind in ("lost", "sunk"):
        return Move(kind, tuple(g[0].split("-")), seat=who(g[1]))
    return Move("god", god=g[0], seat=who(g[1]), cards=split(g[2]))


def _unname(value: str) -> str:
    return str(json.loads(value)) if value.startswith('"') else value


def _unatom(value: str) -> str:
    return str(json.loads(value)) if value.startswith('"') else value


def _unquote(value: str) -> str:
    return str(json.loads(value))
