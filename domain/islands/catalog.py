"""The commands of one ruleset that listings hand out, each made once and handed out again.

`legal_commands` lists the same PlaceBridge{card, line} of a seat on every turn it stays
legal; building each anew (its args, its line as a list) was most of a listing's cost. A
Catalog makes a command the first time a listing needs it and keeps it: listings then only
choose among existing values. Their args are read-only mappings, as they are shared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import Any, TypeVar

from domain.decider import Command
from domain.islands.majority import bits
from domain.islands.ruleset import Ruleset

Lined = tuple[tuple[int, Command], ...]
"""Commands with the index of the line each acts on, in the board's order of lines."""

Moves = tuple[tuple[int, int, Command], ...]
"""MoveShip commands from one sea space: each with the sea space it goes to and the line crossed."""


class OnLines:
    """Commands acting on lines (one card's placements, one pair's plays), chosen by a mask of
    the lines open to them (line n: 1 << n); each choice is made once and handed out again.

    A listing of a turn then asks one table per card or pair instead of looking at each line:
    a card touches at most 7 lines, so there are at most 128 choices.
    """

    __slots__ = ("lines", "lined", "chosen")

    def __init__(self, lined: Lined) -> None:
        self.lined = lined
        self.lines = sum(1 << n for n, _ in lined)  # the lines these commands act on
        self.chosen: dict[int, tuple[Command, ...]] = {}

    def on(self, open_lines: int) -> tuple[Command, ...]:
        """The commands on `open_lines` (a subset of `lines`), in the board's order of lines."""
        found = self.chosen.get(open_lines)
        if found is None:
            found = self.chosen[open_lines] = tuple(c for n, c in self.lined if open_lines >> n & 1)
        return found


class Catalog:
    """The commands of one ruleset, by what they are made of; each made on first use."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self._placements: dict[tuple[int, str], Lined] = {}
        self._pair_plays: dict[tuple[int, tuple[str, ...]], Lined] = {}
        self._single: dict[tuple[Any, ...], Command] = {}
        self._ship_placements: dict[tuple[int, tuple[str, ...]], dict[int, tuple[Command, ...]]] = {}
        self._listed: dict[tuple[Any, ...], tuple[Command, ...]] = {}
        self._row_draws: dict[tuple[int, tuple[str, ...], bool], tuple[Command, ...]] = {}
        # Per seat, DiscardCards by its cards: a new hand's discards are mostly those of hands
        # met before. Bounded by the choices of at most a hand's size from the islands.
        self._discards: dict[int, dict[tuple[str, ...], Command]] = {}
        self._kanaloa: dict[int, tuple[Command, ...]] = {}
        self._ship_moves: dict[tuple[int, int], Moves] = {}
        self._on_lines: dict[tuple[Any, ...], OnLines] = {}
        # Per seat and hand: its cards' placements and its pairs' plays (`on_lines`).
        self._hand_lines: dict[
            tuple[int, tuple[str, ...]], tuple[tuple[OnLines, ...], tuple[OnLines, ...]]
        ] = {}

    def placements(self, seat: int, card: str) -> Lined:
        """PlaceBridge with `card` on each line touching it (K-3, O-3)."""
        found = self._placements.get((seat, card))
        if found is None:
            lines = self.rules.board.lines
            found = self._placements[seat, card] = tuple(
                (n, command("PlaceBridge", seat, card=card, line=list(lines[n])))
                for n in self.rules.board.lines_of(card)
            )
        return found

    def pair_plays(self, seat: int, cards: tuple[str, ...]) -> Lined:
        """The ruleset's two-card command (K-4 remove, O-4 swap) on each line the pair names."""
        found = self._pair_plays.get((seat, cards))
        if found is None:
            board = self.rules.board
            kind = "SwapBridge" if self.rules.pair == "swap" else "RemoveBridge"
            found = self._pair_plays[seat, cards] = tuple(
                (n, command(kind, seat, cards=list(cards), line=list(board.lines[n])))
                for n in _lines_naming(self.rules, cards)
            )
        return found

    def on_lines(self, seat: int, hand: tuple[str, ...]) -> tuple[tuple[OnLines, ...], tuple[OnLines, ...]]:
        """For `seat` holding `hand`: the `placements` of each of its different cards, and the
        `pair_plays` of each of its different pairs that names a line; looked up once a turn."""
        found = self._hand_lines.get((seat, hand))
        if found is None:
            placing = tuple(self._lined(("place", seat, card), self.placements, card) for card in kinds(hand))
            plays = (self._lined(("pair", seat, pair), self.pair_plays, pair) for pair in distinct(hand, 2))
            pairing = tuple(play for play in plays if play.lines)
            found = self._hand_lines[seat, hand] = _room(self._hand_lines, (placing, pairing))
        return found

    def _lined(self, key: tuple[Any, ...], make: Callable[[int, Any], Lined], what: Any) -> OnLines:
        found = self._on_lines.get(key)
        if found is None:
            found = self._on_lines[key] = OnLines(make(key[1], what))
        return found

    def moving_placement(self, seat: int, card: str, line: int, back: int) -> Command:
        """PlaceBridge that first takes `seat`'s bridge on `back` back (O-11)."""
        lines = self.rules.board.lines
        return self._one(
            ("PlaceBridge", seat, card, line, back),
            lambda: {"card": card, "line": list(lines[line]), "take_back": list(lines[back])},
        )

    def kanaloa_placements(self, seat: int) -> tuple[Command, ...]:
        """UseKanaloa on each line of the board, by line (G-5): a listing offers every free one."""
        found = self._kanaloa.get(seat)
        if found is None:
            lines = self.rules.board.lines
            found = self._kanaloa[seat] = tuple(
                command("UseKanaloa", seat, line=list(line)) for line in lines
            )
        return found

    def kanaloa_swap(self, seat: int, card: str, line: int) -> Command:
        """SwapBridge of `line` with one `card` and Kanaloa (G-5, O-4)."""
        lines = self.rules.board.lines
        return self._one(
            ("SwapBridge", seat, card, line),
            lambda: {"cards": [card], "line": list(lines[line]), "kanaloa": True},
        )

    def ship_placements(self, seat: int, hand: tuple[str, ...]) -> dict[int, tuple[Command, ...]]:
        """PlaceShip with three cards of `hand` naming a sea space's islands (S-1), by sea space."""
        found = self._ship_placements.get((seat, hand))
        if found is None:
            found = self._ship_placements[seat, hand] = _room(self._ship_placements, {})
            board = self.rules.board
            # A new hand is met in most late turns: the sea spaces three or more of its cards
            # border are found first, with bit sets of those one, two and three cards border.
            once = twice = thrice = 0
            for card in hand:
                seas = board.seas_mask(card)
                thrice |= twice & seas
                twice |= once & seas
                once |= seas
            for sea in bits(thrice):
                islands = board.sea_spaces[sea]
                found[sea] = self._ships_on_sea(seat, sea, tuple(c for c in hand if c in islands))
        return found

    def _ships_on_sea(self, seat: int, sea: int, cards: tuple[str, ...]) -> tuple[Command, ...]:
        """PlaceShip on `sea` with each choice of three of `cards` (all naming its islands).

        Keyed by the hand's cards on that sea alone: a new hand, met in every late turn, then
        mostly finds its sea spaces' placements made already.
        """
        key = ("PlaceShip", seat, sea, cards)
        found = self._listed.get(key)
        if found is None:
            islands = self.rules.board.sea_spaces[sea]
            found = self._listed[key] = _room(
                self._listed,
                tuple(
                    command("PlaceShip", seat, cards=list(trio), sea=list(islands))
                    for trio in distinct(cards, 3)
                ),
            )
        return found

    def ship_moves(self, seat: int, origin: int) -> Moves:
        """MoveShip from sea space `origin` to each neighbouring one (S-4), in the board's order."""
        found = self._ship_moves.get((seat, origin))
        if found is None:
            seas = self.rules.board.sea_spaces
            found = self._ship_moves[seat, origin] = tuple(
                (
                    target,
                    passage,
                    command("MoveShip", seat, **{"from": list(seas[origin]), "to": list(seas[target])}),
                )
                for target, passage in self.rules.board.sea_neighbours(origin)
            )
        return found

    def discards(self, seat: int, hand: tuple[str, ...], sizes: range) -> tuple[Command, ...]:
        """DiscardCards of every choice of `sizes` cards from `hand` (K-5, O-5)."""
        key = ("DiscardCards", seat, hand, sizes)
        found = self._listed.get(key)
        if found is None:
            made = self._discards.setdefault(seat, {})
            listed = []
            ordered = tuple(sorted(hand))
            for size in sizes:
                # Not `distinct`: this table keeps the listing, and a full hand's five sizes of
                # choices would push the pairs and trios that listings ask again out of its cache.
                # The choices of sorted cards come sorted, copies side by side: no sort needed.
                for cards in dict.fromkeys(combinations(ordered, size)):
                    discard = made.get(cards)
                    if discard is None:
                        discard = made[cards] = command("DiscardCards", seat, cards=list(cards))
                    listed.append(discard)
            found = self._listed[key] = _room(self._listed, tuple(listed))
        return found

    def draws(self, seat: int, face_up: tuple[str, ...], stack: bool) -> tuple[Command, ...]:
        """DrawCard of each face-up card, then from the stack when it holds any (K-5)."""
        # Looked up by the row itself first: rows recur, and sorting out their different cards
        # was a third of the look-up.
        found = self._row_draws.get((seat, face_up, stack))
        if found is None:
            # Kept by the row's different cards, not the row: rows of 4-5 cards with copies
            # were new so often (Arabana-Opodopo) that the table kept filling and starting again.
            different = kinds(face_up)
            key = ("DrawCard", seat, different, stack)
            found = self._listed.get(key)
            if found is None:
                row = [self._one(("DrawCard", seat, card), _face_up_draw(card)) for card in different]
                pile = [self._one(("DrawCard", seat, None), lambda: {"source": "stack"})] if stack else []
                found = self._listed[key] = _room(self._listed, (*row, *pile))
            self._row_draws[seat, face_up, stack] = _room(self._row_draws, found)
        return found

    def bare(self, seat: int, kind: str) -> Command:
        """A command without arguments (EndTurn, SkipDraw, DeferFinalTurn, UsePele)."""
        found = self._single.get((kind, seat))  # `_one`'s look-up first: asked most turns
        return self._one((kind, seat), dict) if found is None else found

    def ku(self, seat: int, target: int) -> Command:
        """UseKu on `target`'s hand (G-6)."""
        return self._one(("UseKu", seat, target), lambda: {"target": target})

    def lono(self, seat: int, card: str | None) -> Command:
        """UseLono taking the face-up `card`, or the stack's top card when None (G-8)."""
        if card is None:
            return self._one(("UseLono", seat, None), lambda: {"source": "stack"})
        return self._one(("UseLono", seat, card), lambda: {"source": "face_up", "card": card})

    def _one(self, key: tuple[Any, ...], args: Callable[[], dict[str, Any]]) -> Command:
        """The command of `key` (its type, seat, then what tells it apart), made with `args()`.

        The args are made only when the command is: listings ask for every free line's
        Kanaloa or every ship's moves each turn, and building their lists cost more than
        finding the command.
        """
        found = self._single.get(key)
        if found is None:
            found = self._single[key] = _room(self._single, command(key[0], key[1], **args()))
        return found


def _face_up_draw(card: str) -> Callable[[], dict[str, Any]]:
    return lambda: {"source": "face_up", "card": card}


MAX_ENTRIES = 20_000
"""Entries a table keyed by hands or rows keeps: those recur, but not all of them."""

Entry = TypeVar("Entry")


def _room(table: dict[Any, Any], entry: Entry) -> Entry:
    """`entry`, after emptying `table` if it is full: a long-lived process sees hands without end."""
    if len(table) >= MAX_ENTRIES:
        table.clear()
    return entry


def _lines_naming(rules: Ruleset, cards: tuple[str, ...]) -> tuple[int, ...]:
    """The lines a pair of cards names: both ends, or any line of a doubled island."""
    a, b = cards
    if a == b:
        return rules.board.lines_of(a)
    index = rules.board.line_index(a, b)
    return () if index is None else (index,)


def command(kind: str, seat: int, **args: Any) -> Command:
    """A command to share: whoever receives it cannot change its args."""
    return Command(kind, seat, MappingProxyType(args))


def catalog(rules: Ruleset) -> Catalog:
    """The ruleset's catalog, made on first use."""
    found: Catalog | None = rules.derived.get("catalog")
    if found is None:
        found = rules.derived["catalog"] = Catalog(rules)
    return found


@lru_cache(maxsize=4096)
def kinds(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The different cards of a hand or row, sorted; hands recur, so each is sorted once."""
    return tuple(sorted(set(cards)))


@lru_cache(maxsize=16384)
def distinct(cards: tuple[str, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """The different `size`-card choices from `cards`, sorted (a hand's pairs, say).

    Hands recur all game long: the choices of each are computed once.
    """
    return tuple(sorted(set(combinations(cards, size))))
