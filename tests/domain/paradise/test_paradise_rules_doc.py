"""docs/rules.md's Conquest of Paradise table names tests that exist, for every section of the
seed (P-0.1..P-5.3) and every id of our adaptation (Q-D, Q-, Q-A)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules.md"
ADAPTATION = ROOT.parent / "shared" / "rules" / "paradise.md"
ROW = re.compile(
    r"^\| ((?:P-\d+\.\d+)|(?:Q-[AD]?\d+)) \|.*\| `(tests/[^`:]+)::(test_[A-Za-z0-9_]+)` \|$", re.M
)
SEED_SECTIONS = {
    "P-0": 4,
    "P-1": 2,
    "P-2": 6,
    "P-3": 10,
    "P-4": 4,
    "P-5": 3,
}


def _rows() -> list[tuple[str, str, str]]:
    return ROW.findall(DOC.read_text(encoding="utf-8"))


def _names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_every_paradise_row_names_tests_named_after_it() -> None:
    rows = _rows()
    assert len(rows) >= 45
    for rule, path, prefix in rows:
        assert prefix.startswith("test_" + rule.replace("-", "").replace(".", "_") + "_"), rule
        assert any(name.startswith(prefix) for name in _names(ROOT / path)), f"{rule}: no {prefix}* in {path}"


def test_every_section_of_the_seed_has_a_row() -> None:
    ids = {rule for rule, _, _ in _rows()}
    wanted = {f"{part}.{n}" for part, count in SEED_SECTIONS.items() for n in range(1, count + 1)}
    assert wanted <= ids, sorted(wanted - ids)


def test_every_id_of_the_adaptation_has_a_row() -> None:
    if not ADAPTATION.exists():
        pytest.skip("the shared rulings are not beside this checkout")
    text = ADAPTATION.read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(Q-[AD]?\d+)\b", text))
    ids |= {f"Q-A{n}" for n in range(1, 7)}  # named as a range, Q-A1..A6
    documented = {rule for rule, _, _ in _rows()}
    assert ids and ids <= documented, sorted(ids - documented)
