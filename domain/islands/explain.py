"""What a card or a god stone of the island games does, in a player's words: the play page shows
them beside the card or the stone (rules K-3/K-4, I-2/I-4, O-3/O-4 and G-3..G-8 of our rulings,
said without their ids), said of the thing without its name."""

from __future__ import annotations

from collections.abc import Callable

CARDS = {
    "kahuna": (
        "Play it to lay a bridge on a free line touching {x}. Two {x} cards take away an opponent's "
        "bridge touching {x}; {x} with the card of a neighbour takes away the bridge between them."
    ),
    "arabana-ikibiti": (
        "Play it to lay a bridge on a free line from {x}, unless you hold both its islands already. "
        "Two cards naming the ends of an opponent's bridge (or two of one end) take it away and put "
        "yours there."
    ),
    "arabana-opodopo": (
        "Play it to lay a bridge on a free line from {x}. Two cards naming the ends of another "
        "player's bridge (or two of one end) swap it for one of yours."
    ),
}

GODS = {
    "Kane": "scores at once: 1 point for a small island, 2 for a large one, 3 for Lusepil.",
    "Kanaloa": (
        "a joker for one use in the second round: a bridge on any free line, or one card of a swap pair."
    ),
    "Ku": "for one use in the second round: look at an opponent's hand and take one card of it.",
    "Pele": (
        "for one use in the second round: take a random card from each opponent, then give each one "
        "card of your choice."
    ),
    "Lono": "for one use in the second round: draw one more card this turn, which you may play at once.",
}


def explainer(game: str) -> Callable[[str, str], str | None]:
    """`explain(kind, name)` for `game`: a card (named by its island) or a god stone."""

    def explain(kind: str, name: str) -> str | None:
        if kind == "card" and game in CARDS:
            return CARDS[game].format(x=name)
        if kind == "god" and name in GODS:
            return GODS[name][0].upper() + GODS[name][1:]
        return None

    return explain
