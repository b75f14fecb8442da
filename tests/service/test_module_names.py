"""One name for one thing: a module name is not used twice for different things."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "service", "replays", "ai", "bench", "tests")


def _sources() -> list[Path]:
    return [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]


def test_only_the_game_file_format_is_named_archive() -> None:
    named = sorted(str(p.relative_to(ROOT)) for p in _sources() if p.stem == "archive")
    assert named == ["replays/archive.py"]


def test_no_module_imports_the_archive_format_under_another_name() -> None:
    renamed = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name == "archive" and alias.asname not in (None, "archive")
    ]
    assert renamed == []
