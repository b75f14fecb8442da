"""legal_commands(state, seat): every command the seat may send now, complete and ready to post."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from domain.core import Command, IllegalMove
from domain.islands.decide import check_command, known_commands
from domain.islands.setup import GOD_STONES
from domain.islands.state import CHOOSING, FINAL, PLAY, State
from domain.islands.turns import draw_only, may_draw


def legal_commands(state: State, seat: int) -> list[Command]:
    """All commands `decide` accepts from `seat` now; empty when it is not that seat's move."""
    if state.phase == CHOOSING:
        if state.chosen[seat] is not None:
            return []
        return [Command("ChooseFaceUp", seat, {"card": c}) for c in sorted(set(state.hands[seat]))]
    if state.phase not in (PLAY, FINAL) or seat != state.active:
        return []
    if state.pending:
        return _accepted(state, answer_candidates(state, seat))
    if draw_only(state):
        return list(_draws(state, seat))
    return [
        *_places(state, seat),
        *_pairs(state, seat),
        *_discards(state, seat),
        *_draws(state, seat),
        *_accepted(state, rarer_candidates(state, seat)),
    ]


def _accepted(state: State, candidates: Iterator[Command]) -> list[Command]:
    """The candidates `decide` accepts: for the rare commands whose conditions are many."""
    accepted = []
    for command in candidates:
        try:
            check_command(state, command)
        except IllegalMove:
            continue
        accepted.append(command)
    return accepted


def _distinct(cards: tuple[str, ...], size: int) -> list[tuple[str, ...]]:
    return sorted(set(combinations(cards, size)))


def _places(state: State, seat: int) -> Iterator[Command]:
    if state.turn.moved:
        return
    board = state.rules.board
    backs: list[int | None] = [None]
    if state.stock[seat] == 0:  # O-11: each placement then takes one of one's bridges back first
        out = state.rules.take_back_when_out
        backs = [n for n, owner in enumerate(state.owners) if owner == seat and out]
    for card in sorted(set(state.hands[seat])):
        for n in board.lines_of(card):
            line = board.lines[n]
            if state.owners[n] is not None or n in state.turn.taken_back:
                continue
            if state.rules.place_needs_uncontrolled_end and all(
                state.controller(end) == seat for end in line
            ):
                continue
            for back in backs:
                more = {} if back is None else {"take_back": list(board.lines[back])}
                yield Command("PlaceBridge", seat, {"card": card, "line": list(line), **more})


def _pairs(state: State, seat: int) -> Iterator[Command]:
    swap = state.rules.pair == "swap"
    if state.turn.moved or (swap and state.stock[seat] == 0):
        return
    board = state.rules.board
    kind = "SwapBridge" if swap else "RemoveBridge"
    for pair in _distinct(state.hands[seat], 2):
        for n in _lines_with(state, pair):
            owner = state.owners[n]
            if owner is not None and owner != seat:
                yield Command(kind, seat, {"cards": list(pair), "line": list(board.lines[n])})


def _lines_with(state: State, cards: tuple[str, ...]) -> list[int]:
    board = state.rules.board
    if len(set(cards)) == 1:
        return list(board.lines_of(cards[0]))
    index = board.line_index(cards[0], cards[1])
    return [] if index is None else [index]


def _discards(state: State, seat: int) -> Iterator[Command]:
    hand = state.hands[seat]
    if state.rules.discard == "one_per_turn":
        if not state.turn.discarded:
            for card in sorted(set(hand)):
                yield Command("DiscardCards", seat, {"cards": [card]})
        return
    if len(hand) < state.hand_limit(seat) or state.phase != PLAY or not (state.stack or state.face_up):
        return
    for size in range(1, len(hand) + 1):
        for cards in _distinct(hand, size):
            yield Command("DiscardCards", seat, {"cards": list(cards)})


def _draws(state: State, seat: int) -> Iterator[Command]:
    if state.phase != PLAY or not may_draw(state, seat):
        return
    for card in sorted(set(state.face_up)):
        yield Command("DrawCard", seat, {"source": "face_up", "card": card})
    if state.stack:
        yield Command("DrawCard", seat, {"source": "stack"})


def rarer_candidates(state: State, seat: int) -> Iterator[Command]:
    """Candidates for the variant commands; `_accepted` keeps those the rules allow."""
    rules = state.rules
    board = state.rules.board
    _, known = known_commands(rules)
    for name in ("EndTurn", "SkipDraw", "DeferFinalTurn"):
        if name in known:  # the others `decide` refuses as unknown_command
            yield Command(name, seat, {})
    excess = len(state.hands[seat]) - state.hand_limit(seat)
    if excess > 0:  # G-9
        for cards in _distinct(state.hands[seat], excess):
            yield Command("EndTurn", seat, {"cards": list(cards)})
    if rules.handicap is not None and state.free_bridges[seat]:
        for n, owner in enumerate(state.owners):
            if owner is None:
                yield Command("PlaceFreeBridge", seat, {"line": list(board.lines[n])})
    if rules.take_back_when_out and state.stock[seat] == 0:
        for card in sorted(set(state.hands[seat])):
            yield Command("PlayCard", seat, {"card": card})
    if rules.seafarers:
        yield from _ships(state, seat)
    if rules.gods and state.stones[seat] and state.round >= 2:
        yield from _gods(state, seat)


def _ships(state: State, seat: int) -> Iterator[Command]:
    board = state.rules.board
    for sea, islands in enumerate(board.sea_spaces):
        fitting = tuple(c for c in state.hands[seat] if c in islands)
        for trio in _distinct(fitting, 3):
            yield Command("PlaceShip", seat, {"cards": list(trio), "sea": list(islands)})
        if state.ships[sea] == seat:
            for other, _ in board.sea_neighbours(sea):
                yield Command("MoveShip", seat, {"from": list(islands), "to": list(board.sea_spaces[other])})


def _gods(state: State, seat: int) -> Iterator[Command]:
    board = state.rules.board
    held = set(state.stones[seat]) & set(GOD_STONES)
    if "Kanaloa" in held:
        for n, owner in enumerate(state.owners):
            if owner is None:
                yield Command("UseKanaloa", seat, {"line": list(board.lines[n])})
            elif owner != seat:
                for end in board.lines[n]:
                    if end in state.hands[seat]:
                        args = {"cards": [end], "line": list(board.lines[n]), "kanaloa": True}
                        yield Command("SwapBridge", seat, args)
    if "Ku" in held:
        for target in range(state.seats):
            yield Command("UseKu", seat, {"target": target})
    if "Pele" in held:
        yield Command("UsePele", seat, {})
    if "Lono" in held:
        for card in sorted(set(state.face_up)):
            yield Command("UseLono", seat, {"source": "face_up", "card": card})
        yield Command("UseLono", seat, {"source": "stack"})


def answer_candidates(state: State, seat: int) -> Iterator[Command]:
    pending = state.pending[0]
    if pending.kind == "relative_majority":
        for line in pending.options:
            yield Command("ChooseRemoval", seat, {"line": list(line)})
    elif pending.kind == "ku":
        for card in pending.options:
            yield Command("TakeCard", seat, {"card": card})
    elif pending.kind == "pele_return":
        victims = [str(v) for v in pending.options]
        hand = sorted(set(state.hands[seat]))
        for gifts in product(hand, repeat=len(victims)):
            yield Command("GiveCards", seat, {"gifts": dict(zip(victims, gifts, strict=True))})
