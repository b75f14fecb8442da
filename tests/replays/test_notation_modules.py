"""The notation is held by one module per concern, behind the same public names."""

from __future__ import annotations

import importlib
from pathlib import Path

import replays.notation as notation

CONCERNS = (
    "model",
    "lexicon",
    "builder",
    "moves",
    "build",
    "render",
    "parse",
    "paradise",
    "paradise_parse",
    "hex_cells",
    "hex_build",
)
PUBLIC = (
    "Move",
    "Turn",
    "Item",
    "Note",
    "Record",
    "Line",
    "NotationError",
    "format",
    "render",
    "record",
    "parse",
    "parse_move",
    "move_text",
)


def test_the_notation_is_a_package_of_one_module_per_concern_each_small() -> None:
    folder = Path(notation.__file__).parent
    assert Path(notation.__file__).name == "__init__.py"
    for concern in CONCERNS:
        module = importlib.import_module(f"replays.notation.{concern}")
        lines = Path(module.__file__ or "").read_text(encoding="utf-8").count("\n")
        assert lines <= 300, f"{concern}.py holds {lines} lines"
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted((*CONCERNS, "__init__"))


def test_the_public_names_stay_importable_from_replays_notation() -> None:
    missing = [name for name in PUBLIC if not hasattr(notation, name)]
    assert missing == []
    assert notation.Move.__module__ == "replays.notation.model"
    assert notation.parse.__module__ == "replays.notation.parse"
