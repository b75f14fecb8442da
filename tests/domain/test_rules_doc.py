"""docs/rules.md maps every rule id to the tests named after it; this keeps the map honest."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
RULINGS = ROOT.parent / "shared" / "rules" / "island-games.md"
NANUUK_RULINGS = ROOT.parent / "shared" / "rules" / "nanuuk.md"
ROW = re.compile(r"^\| ([A-Z]-\d+) \|.*\| `(tests/[^`:]+)::(test_[A-Za-z0-9_]+)` \|$", re.M)


def _rows() -> list[tuple[str, str, str]]:
    return ROW.findall(DOC.read_text(encoding="utf-8"))


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_every_row_names_tests_that_exist() -> None:
    rows = _rows()
    assert len(rows) >= 40
    for rule, path, prefix in rows:
        names = _test_names(ROOT / path)
        assert any(name.startswith(prefix) for name in names), f"{rule}: no {prefix}* in {path}"
        assert prefix.startswith(f"test_{rule.replace('-', '')}_"), f"{rule}: {prefix} is not named after it"


def test_every_rule_id_of_the_rulings_has_a_row() -> None:
    if not RULINGS.exists():
        pytest.skip("the shared rulings are not beside this checkout")
    ids = set(re.findall(r"\*\*([FKIOG]-\d+)\b", RULINGS.read_text(encoding="utf-8")))
    ids |= set(re.findall(r"\*\*(S-\d+) ", RULINGS.read_text(encoding="utf-8")))
    ids |= set(re.findall(r"- \*\*(S-\d+)\*\*", RULINGS.read_text(encoding="utf-8")))
    documented = {rule for rule, _, _ in _rows()}
    assert ids, "no rule ids found in the rulings"
    assert ids <= documented, f"rules without a row: {sorted(ids - documented)}"


def test_every_nanuuk_rule_id_of_the_rulings_has_a_row() -> None:
    if not NANUUK_RULINGS.exists():
        pytest.skip("the shared rulings are not beside this checkout")
    ids = set(re.findall(r"\*\*([XNVL]-\d+)\b", NANUUK_RULINGS.read_text(encoding="utf-8")))
    documented = {rule for rule, _, _ in _rows()}
    assert len(ids) == 26, "X-1..X-4, N-1..N-11, V-1..V-3, L-1..L-8"
    assert ids <= documented, f"rules without a row: {sorted(ids - documented)}"
