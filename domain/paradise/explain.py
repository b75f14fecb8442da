"""What an Arts & Culture card or an island tile of Conquest of Paradise is worth and does, in a
player's words, from the game's own tables (Q-D4, Q-D6), said of the thing without its name: the
play page shows it beside the card in a hand and on the island's hex."""

from __future__ import annotations

from domain.paradise.tables import BOARD, CARDS, TILES, Card, Printed, Tile

EFFECTS = {
    "navigation": (
        "always: +1 on the Kumara table, and the first voyage disrupted of each exploration may be ignored"
    ),
    "base_point": "always: one more build point at your base",
    "malaria_immunity": "always: malaria spares your groups",
    "atoll_full_point": "always: each atoll in your chain counts 1 point instead of a half",
    "turn_point": "always: one more build point each turn",
    "canoes_three": "always: your canoes move 3 hexes",
    "double_hull": "always: a transport canoe carries two pieces, and +1 on the Kumara table",
    "ocean_chart": 'always: a Kumara "lost" becomes "return"',
    "reroll": "in a battle: roll one die again, once",
    "attack_plus_one": "in a battle: +1 to your roll as the attacker",
    "local_warrior": "in a battle: one more local warrior when you defend a group with villages",
    "cancel_attack": "once: call off an attack on one of your groups before it is rolled",
    "deforestation": (
        "once, when another player claims victory: that player loses {penalty} points, and does "
        "not win if that leaves them under the target"
    ),
}


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def card_words(card: Card) -> str:
    said = f"Worth {_points(card.vp)}"
    if card.bonus_vp:
        said += f", {card.bonus_vp} more while you hold {' or '.join(card.bonus_islands)}"
    if card.effect is not None:
        said += "; " + EFFECTS[card.effect].format(penalty=card.penalty)
    return said + "."


def tile_words(tile: Tile) -> str:
    if tile.atoll:
        return "An atoll: no room for a village; half a point in your chain."
    squares = f"{tile.green} green square{'s' if tile.green != 1 else ''} for villages"
    if tile.brown:
        squares += f" and {tile.brown} brown (a village there needs improved farming first)"
    return squares[0].upper() + squares[1:] + "."


def printed_words(group: Printed) -> str:
    if group.base:
        return f"A player's home base, printed on the map, with {group.green} villages."
    said = "An atoll printed on the map" if group.atoll else "An island group printed on the map"
    if group.warriors:
        warriors = (
            "1 independent warrior" if group.warriors == 1 else f"{group.warriors} independent warriors"
        )
        said += f", held by {warriors} until a player takes it"
    else:
        said += ", unguarded"
    if group.malaria:
        said += "; malaria strikes there"
    return said + "."


PRINTED = {group.name: group for group in BOARD.printed}


def explain(kind: str, name: str) -> str | None:
    """A card by its name, or an island group (a tile or printed on the map) by its name; None
    for anything else."""
    if kind == "card" and name in CARDS:
        return card_words(CARDS[name])
    if kind == "tile" and name in TILES:
        return tile_words(TILES[name])
    if kind == "tile" and name in PRINTED:
        return printed_words(PRINTED[name])
    return None
