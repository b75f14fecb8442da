"""legal_commands(state, seat): every command the seat may send now, complete and ready to post."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product

from domain.decider import Command, IllegalMove
from domain.islands.catalog import Catalog, catalog, distinct, kinds
from domain.islands.decide import check_command, check_listed, known_commands
from domain.islands.majority import bits, enclosed_by
from domain.islands.ruleset import Ruleset
from domain.islands.state import CHOOSING, FINAL, PLAY, State, holds
from domain.islands.turns import ends_without_draw


def legal_commands(state: State, seat: int) -> list[Command]:
    """All commands `decide` accepts from `seat` now; empty when it is not that seat's move.

    Most commands come from the ruleset's catalog: values shared between calls, to be read,
    never changed.
    """
    if state.phase == CHOOSING:
        if state.chosen[seat] is not None:
            return []
        return [Command("ChooseFaceUp", seat, {"card": c}) for c in kinds(state.hands[seat])]
    if state.phase not in (PLAY, FINAL) or seat != state.active:
        return []
    if state.pending:
        if state.pending[0].kind == "pele_return":
            return _pele_returns(state, seat)
        return _accepted(state, answer_candidates(state, seat), check_command)
    rules = state.rules
    book = rules.derived.get("catalog") or catalog(rules)
    if state.turn.discarded and rules.discard == "full_hand":  # `draw_only`, its call spared
        return list(_draws(state, seat, book))
    listed: list[Command] = []
    for lister in rules.derived.get("listers") or listers(rules):
        listed += lister(state, seat, book)
    return listed


Lister = Callable[[State, int, Catalog], Sequence[Command]]


def listers(rules: Ruleset) -> tuple[Lister, ...]:
    """The listings of a turn's commands that this ruleset has, in the order they are listed.

    Asking every listing, each then finding it has nothing in this game, cost a tenth of
    Kahuna's listing.
    """
    found: tuple[Lister, ...] | None = rules.derived.get("listers")
    if found is None:
        _, known = known_commands(rules)
        chosen: list[Lister] = [_bridges, _discards, _draws]
        if known & {"EndTurn", "SkipDraw", "DeferFinalTurn"}:
            chosen.append(_turn_ends)
        if rules.handicap is not None or rules.take_back_when_out:
            chosen.append(_rarer)
        if rules.seafarers:
            chosen.append(_ships)
        if rules.gods:
            chosen.append(_gods)
        found = rules.derived["listers"] = tuple(chosen)
    return found


def _accepted(
    state: State, candidates: Iterable[Command], check: Callable[[State, Command], None] = check_listed
) -> list[Command]:
    """The candidates `decide` accepts: for the rare commands whose conditions are many."""
    accepted = []
    for command in candidates:
        try:
            check(state, command)
        except IllegalMove:
            continue
        accepted.append(command)
    return accepted


def _bridges(state: State, seat: int, book: Catalog) -> list[Command]:
    """The placements (K-3, O-3), then the two-card plays on opponents' bridges (K-4, O-4)."""
    if state.turn.moved:  # S-4: after a ship's move, no card this turn
        return []
    rules = state.rules
    taken = 0  # the lines holding a bridge, as bits (line n: 1 << n)
    for held in state.held:
        taken |= held
    placing, pairing = book.on_lines(seat, state.hands[seat])
    listed: list[Command] = []
    if state.stock[seat] > 0:
        open_lines = ~taken
        for n in state.turn.taken_back:
            open_lines &= ~(1 << n)
        if rules.place_needs_uncontrolled_end:
            open_lines &= ~_closed_lines(state, seat)
        for card in placing:
            lines = card.lines & open_lines
            if lines:  # `card.on(lines)`, its call spared when the choice was made before
                listed += card.chosen.get(lines) or card.on(lines)
    elif rules.take_back_when_out:
        listed += _moving_places(state, seat, book)
    if rules.pair == "swap" and state.stock[seat] == 0:
        return listed
    others = taken & ~state.held[seat]  # the lines holding an opponent's bridge
    if others:
        for pair in pairing:
            lines = pair.lines & others
            if lines:
                listed += pair.chosen.get(lines) or pair.on(lines)
    return listed


def _moving_places(state: State, seat: int, book: Catalog) -> list[Command]:
    """O-11: out of bridges, each placement first takes one of one's own bridges back."""
    owners, taken_back = state.owners, state.turn.taken_back
    backs = [n for n, owner in enumerate(owners) if owner == seat]
    closed = _closed_lines(state, seat) if state.rules.place_needs_uncontrolled_end else 0
    listed = []
    for card in kinds(state.hands[seat]):
        for n, _ in book.placements(seat, card):
            if owners[n] is not None or n in taken_back or closed >> n & 1:
                continue
            listed += [book.moving_placement(seat, card, n, back) for back in backs]
    return listed


def _closed_lines(state: State, seat: int) -> int:
    """I-2 as bits (line n: 1 << n): the lines both of whose ends `seat` controls.

    Such a line is in the line masks of two of its islands, so the masks' exclusive or drops
    it while their union keeps it; a line with one end of its own is in both.
    """
    union = once = 0
    for lines, owner in zip(state.rules.board.line_masks(), state.control, strict=True):
        if owner == seat:
            union |= lines
            once ^= lines
    return union & ~once


def _discards(state: State, seat: int, book: Catalog) -> tuple[Command, ...]:
    hand = state.hands[seat]
    if state.rules.discard == "one_per_turn":  # O-5: one card, once a turn
        # One card's choices are the hand's different cards: far fewer keys than hands.
        return () if state.turn.discarded else book.discards(seat, kinds(hand), range(1, 2))
    if len(hand) < state.hand_limits[seat] or state.phase != PLAY or not (state.stack or state.face_up):
        return ()
    return book.discards(seat, hand, range(1, len(hand) + 1))  # K-5: any number of a full hand


def _draws(state: State, seat: int, book: Catalog) -> tuple[Command, ...]:
    if state.phase != PLAY or len(state.hands[seat]) >= state.hand_limits[seat]:
        return ()
    return book.draws(seat, state.face_up, bool(state.stack))


def _turn_ends(state: State, seat: int, book: Catalog) -> list[Command]:
    """Ending a turn without a draw (I-6, O-5, G-9), abstaining (K-9), deferring (O-7).

    Listed by their conditions (a deferral by its check): every turn offers some of them,
    and a check per command, most often refused, cost as much as the rest of the listing.
    """
    rules = state.rules
    _, known = rules.derived.get("commands") or known_commands(rules)  # the others: unknown_command
    hand, limit = state.hands[seat], state.hand_limits[seat]
    listed = []
    phase = state.phase
    # `ends_without_draw`, and K-9's conditions (`check_skip_draw`), read here without calls
    # where they answer at once: every turn of Kahuna's Thames & Kosmos edition asks both.
    if "EndTurn" not in known:
        may_end = False
    elif phase == FINAL:
        may_end = True
    else:
        may_end = rules.discard == "one_per_turn" and ends_without_draw(state, seat, min(len(hand), limit))
    if may_end and len(hand) <= limit:
        listed.append(book.bare(seat, "EndTurn"))
    if "SkipDraw" in known and phase != FINAL and not state.skipped_last and rules.may_skip_draw:
        listed.append(book.bare(seat, "SkipDraw"))
    if "DeferFinalTurn" in known and phase == FINAL:
        listed += _accepted(state, iter([book.bare(seat, "DeferFinalTurn")]))
    if may_end and len(hand) > limit:  # G-9: the turn's end discards the excess
        listed += [
            Command("EndTurn", seat, {"cards": list(cards)}) for cards in distinct(hand, len(hand) - limit)
        ]
    return listed


def _rarer(state: State, seat: int, book: Catalog) -> list[Command]:
    candidates = rarer_candidates(state, seat)
    return _accepted(state, candidates) if candidates else []


def rarer_candidates(state: State, seat: int) -> list[Command]:
    """Candidates for the handicap's free bridges (I-8) and O-11's cards played without a
    bridge; `_accepted` keeps those the rules allow. Most turns have none."""
    rules = state.rules
    board = state.rules.board
    candidates = []
    if rules.handicap is not None and state.free_bridges[seat]:
        candidates += [
            Command("PlaceFreeBridge", seat, {"line": list(board.lines[n])})
            for n, owner in enumerate(state.owners)
            if owner is None
        ]
    if rules.take_back_when_out and state.stock[seat] == 0:
        candidates += [Command("PlayCard", seat, {"card": card}) for card in kinds(state.hands[seat])]
    return candidates


def _ships(state: State, seat: int, book: Catalog) -> list[Command]:
    """S-1/S-4: ships placed and moved, listed by their conditions.

    Checking each candidate cost more every round, as ships and bridges fill the sea.
    """
    turn = state.turn
    if turn.moved:  # S-4: after a ship's move, no card and no other move this turn
        return []
    placing = book.ship_placements(seat, state.hands[seat]) if state.ship_stock[seat] > 0 else {}
    moving = 0 if turn.played else state.fleets[seat]  # S-4: a move only on a turn without cards
    if not placing and not moving:  # most turns: read off the hand's table and the fleet's mask
        return []
    listed: list[Command] = []
    open_to = _OpenSeas(state, seat)
    for sea in sorted({*placing, *bits(moving)}):
        if sea in placing and open_to(sea):
            listed += placing[sea]
        if moving >> sea & 1:
            listed += [
                move
                for other, passage, move in book.ship_moves(seat, sea)
                if open_to(other) and state.owners[passage] in (None, seat)
            ]
    return listed


class _OpenSeas:
    """S-5 for one listing: whether a sea space may take `seat`'s ship (no own ship there, no
    opponent's bridges enclosing it), each sea space looked at once.

    Late in a game the ships' moves ask of the same few sea spaces again and again.
    """

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        self.known: dict[int, bool] = {}

    def __call__(self, sea: int) -> bool:
        found = self.known.get(sea)
        if found is None:
            enemy = enclosed_by(self.state, sea)
            found = self.known[sea] = self.state.ships[sea] != self.seat and enemy in (None, self.seat)
        return found


def _gods(state: State, seat: int, book: Catalog) -> list[Command]:
    """G-4..G-8: the god stones `seat` may use, from round 2 on.

    Listed by their conditions, most of which hold for every command of a stone at once: a
    check per candidate, parsing its command, made the gods' last round the slowest of a game.
    """
    stones = state.stones[seat]
    if not state.rules.gods or not stones or state.round < 2:
        return []
    listed = _kanaloa(state, seat, book) if "Kanaloa" in stones else []
    if "Ku" in stones:  # G-6: the hand of an opponent holding cards
        listed += [
            book.ku(seat, target) for target in range(state.seats) if target != seat and state.hands[target]
        ]
    if "Pele" in stones and any(state.hands[o] for o in range(state.seats) if o != seat):  # G-7
        listed.append(book.bare(seat, "UsePele"))
    if "Lono" in stones:  # G-8: an extra card from the row or the stack
        listed += [book.lono(seat, card) for card in kinds(state.face_up)]
        if state.stack:
            listed.append(book.lono(seat, None))
    return listed


def _kanaloa(state: State, seat: int, book: Catalog) -> list[Command]:
    """G-5: Kanaloa on every free line, or with one card swapping an opponent bridge (O-4)."""
    if state.turn.moved or state.stock[seat] == 0:
        return []
    swaps = "SwapBridge" in known_commands(state.rules)[1]
    hand, taken_back, lines = state.hands[seat], state.turn.taken_back, state.rules.board.lines
    placements = book.kanaloa_placements(seat)
    listed = []
    for n, owner in enumerate(state.owners):
        if owner is None:
            if n not in taken_back:
                listed.append(placements[n])
        elif owner != seat and swaps:
            listed += [book.kanaloa_swap(seat, end, n) for end in lines[n] if end in hand]
    return listed


def _pele_returns(state: State, seat: int) -> list[Command]:
    """G-7: one card of one's hand back to each seat Pele took from, copies counted."""
    victims = [str(v) for v in state.pending[0].options]
    hand = state.hands[seat]
    return [
        Command("GiveCards", seat, {"gifts": dict(zip(victims, gifts, strict=True))})
        for gifts in product(kinds(hand), repeat=len(victims))
        if holds(hand, gifts)
    ]


def answer_candidates(state: State, seat: int) -> Iterator[Command]:
    pending = state.pending[0]
    if pending.kind == "relative_majority":
        for line in pending.options:
            yield Command("ChooseRemoval", seat, {"line": list(line)})
    elif pending.kind == "ku":
        for card in pending.options:
            yield Command("TakeCard", seat, {"card": card})
