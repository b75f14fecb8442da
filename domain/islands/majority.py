"""F-1..F-4 with their variants: gains, cascade losses, sunk ships, O-6 and O-10, as events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from domain.decider import Event
from domain.islands import events as ev
from domain.islands.evolve import evolve_all
from domain.islands.state import ENDED, State

KANE_POINTS = {3: 1, 5: 2, 7: 3}  # G-3 by the island's places: small, large, Lusepil


class Outcome:
    """The events a command produces so far, and the state they lead to."""

    __slots__ = ("initial", "_state", "_applied", "events", "ended")  # one per command: made often

    def __init__(self, state: State, events: Iterable[Event] = (), after: State | None = None) -> None:
        self.initial = state  # the state the command was decided in
        self.events: list[Event] = list(events)
        # `after`: the state `events` lead to, when the command's rules made it themselves.
        self._state = state if after is None else after
        self._applied = 0 if after is None else len(self.events)
        # Whether the game is over, known without applying the events: only GameEnded ends it.
        self.ended = state.phase == ENDED
        for event in self.events:  # as `emit` would, without a call per event
            if event.type == "GameEnded":
                self.ended = True

    def emit(self, event: Event) -> None:
        self.events.append(event)
        if event.type == "GameEnded":
            self.ended = True

    @property
    def state(self) -> State:
        """The state after every event so far.

        Applied only when read: a caller of `decide` applies every event again, so the
        events no rule reads after (a turn's TurnEnded, say) are applied once, not twice;
        `decide_with_state` hands this state on instead.
        """
        events = self.events
        if self._applied < len(events):
            self._state = evolve_all(self._state, events[self._applied :])
            self._applied = len(events)
        return self._state


def settle(out: Outcome, islands: Iterable[str]) -> None:
    """F-1/F-3: S-5's sinkings first, then gains on `islands`, the bridges they remove, the losses.

    Only a new bridge encloses a ship, and gains and losses lay none (they take bridges off
    and markers away): the ships the change left enclosed are all found by one look, made
    before any majority is read. A bridge laid on a free line is settled by `settle_placed`.
    """
    sunk = _sink_enclosed(out)
    dirty = set(islands) | sunk
    if not dirty or out.ended:
        return
    settle_losses(out, dirty)
    settle_losses(out, _gains(out, dirty))


def settle_placed(out: Outcome, line: tuple[str, str]) -> None:
    """`settle` after a bridge laid on the free `line`.

    Every controller held its majority before (each change settles its losses), and a new
    bridge lowers no presence and adds no place, so no loss is looked for unless a ship
    sinks. Each step is asked only when it can find something: most placements sink no
    ship and take no island.
    """
    sunk = _sink_enclosed(out) if out.initial.rules.seafarers else ()
    if out.ended:
        return
    dirty = {*line, *sunk} if sunk else line
    if sunk:
        settle_losses(out, dirty)  # S-3: a new ship can raise the majority needed
    touched = _gains(out, dirty)
    if touched:
        settle_losses(out, touched)


def _gains(out: Outcome, islands: Iterable[str]) -> set[str]:
    state = out.state
    board = state.rules.board
    control = state.control
    gains = []
    for island in _ordered(state, islands):
        seat = state.majority_holder(island)
        if seat is not None and control[board.shape[island][0]] != seat:
            gains.append((island, seat))
    if not gains:  # most changes take no island
        return set()
    for island, seat in gains:
        _take_island(out, seat, island)
        if out.ended:
            return set()
    touched: set[str] = set()
    # The owners as the removals leave them, kept here: the islands taken and their god stones
    # move no bridge, so the events need not be applied to read them.
    owners = list(state.owners)
    for island, seat in gains:
        for n in board.lines_of(island):
            owner = owners[n]
            if owner is not None and owner != seat:
                out.emit(ev.bridge_removed(owner, board.lines[n], by=seat, cause="majority"))
                owners[n] = None
                touched.update(board.lines[n])
    return touched


def _take_island(out: Outcome, seat: int, island: str) -> None:
    """F-1 with G-2/G-3 (the god stone) and O-10 (an 11th island wins at once)."""
    state = out.state
    eleventh = state.rules.marker_limit_wins and state.control.count(seat) >= state.rules.markers
    out.emit(ev.island_taken(seat, island))
    # IslandTaken moves no god stone: the state before it tells which one lies there.
    god = state.gods[state.island_index(island)] if state.gods else None
    if god is not None:
        out.emit(ev.god_taken(seat, island, god))
        if god == "Kane":
            places = state.rules.board.places(island)
            out.emit(ev.kane_scored(seat, island, KANE_POINTS.get(places, 2)))
    if eleventh:
        out.emit(ev.game_ended(seat, out.state.scores, "eleventh_island"))


def settle_losses(out: Outcome, islands: Iterable[str]) -> None:
    """F-2: a controller without absolute majority any more removes the marker; bridges stay."""
    if not islands:  # most gains remove no bridge, so most settlements have none to look at
        return
    # IslandLost changes no other island's majority: the state before them serves for all.
    state = out.state
    for island in _ordered(state, islands):
        seat = state.controller(island)
        if seat is not None and not state.holds_majority(island, seat):
            out.emit(ev.island_lost(seat, island))


def _sink_enclosed(out: Outcome) -> set[str]:
    """S-5: a ship whose three lines all hold one opponent's bridges sinks; its islands change.

    No ship lay enclosed before the command (it would have sunk, and S-5 refuses a ship
    sailing into an enclosure), so only the sea spaces around a line that got its bridge
    since can hold one: looking at those alone costs the same with one ship or twenty.
    """
    if not out.initial.rules.seafarers:  # spares applying the events just to find no ships
        return set()
    state = out.state
    if not any(state.fleets):  # no ship at sea: none to sink, whatever the bridges
        return set()
    board = state.rules.board
    enclosed: dict[int, tuple[int, int]] = {}  # sea space: its ship's seat, the enclosing seat
    for enemy, (now, before) in enumerate(zip(state.held, out.initial.held, strict=True)):
        if now == before:  # most seats: no bridge of theirs came
            continue
        for line in bits(now & ~before):
            for sea in board.line_seas(line):
                owner, around = state.ships[sea], board.sea_mask(sea)
                if owner is not None and owner != enemy and now & around == around:
                    enclosed[sea] = (owner, enemy)
    changed: set[str] = set()
    for sea in sorted(enclosed):
        owner, enemy = enclosed[sea]
        out.emit(ev.ship_sunk(owner, board.sea_spaces[sea], by=enemy, cause="enclosed"))
        changed.update(board.sea_spaces[sea])
    return changed


def bits(mask: int) -> list[int]:
    """The positions of the set bits of `mask`, lowest first."""
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def enclosed_by(state: State, sea: int) -> int | None:
    """S-5: the seat whose bridges lie on all three lines around `sea`, if one does."""
    around = state.rules.board.sea_mask(sea)
    return next((seat for seat, held in enumerate(state.held) if held & around == around), None)


def relative_majority(out: Outcome, seat: int, islands: Iterable[str]) -> None:
    """O-6: filling a large island's last place while holding the most costs another a bridge."""
    for island in _ordered(out.state, islands):
        options = relative_majority_victims(out.state, seat, island)
        if len(options) == 1:
            remove_for_relative_majority(out, seat, island, options[0])
        elif options:
            out.emit(ev.choice_required("relative_majority", seat, island, options=options))


def relative_majority_victims(state: State, seat: int, island: str) -> list[list[str]]:
    """The lines whose bridge O-6 may remove on `island` after `seat` filled it; [] if none."""
    board = state.rules.board
    if board.places(island) <= 3 or not _all_taken(state, board.line_mask(island)):
        return []
    lines = board.lines_of(island)
    counts = Counter(state.owners[n] for n in lines)
    if any(2 * c > board.places(island) for c in counts.values()) or counts[seat] < max(counts.values()):
        return []
    tied = [s for s, c in counts.items() if c == counts[seat] and s != seat]
    others = {s: c for s, c in counts.items() if s != seat and s not in tied}
    if tied:
        fewest = min(others.values()) if others else None
        victims = {s for s, c in others.items() if c == fewest}
    else:
        victims = set(others)
    return [list(board.lines[n]) for n in lines if state.owners[n] in victims]


def _all_taken(state: State, lines: int) -> bool:
    """Whether every line of the mask `lines` holds a bridge (of any seat)."""
    taken = 0
    for held in state.held:
        taken |= held
    return taken & lines == lines


def remove_for_relative_majority(out: Outcome, seat: int, island: str, line: list[str]) -> None:
    board = out.state.rules.board
    index = board.line_index(line[0], line[1])
    assert index is not None
    owner = out.state.owners[index]
    assert owner is not None
    out.emit(ev.bridge_removed(owner, board.lines[index], by=seat, cause="relative_majority"))
    settle_losses(out, board.lines[index])


def _ordered(state: State, islands: Iterable[str]) -> tuple[str, ...]:
    """`islands` once each, in the board's order: the order majorities are settled in."""
    return state.rules.board.in_order(islands)
