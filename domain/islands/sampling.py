"""Determinisation: a world consistent with a seat's knowledge, drawn with the caller's random source.

The unseen cards (the deck less the seat's hand, the face-up row, the face-up discard,
the cards it knows in other hands and its own face-down discards) are dealt uniformly
at random to what it cannot see: the rest of each other hand, the face-down pile and
the stack, in random order. A card once known in a hand that may have left it since
unseen (`SeatKnowledge.maybe`) is put back into that hand first with the chance that
it is still there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, Protocol

from domain.islands.state import State
from domain.islands.worlds import Hidden, fill, frame, truth, unseen_pool

SeatKnowledge = Any
"""ai.knowledge.SeatKnowledge: the seat, what it sees, and the cards it can place."""


class Random(Protocol):
    """The little of random.Random sampling uses; the caller owns the randomness."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def random(self) -> float: ...

    def choice(self, seq: Sequence[Any]) -> Any: ...


def unseen(knowledge: SeatKnowledge) -> Counter[str]:
    """The cards whose place the seat does not know: the deck less everything it can place."""
    pool = unseen_pool(knowledge.seen)
    for seat, cards in enumerate(knowledge.known):
        if seat != knowledge.seat:
            pool.subtract(cards)
    pool.subtract(knowledge.own_hidden)
    return +pool


def sample(knowledge: SeatKnowledge, rng: Random, pool: Counter[str] | None = None) -> Hidden:
    """One assignment of the unseen cards that fits everything `knowledge` holds.

    `pool`: `unseen(knowledge)` when the caller has it already (it is used up here).
    """
    seen = knowledge.seen
    me = knowledge.seat
    pool = unseen(knowledge) if pool is None else pool
    hands: list[list[str]] = []
    for seat, entry in enumerate(seen["seats"]):
        if seat == me:
            hands.append(list(seen.get("hand", ())))
            continue
        hand = list(knowledge.known[seat])
        need = entry["hand_count"] - len(hand)
        maybe = list(knowledge.maybe[seat]) if knowledge.maybe else []
        rng.shuffle(maybe)
        for card, chance in maybe:
            if need > 0 and pool[card] > 0 and rng.random() < chance:
                hand.append(card)
                pool[card] -= 1
                need -= 1
        hands.append(hand)
    rest = list(pool.elements())
    rng.shuffle(rest)
    for seat, entry in enumerate(seen["seats"]):
        if seat == me:
            continue
        need = entry["hand_count"] - len(hands[seat])
        hands[seat] += rest[:need]
        del rest[:need]
    face_down = seen["hidden_discards"] - len(knowledge.own_hidden)
    hidden = tuple(knowledge.own_hidden) + tuple(rest[:face_down])
    stack = tuple(rest[face_down:])
    chosen: tuple[str | None, ...] = ()
    if "chosen" in seen:
        chosen = tuple(_chosen(seen, seat, me, hands[seat], rng) for seat in range(len(seen["seats"])))
    return Hidden(tuple(tuple(sorted(h)) for h in hands), stack, hidden, chosen)


def _chosen(seen: Mapping[str, Any], seat: int, me: int, hand: list[str], rng: Random) -> str | None:
    if not seen["chosen"][seat]:
        return None
    if seat == me:
        return seen.get("my_face_up_choice")
    return rng.choice(sorted(hand)) if hand else None


def determinize(knowledge: SeatKnowledge, rng: Random) -> State:
    """A whole State the seat cannot tell apart from the real one, drawn from `rng`.

    The same as `world(knowledge.seen, sample(knowledge, rng))`; what does not depend on the
    draw (the world's frame, the unseen cards) is kept in the knowledge's cache when it has one.
    """
    cache: dict[str, Any] = getattr(knowledge, "cache", {})
    kept = cache.get(_CACHED)
    if kept is None:
        kept = cache[_CACHED] = (frame(knowledge.seen), unseen(knowledge))
    base, pool = kept
    return fill(base, knowledge.seen, sample(knowledge, rng, pool.copy()))


_CACHED = "islands.determinize"


def knowing_hands(state: State, knowledge: SeatKnowledge) -> Callable[[Random], State]:
    """Worlds of `knowledge` holding every hand as `state` has it; the stack's order and the
    face-down cards the seat did not discard itself drawn anew each time. Not a player: a
    measure of what the seat loses by not seeing the others' hands (bench.where_it_loses)."""
    base, real, own = frame(knowledge.seen), truth(state), knowledge.own_hidden
    rest = Counter(real.stack) + Counter(real.hidden) - Counter(own)
    face_down = len(real.hidden) - len(own)

    def world(rng: Random) -> State:
        cards = list(rest.elements())
        rng.shuffle(cards)
        hidden = Hidden(real.hands, tuple(cards[face_down:]), (*own, *cards[:face_down]), real.chosen)
        return fill(base, knowledge.seen, hidden)

    return world
