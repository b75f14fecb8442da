"""What a hunter does on the cell it enters (N-5, N-7)."""

from __future__ import annotations

from domain.nanuuk.board import Cell
from domain.nanuuk.rules import ANIMALS
from domain.nanuuk.state import Sheet, State

PRICES = {"fish": ("husky",), "seal": ("kayak",), "walrus": ("sled",), "whale": ("husky", "sled", "kayak")}
"""N-7: the equipment each animal buys at an igloo."""


def takeable(state: State, sheet: Sheet, cell: Cell) -> str | None:
    """N-5: the animal on `cell` the hunter may take: with the harpoon, none of that kind
    carried, and for a whale an Inuk along."""
    animal = state.tokens.get(cell)
    if animal not in ANIMALS or "harpoon" not in sheet.carried or animal in sheet.animals:
        return None
    if animal == "whale" and not sheet.inuk:
        return None
    return animal


def bought(sheet: Sheet, animal: str) -> tuple[str, ...]:
    """N-7: the equipment `animal` buys that the hunter lacks (a whale buys all it lacks)."""
    return tuple(item for item in PRICES[animal] if item not in sheet.carried)


def dealings(sheet: Sheet) -> list[tuple[str, str]]:
    """N-7: ("Exchange", animal) for each carried animal that buys something, ("BringIn",
    animal) for every carried animal."""
    found = [("Exchange", a) for a in ANIMALS if a in sheet.animals and bought(sheet, a)]
    return found + [("BringIn", a) for a in ANIMALS if a in sheet.animals]
