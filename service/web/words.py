"""Legal commands as the play page offers them: the words on each button, and what a click
on a card, a line, the row or the stack (on a hexagonal board: a cell or a line) has to
match to pick it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

DASH = "\u2013"


def line_key(line: Sequence[str]) -> str:
    """The board's name for a line, as the renderer's `data-line`: the sorted pair joined by "-"."""
    return "-".join(sorted(line))


def _line(command: Mapping[str, Any], key: str = "line") -> str:
    return DASH.join(command.get(key) or ())


def _cards(command: Mapping[str, Any]) -> str:
    return " and ".join(command.get("cards") or ())


def _source(command: Mapping[str, Any]) -> str:
    if command.get("source") == "stack":
        return "from the stack"
    return f"{command.get('card')} from the face-up row"


def _gifts(command: Mapping[str, Any], names: Sequence[str]) -> str:
    gifts = command.get("gifts") or {}
    return "; ".join(f"{card} to {_name(names, seat)}" for seat, card in sorted(gifts.items()))


def _cell(command: Mapping[str, Any]) -> str:
    """A hexagonal cell as the renderer's `data-cell` names it: "q,r"."""
    cell = command.get("cell")
    return f"{cell[0]},{cell[1]}" if isinstance(cell, list | tuple) and len(cell) == 2 else ""


def _crack(command: Mapping[str, Any]) -> str:
    """A line between two cells as the renderer's `data-line` names it: "q,r|q,r", in order."""
    crack = command.get("crack")
    if not isinstance(crack, list | tuple) or len(crack) != 2:
        return ""
    ends = sorted((int(c[0]), int(c[1])) for c in crack)
    return "|".join(f"{q},{r}" for q, r in ends)


def _step(c: Mapping[str, Any]) -> str:
    how = []
    if c.get("kayak"):
        how.append("crossing the crack by kayak")
    if c.get("sled"):
        how.append("with husky and sled" + (", one crack at the end" if c.get("one_crack") else ""))
    return f"Move piece {c.get('piece')} to {_cell(c)}" + (f" ({'; '.join(how)})" if how else "")


def _name(names: Sequence[str], seat: Any) -> str:
    try:
        return names[int(seat)]
    except (ValueError, TypeError, IndexError):
        return f"seat {seat}"


PHRASES: Mapping[str, Any] = {
    "PlaceBridge": lambda c, n: (
        f"Place a bridge on {_line(c)} with {c.get('card')}"
        + (f", taking back your bridge {_line(c, 'take_back')}" if c.get("take_back") else "")
    ),
    "RemoveBridge": lambda c, n: f"Remove the bridge on {_line(c)} with {_cards(c)}",
    "SwapBridge": lambda c, n: (
        f"Swap the bridge on {_line(c)} for yours with {_cards(c)}"
        + (" (Kanaloa)" if c.get("kanaloa") else "")
    ),
    "DrawCard": lambda c, n: f"Draw {_source(c)}",
    "DiscardCards": lambda c, n: f"Discard {_cards(c)}",
    "EndTurn": lambda c, n: f"End your turn, discarding {_cards(c)}" if c.get("cards") else "End your turn",
    "SkipDraw": lambda c, n: "Skip drawing",
    "DeferFinalTurn": lambda c, n: "Defer your final turn",
    "ChooseFaceUp": lambda c, n: f"Choose {c.get('card')} to lay face up",
    "PlaceFreeBridge": lambda c, n: f"Place a free bridge on {_line(c)}",
    # Always refused now (a take-back is part of a placement), yet a known command type.
    "TakeBackBridge": lambda c, n: f"Take back your bridge on {_line(c)}",
    "PlayCard": lambda c, n: f"Play {c.get('card')} to take back a bridge",
    "PlaceShip": lambda c, n: f"Place a ship in the sea of {_line(c, 'sea')} with {_cards(c)}",
    "MoveShip": lambda c, n: f"Move your ship from the sea of {_line(c, 'from')} to {_line(c, 'to')}",
    "UseKanaloa": lambda c, n: f"Kanaloa: place a bridge on {_line(c)}",
    "UseKu": lambda c, n: f"Ku: look at {_name(n, c.get('target'))}'s hand",
    "UsePele": lambda c, n: "Pele: every other seat gives you a card",
    "UseLono": lambda c, n: f"Lono: draw {_source(c)}",
    "ChooseRemoval": lambda c, n: f"Remove the bridge on {_line(c)}",
    "TakeCard": lambda c, n: f"Take {c.get('card')}",
    "GiveCards": lambda c, n: f"Give {_gifts(c, n)}",
    "AnswerTakeback": lambda c, n: "Accept the takeback" if c.get("accept") else "Decline the takeback",
    # Conquest of Paradise
    "ChooseOrder": lambda c, n: (
        f"{_name(n, c.get('first'))} plays first, "
        + ("clockwise" if c.get("clockwise") else "counter-clockwise")
    ),
    "Explore": lambda c, n: f"Explore {_hex(c.get('hex'))}",
    "SeekKumara": lambda c, n: f"Sail for South America from {_hex(c.get('hex'))}",
    "KumaraStep": lambda c, n: f"Sail on to {_hex(c.get('hex'))}",
    "EndExploration": lambda c, n: "Bring the explorer home",
    "Redirect": lambda c, n: f"Send the disrupted voyage to {_hex(c.get('hex'))}",
    "RevealTile": lambda c, n: f"Turn the tile at {_hex(c.get('hex'))} face up",
    "RevealCard": lambda c, n: f"Show {c.get('card')}",
    "Transit": lambda c, n: f"Transit {_pieces(c)} {' → '.join(_hex(h) for h in c.get('path') or ())}",
    # Two games name a command Move: Conquest of Paradise's goes along a path, Nanuuk!'s to a cell.
    "Move": lambda c, n: f"Move {_pieces(c)} {_route(c)}" if "path" in c else _step(c),
    "FlipTransport": lambda c, n: f"Turn the transport at {_hex(c.get('hex'))} over",
    "EndMovement": lambda c, n: "End your movement",
    "Fight": lambda c, n: f"Fight {_name(n, c.get('defender'))} at {_hex(c.get('hex'))}",
    "Lose": lambda c, n: f"Lose a {str(c.get('piece')).replace('_', ' ')}",
    "UseCard": lambda c, n: "Play the card" if c.get("use") else "Pass (play no card)",
    "SaveVillages": lambda c, n: f"Give up {c.get('war_canoes')} war canoes and {c.get('bands')} bands",
    "EndBuild": lambda c, n: (
        "Commit your build orders: " + "; ".join(order_words(o) for o in c["orders"])
        if c.get("orders")
        else "Commit no build orders"
    ),
    "Deforest": lambda c, n: (
        "Pass (play no card)"
        if c.get("target") is None
        else f"Severe Deforestation against {_name(n, c.get('target'))}"
    ),
    # Nanuuk! and its learning games (docs/nanuuk.md): cells are "q,r", lines "q,r|q,r".
    "PlacePiece": lambda c, n: f"Place piece {c.get('piece')} on {_cell(c)}",
    "EndMove": lambda c, n: "Stop here (no second step)",
    "Stay": lambda c, n: f"The bear {c.get('piece')} stays",
    "PlaceCrack": lambda c, n: f"Crack the line {_crack(c)}",
    "SendBear": lambda c, n: f"Send the bear to {_cell(c)}",
    "TakeAnimal": lambda c, n: "Take the animal",
    "LeaveAnimal": lambda c, n: "Leave the animal",
    "Exchange": lambda c, n: f"Exchange the {c.get('animal')} for equipment",
    "BringIn": lambda c, n: f"Bring the {c.get('animal')} into the igloo",
    "EndIglooVisit": lambda c, n: "Leave the igloo's dealings",
    "Retire": lambda c, n: f"Retire hunter {c.get('piece')} in the igloo",
}


def _hex(at: Any) -> str:
    """A hex as the map's hooks name it, "col,row"; a named place as its name."""
    if isinstance(at, list | tuple) and len(at) == 2:
        return f"{at[0]},{at[1]}"
    return str(at).replace("_", " ")


def _pieces(command: Mapping[str, Any]) -> str:
    pieces = command.get("pieces") or {}
    return ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in sorted(pieces.items()) if n)


def _route(command: Mapping[str, Any]) -> str:
    """A Move's path, each stop's passengers after its hex: "4,6 → 5,6 (ashore 1 colony) → 5,7"."""
    stops = {s.get("at"): s for s in command.get("stops") or () if isinstance(s, Mapping)}
    hexes = []
    for n, at in enumerate(command.get("path") or ()):
        stop = stops.get(n)
        said = [
            f"{word} {_pieces({'pieces': stop.get(key)})}"
            for key, word in (("drop", "ashore"), ("take", "aboard"))
            if stop is not None and stop.get(key)
        ]
        hexes.append(_hex(at) + (f" ({', '.join(said)})" if said else ""))
    return " → ".join(hexes)


def hex_hook(command: Mapping[str, Any]) -> str:
    """The hex a click on the map picks this command by: where it acts or ends ("" for none)."""
    path = command.get("path")
    at = path[-1] if path else command.get("hex")
    return _hex(at) if isinstance(at, list | tuple) else ""


ORDER_PHRASES = {"rotate": "rotate your villages", "save": "save a build point"}


def order_words(order: Mapping[str, Any]) -> str:
    """One build order of Conquest of Paradise as the build form says it."""
    item = str(order.get("item"))
    if item in ORDER_PHRASES:
        return ORDER_PHRASES[item]
    return item.replace("_", " ") + (f" at {_hex(order.get('hex'))}" if order.get("hex") else "")


def words(command: Mapping[str, Any], names: Sequence[str]) -> str:
    """The command as a button says it; a type without a phrase is shown with its fields."""
    phrase = PHRASES.get(str(command.get("type")))
    if phrase is not None:
        return str(phrase(command, names))
    fields = ", ".join(f"{k} {v}" for k, v in command.items() if k != "type")
    return f"{command.get('type')} {fields}".strip()


def offered(command: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One button of the command list: its body, its words and the hooks a click matches."""
    cards = list(command.get("cards") or ())
    if command.get("card") is not None and command.get("source") is None:
        cards.append(command["card"])
    line = command.get("line") or command.get("sea") or command.get("to")
    return {
        "body": json.dumps(command, separators=(",", ":"), sort_keys=True),
        "type": command.get("type"),
        "words": words(command, names),
        "cards": " ".join(cards),
        "line": line_key(line) if line else "",
        "source": command.get("source") or "",
        "drawn": command.get("card") if command.get("source") == "face_up" else "",
        "hex": hex_hook(command),
        "cell": _cell(command),
        "crack": _crack(command),
        "orders": [
            {"body": json.dumps(o, separators=(",", ":"), sort_keys=True), "words": order_words(o)}
            for o in command.get("orders") or ()
            if isinstance(o, Mapping)
        ],
    }
