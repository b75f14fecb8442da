"""Legal commands as the play page offers them: the words on each button (the game's own, from
its module's `words`), and what a click on a card, a line, the row or the stack (on a hexagonal
board: a cell or a line) has to match to pick it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.board_keys import cell_key, crack_key
from domain.game_module import GameWords
from domain.undo import ANSWER_TAKEBACK


def line_key(line: Sequence[str]) -> str:
    """The board's name for a line, as the renderer's `data-line`: the sorted pair joined by "-"."""
    return "-".join(sorted(line))


def _hex(at: Any) -> str:
    """A hex as the map's hooks name it, "col,row"."""
    return f"{at[0]},{at[1]}" if isinstance(at, list | tuple) and len(at) == 2 else ""


def hex_hook(command: Mapping[str, Any]) -> str:
    """The hex a click on the map picks this command by: where it acts or ends ("" for none)."""
    path = command.get("path")
    at = path[-1] if path else command.get("hex")
    return _hex(at) if isinstance(at, list | tuple) else ""


PLATFORM_WORDS = {
    ANSWER_TAKEBACK: lambda c: "Accept the takeback" if c.get("accept") else "Decline the takeback",
}
"""The platform's commands a seat is offered beside the rules' (domain/undo.py)."""


def words(command: Mapping[str, Any], names: Sequence[str], said: GameWords) -> str:
    """The command as a button says it, in the game's words (`said`); a type without them is
    shown with its fields."""
    platform = PLATFORM_WORDS.get(str(command.get("type")))
    phrase = platform(command) if platform is not None else said.command(command, names)
    if phrase is not None:
        return phrase
    fields = ", ".join(f"{k} {v}" for k, v in command.items() if k != "type")
    return f"{command.get('type')} {fields}".strip()


def offered(command: Mapping[str, Any], names: Sequence[str], said: GameWords) -> dict[str, Any]:
    """One button of the command list: its body, its words (the game's, `said`) and the hooks a
    click matches."""
    cards = list(command.get("cards") or ())
    if command.get("card") is not None and command.get("source") is None:
        cards.append(command["card"])
    line = command.get("line") or command.get("sea") or command.get("to")
    return {
        "body": json.dumps(command, separators=(",", ":"), sort_keys=True),
        "type": command.get("type"),
        "words": words(command, names, said),
        "cards": " ".join(cards),
        "line": line_key(line) if line else "",
        "source": command.get("source") or "",
        "drawn": command.get("card") if command.get("source") == "face_up" else "",
        "hex": hex_hook(command),
        "cell": cell_key(command),
        "crack": crack_key(command),
        "orders": _parts(command, "orders", said),
    }


def _parts(command: Mapping[str, Any], key: str, said: GameWords) -> list[dict[str, Any]]:
    """The items of a command's field `key` the page offers one by one, each with its words."""
    part = said.parts.get(key)
    if part is None:
        return []
    items = [item for item in command.get(key) or () if isinstance(item, Mapping)]
    return [{"body": json.dumps(o, separators=(",", ":"), sort_keys=True), "words": part(o)} for o in items]
