"""What one seat knows: its view plus what it learned from the event log as redacted for it.

This is the only input of a computer player (design.md, "Hidden information"): the seat's
view (engine.view(state, seat)) and the game's events as that seat may read them
(record.redaction: `redact` for stored events, `redact_event` for those an arena holds). From
the events come the facts the view does not show:

- cards others took from the face-up row, Ku showed, or the seat itself gave or lost to
  them, for as long as they cannot have left that hand unseen (`known`);
- cards once known in a hand that a face-down discard or an unseen transfer may have
  taken away since, each with the chance that it is still there (`maybe`);
- its own face-down discards still in the face-down pile (`own_hidden`);
- the current turn's facts that some rules need (a card played, a ship moved, a discard
  made, bridges taken back, a draw skipped) and pending choices' public options;
- the live events themselves (type and data, as redacted for the seat, undone ones left
  out): a game of perfect information folds them into its one world (`events`);
- beside each live event, its secret when the seat may read it, else None (`secrets`): a
  game of hidden information folds both, drawing what the seat cannot read (Conquest of
  Paradise: domain/paradise/ai.py).

`build` is pure; the computer seats (service/computer_seats.py) and the arena (ai/arena.py) both use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.game_module import Recorded
from domain.games import GAMES
from domain.undo import live

TURN_MARKERS = frozenset(
    {"RoundStarted", "TurnEnded", "FinalTurnsStarted", "FinalTurnDeferred", "FinalTurnFinished"}
)


@dataclass(frozen=True)
class SeatKnowledge:
    """One seat's knowledge at one version of a game."""

    seat: int
    version: int
    seen: dict[str, Any]  # the view, plus "turn", "skipped_last", "pending_options" (worlds.world)
    known: tuple[tuple[str, ...], ...]  # per seat: cards certainly in its hand (own: the hand)
    maybe: tuple[tuple[tuple[str, float], ...], ...] = ()  # per seat: (card, chance still held)
    own_hidden: tuple[str, ...] = ()
    takeback: Mapping[str, Any] | None = field(default=None)
    events: tuple[tuple[str, Mapping[str, Any]], ...] = field(default=(), compare=False, repr=False)
    secrets: tuple[Mapping[str, Any] | None, ...] = field(default=(), repr=False)
    # What a game's world sampler derives from this knowledge alone, kept for every later
    # world a search draws from it; never part of the knowledge's value (nor of a copy's).
    cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def game(self) -> str:
        return str(self.seen["game"])

    @property
    def seats(self) -> int:
        return len(self.seen["seats"])


@dataclass(frozen=True)
class _Record:
    """A redacted event dict as domain.undo.live reads it."""

    version: int
    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any] | None
    audience: tuple[int, ...] = ()
    actor: str = ""
    command_id: str = ""


class _Hands:
    """Known and possibly-held cards per seat, and hand sizes, as the events go by."""

    def __init__(self, seats: int, me: int) -> None:
        self.me = me
        self.known: list[list[str]] = [[] for _ in range(seats)]
        self.maybe: list[list[tuple[str, float]]] = [[] for _ in range(seats)]
        self.size = [0] * seats

    def gain(self, seat: int, card: str | None) -> None:
        self.size[seat] += 1
        if card is not None and seat != self.me:
            self.known[seat].append(card)

    def lose(self, seat: int, cards: Sequence[str | None]) -> None:
        """`seat` gave up `cards` (None: a card the viewer did not see)."""
        unseen = 0
        for card in cards:
            if card is None:
                unseen += 1
            elif card in self.known[seat]:
                self.known[seat].remove(card)
            else:
                for n, (maybe, _) in enumerate(self.maybe[seat]):
                    if maybe == card:
                        del self.maybe[seat][n]
                        break
        if unseen and seat != self.me:
            self._unseen_loss(seat, unseen)
        self.size[seat] = max(0, self.size[seat] - len(cards))

    def _unseen_loss(self, seat: int, count: int) -> None:
        """Any known card may be among the `count` unseen ones: each stays with (h-count)/h."""
        size = max(self.size[seat], count)
        keep = (size - count) / size if size else 0.0
        moved = [(card, keep) for card in self.known[seat]]
        self.maybe[seat] = [(c, p * keep) for c, p in self.maybe[seat]] + moved
        self.known[seat] = []
        self.maybe[seat] = [(c, p) for c, p in self.maybe[seat] if p > 0.01]

    def show(self, seat: int, cards: Sequence[str]) -> None:
        self.known[seat] = list(cards)
        self.maybe[seat] = []
        self.size[seat] = len(cards)


def _secret(event: Mapping[str, Any], key: str) -> Any:
    secret = event.get("secret")
    return secret.get(key) if isinstance(secret, Mapping) else None


def build(
    seat: int,
    view: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
    takeback: Mapping[str, Any] | None = None,
) -> SeatKnowledge:
    """The knowledge of `seat` from its `view` and the game's `events` as redacted for it."""
    records = [
        _Record(int(e["version"]), str(e["type"]), e.get("data") or {}, e.get("secret")) for e in events
    ]
    chain = live(records) if records else []
    seats = len(view["seats"])
    version = records[-1].version if records else 0
    game = GAMES.get(str(view.get("game")))
    shown = tuple((record.type, record.data) for record in chain)
    secrets = tuple(record.secret for record in chain)
    if game is not None and game.ai is None:
        # Only the searches read which cards a seat can place; a game that gives them no
        # hooks is played by the random player, which needs the view alone.
        return SeatKnowledge(seat, version, dict(view), ((),) * seats, takeback=takeback, events=shown)
    reading = _Reading(seat, _Hands(seats, seat), None if game is None else game.end_event)
    for record in chain:
        reading.read(record)
    hands = reading.hands
    hand = tuple(view.get("hand", ()))
    known = tuple(hand if s == seat else _at_most(hands.known[s], view, s) for s in range(seats))
    seen = {
        **view,
        "turn": reading.turn,
        "skipped_last": reading.skipped_last,
        "pending_options": reading.pending,
    }
    return SeatKnowledge(
        seat=seat,
        version=version,
        seen=seen,
        known=known,
        maybe=tuple(tuple(m) if s != seat else () for s, m in enumerate(hands.maybe)),
        own_hidden=tuple(reading.own_hidden),
        takeback=takeback,
        events=shown,
        secrets=secrets,
    )


def _fresh_turn() -> dict[str, Any]:
    return {"played": False, "moved": False, "discarded": False, "taken_back": [], "skipped_draw": False}


def _at_most(cards: list[str], view: Mapping[str, Any], seat: int) -> tuple[str, ...]:
    """Known cards, never more than the hand holds (a safety net for events a rule adds later;
    a game without hands, such as Nanuuk!, has none)."""
    return tuple(sorted(cards)[: view["seats"][seat].get("hand_count", 0)])


@dataclass
class _Reading:
    """What the seat has learned from the events read so far (`build`'s working state)."""

    seat: int
    hands: _Hands
    end_event: str | None
    own_hidden: list[str] = field(default_factory=list)
    turn: dict[str, Any] = field(default_factory=_fresh_turn)
    skipped_last: bool = False
    pending: list[Any] = field(default_factory=list)

    def read(self, record: Recorded) -> None:
        """Learn what one live event tells the seat."""
        if not self._read_cards(record):
            self._read_play(record)
        kind = record.type
        if kind in TURN_MARKERS:
            if kind == "TurnEnded":
                self.skipped_last = bool(self.turn["skipped_draw"])
            elif kind == "RoundStarted":
                self.skipped_last = False
            self.turn = _fresh_turn()

    def _read_cards(self, record: Recorded) -> bool:
        """Follow the cards an event moves; False when it moves none."""
        e = {"type": record.type, "data": record.data, "secret": record.secret}
        kind, data, hands = record.type, record.data, self.hands
        if kind == "DeckShuffled":
            self.own_hidden = []
        elif kind == "HandDealt":
            hands.size[data["seat"]] += int(data.get("count", 0))
        elif kind == "CardsPlayed":
            hands.lose(data["seat"], list(data["cards"]))
            self.turn["played"] = True
        elif kind == "CardsDiscarded":
            cards = _secret(e, "cards")
            if data["seat"] == self.seat and cards:
                self.own_hidden += cards
            hands.lose(data["seat"], list(cards) if cards else [None] * int(data.get("count", 1)))
            self.turn["discarded"] = True
        elif kind == "CardDrawn":
            card = data.get("card") if data.get("source") == "face_up" else _secret(e, "card")
            hands.gain(data["seat"], card)
        elif kind == "FaceUpRevealed":
            for who, card in enumerate(data["cards"]):
                hands.lose(who, [card])
        elif kind == "HandShown":
            cards = _secret(e, "cards")
            if data["seat"] == self.seat and cards is not None:
                hands.show(data["target"], cards)
        elif kind in ("CardTaken", "CardGiven"):
            giver, taker = (data["from"], data["seat"]) if kind == "CardTaken" else (data["seat"], data["to"])
            card = _secret(e, "card")
            hands.lose(giver, [card])
            hands.gain(taker, card)
        else:
            return False
        return True

    def _read_play(self, record: Recorded) -> None:
        """Note the turn's facts and the pending choices an event changes."""
        kind, data = record.type, record.data
        e = {"secret": record.secret}
        if kind == "ShipPlaced":
            self.turn["played"] = True
        elif kind == "ShipMoved":
            self.turn["moved"] = True
        elif kind == "BridgeRemoved" and data.get("cause") == "taken_back":
            self.turn["taken_back"].append(list(data["line"]))
        elif kind == "DrawSkipped":
            self.turn["skipped_draw"] = True
        elif kind == "ChoiceRequired":
            options = data.get("options")
            self.pending.append(options if options is not None else _secret(e, "options"))
        elif kind == "ChoiceResolved":
            self.pending = self.pending[1:]
        elif kind == self.end_event:
            self.pending = []
