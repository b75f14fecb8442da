"""Worlds: a whole State rebuilt from what one seat knows plus an assignment of the cards it cannot see.

A search for one seat (ai/) never receives the game's State. It receives the seat's view
(engine.view) plus the public facts of the current turn, samples where the unseen cards
are (other hands, the stack's order, the face-down discards, others' secret face-up
choices), and asks `world` for a State the rules can run on: decide, evolve,
legal_commands. Pure and deterministic: the sampler brings its own random.Random.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.islands.majority import relative_majority_victims
from domain.islands.ruleset import Ruleset, ruleset_for
from domain.islands.state import Pending, State, Turn, update


@dataclass(frozen=True)
class Hidden:
    """Where the cards a seat cannot see lie: every hand (sorted), the stack, the face-down pile."""

    hands: tuple[tuple[str, ...], ...]
    stack: tuple[str, ...]
    hidden: tuple[str, ...]
    chosen: tuple[str | None, ...] = ()  # O-2 while choosing: each seat's card, None if not chosen


def truth(state: State) -> Hidden:
    """The real assignment of `state` (for tests and checks: a search never holds it)."""
    return Hidden(state.hands, state.stack, state.hidden, state.chosen)


def rules_of(seen: Mapping[str, Any]) -> Ruleset:
    """The ruleset a view describes (its game and the options it shows)."""
    return ruleset_for(seen["game"], seen.get("options") or {})


def unseen_pool(seen: Mapping[str, Any], rules: Ruleset | None = None) -> Counter[str]:
    """The cards the viewer cannot place: the deck less its hand, the face-up row and the discard."""
    rules = rules or rules_of(seen)
    pool = Counter(rules.deck)
    pool.subtract(seen.get("hand", ()))
    pool.subtract(seen["face_up"])
    pool.subtract(seen["discard"])
    return pool


def turn_of(seen: Mapping[str, Any], rules: Ruleset) -> Turn:
    """The current turn's facts (`seen["turn"]`, as ai.knowledge derives them from public events)."""
    facts = seen.get("turn") or {}
    lines = []
    for a, b in facts.get("taken_back", ()):
        index = rules.board.line_index(a, b)
        if index is not None:
            lines.append(index)
    return Turn(
        played=bool(facts.get("played")),
        moved=bool(facts.get("moved")),
        discarded=bool(facts.get("discarded")),
        taken_back=tuple(lines),
        skipped_draw=bool(facts.get("skipped_draw")),
    )


def world(seen: Mapping[str, Any], hidden: Hidden, check: bool = False) -> State:
    """The State that `seen` (a seat's view plus turn facts) and `hidden` describe together.

    With `check`, ValueError when `hidden` contradicts `seen` (counts, cards, the viewer's hand).
    """
    if check:
        consistent(seen, hidden)
    return fill(frame(seen), seen, hidden)


def frame(seen: Mapping[str, Any]) -> State:
    """The part of every world of `seen` that no assignment of hidden cards changes.

    A search draws thousands of worlds from one view: it builds this once and `fill`s it.
    The hidden cards and the pending choices (whose options may come from them) are empty.
    """
    rules = rules_of(seen)
    board = rules.board
    seats = seen["seats"]
    n = len(seats)
    control = tuple(seen["control"].get(name) for name in board.names)
    ships, ship_stock = _ships(seen, rules)
    if rules.handicap is not None:
        free = tuple(s.get("free_bridges", 0) for s in seats)
    else:
        free = tuple(rules.free_bridges_of(s) for s in range(n))
    gods: tuple[str | None, ...] = ()
    stones: tuple[tuple[str, ...], ...] = ((),) * n
    if rules.gods:
        gods = tuple(seen.get("gods", {}).get(name) for name in board.names)
        stones = tuple(tuple(s.get("god_stones", ())) for s in seats)
    return State(
        rules=rules,
        names=tuple(s["name"] for s in seats),
        mode=seen["mode"],
        phase=seen["phase"],
        round=seen["round"],
        active=seen["active"],
        owners=_owners(seen, rules),
        control=control,
        stock=tuple(s["bridges_in_stock"] for s in seats),
        hands=(),
        face_up=tuple(seen["face_up"]),
        stack=(),
        played=tuple(seen["discard"]),
        hidden=(),
        scores=tuple(s["score"] for s in seats),
        scorings=tuple(tuple(p) for p in seen["scorings"]),
        result=seen["result"],
        turn=turn_of(seen, rules),
        ships=ships,
        ship_stock=ship_stock,
        free_bridges=free,
        skipped_last=bool(seen.get("skipped_last")),
        final_order=tuple(seen.get("final_order", ())),
        finished=tuple(seen.get("finished", ())),
        gods=gods,
        stones=stones,
    )


def _owners(seen: Mapping[str, Any], rules: Ruleset) -> tuple[int | None, ...]:
    """Each bridge line's owner (None: no bridge), from the bridges `seen` shows."""
    board = rules.board
    owners: list[int | None] = [None] * len(board.lines)
    for bridge in seen["bridges"]:
        index = board.line_index(*bridge["line"])
        if index is not None:
            owners[index] = bridge["seat"]
    return tuple(owners)


def _ships(seen: Mapping[str, Any], rules: Ruleset) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """Each sea space's ship owner and each seat's ships in stock; both empty without Seafarers."""
    if not rules.seafarers:
        return (), ()
    board = rules.board
    placed: list[int | None] = [None] * len(board.sea_spaces)
    for ship in seen.get("ships", ()):
        sea = board.sea_index(ship["sea"])
        if sea is not None:
            placed[sea] = ship["seat"]
    return tuple(placed), tuple(s["ships_in_stock"] for s in seen["seats"])


def fill(base: State, seen: Mapping[str, Any], hidden: Hidden) -> State:
    """The world of `seen` whose hidden cards are `hidden`, from its `frame` `base`."""
    state = update(
        base,
        hands=tuple(tuple(h) for h in hidden.hands),
        stack=tuple(hidden.stack),
        hidden=tuple(hidden.hidden),
        chosen=tuple(hidden.chosen) if "chosen" in seen else (),
    )
    if not seen.get("pending"):
        return state
    return update(state, pending=_pending(seen, state))


def _pending(seen: Mapping[str, Any], state: State) -> tuple[Pending, ...]:
    """The pending choices; options the viewer was not shown are rebuilt from the world."""
    known: Sequence[Any] = seen.get("pending_options") or ()
    pending = []
    for n, shown in enumerate(seen.get("pending", ())):
        options = shown.get("options")
        if options is None and n < len(known):
            options = known[n]
        if options is None:
            options = _rebuilt_options(state, shown)
        pending.append(
            Pending(
                shown["kind"],
                shown["seat"],
                shown.get("island", ""),
                tuple(tuple(o) if isinstance(o, list) else o for o in options),
                shown.get("target"),
            )
        )
    return tuple(pending)


def _rebuilt_options(state: State, shown: Mapping[str, Any]) -> list[Any]:
    """A choice's options from the world itself: Ku's are the target's hand (G-6)."""
    kind = shown["kind"]
    if kind == "ku" and shown.get("target") is not None:
        return sorted(set(state.hands[shown["target"]]))
    if kind == "relative_majority":
        return relative_majority_victims(state, shown["seat"], shown.get("island", ""))
    return []


def consistent(seen: Mapping[str, Any], hidden: Hidden, rules: Ruleset | None = None) -> None:
    """ValueError unless `hidden` fits `seen`: counts, the viewer's hand and the whole deck."""
    rules = rules or rules_of(seen)
    seats = seen["seats"]
    if len(hidden.hands) != len(seats):
        raise ValueError("one hand per seat is required")
    for seat, hand in zip(seats, hidden.hands, strict=True):
        if len(hand) != seat["hand_count"]:
            raise ValueError(f"seat {seat['seat']} holds {seat['hand_count']} cards, not {len(hand)}")
    viewer = seen.get("viewer")
    if viewer is not None and sorted(hidden.hands[viewer]) != sorted(seen.get("hand", ())):
        raise ValueError("the viewer's hand differs from its view")
    if len(hidden.stack) != seen["stack_count"] or len(hidden.hidden) != seen["hidden_discards"]:
        raise ValueError("stack or face-down pile of the wrong size")
    every = Counter(seen["face_up"]) + Counter(seen["discard"]) + Counter(hidden.stack)
    every += Counter(hidden.hidden)
    for hand in hidden.hands:
        every += Counter(hand)
    if every != Counter(rules.deck):
        raise ValueError("the cards do not add up to the deck")
