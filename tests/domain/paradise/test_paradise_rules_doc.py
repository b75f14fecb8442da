"""docs/rules.md's Conquest of Paradise table names tests that exist, for every section of the
seed (P-0.1..P-5.3, and every heading of the seed's text) and every id of our adaptation (Q-D,
Q-, Q-A); a row the checks could not read fails rather than slips by."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules.md"
ADAPTATION = ROOT.parent / "shared" / "rules" / "paradise.md"
SEEDS = ROOT.parent / "shared" / "seeds"
SEED_TITLE = "Conquest of Paradise"
PARADISE_PART = "# Conquest of Paradise: rules"
ID_ROW = re.compile(r"^\| (?:P|Q)-", re.M)
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


SEED_HEADINGS = {
    "Introduction": ("P-5.3",),
    "Composants": ("Q-D1", "Q-D4", "Q-D5", "Q-D6"),
    "Carte": ("P-0.1",),
    "Pions de jeu": ("P-3.2", "P-3.6"),
    "Explorateurs": ("P-2.1",),
    "Marqueurs": ("P-2.5", "P-4.3"),
    "Marqueurs découverte": ("P-2.2", "Q-D5"),
    "Tuiles de groupe d'îles": ("Q-D4", "P-4.3"),
    "Préparation de la partie": ("P-0.2",),
    "Iles de base": ("P-0.2",),
    "Pions et marqueurs de joueur": ("P-0.3",),
    "Tour de jeu": ("P-0.4",),
    "1. Ordre du tour": ("P-1.1", "P-1.2", "Q-5"),
    "2. Exploration": ("P-2.4",),
    "Pré-déplacement": ("P-2.1",),
    "Découverte": ("P-2.2", "P-2.3"),
    "Explorer plus d'hexagones": ("P-2.4",),
    "Situations spéciales d'exploration": ("P-2.5",),
    "Résolution": ("P-2.6",),
    "3. Déplacement et Combat": ("P-3.1",),
    "Transit": ("P-3.1",),
    "Déplacement": ("P-3.2",),
    "Capacité de charge des canoës": ("P-3.3",),
    "Pile": ("P-3.4",),
    "Rumeurs": ("P-3.5",),
    "Résolution de combat": ("P-3.6", "Q-4"),
    "Procédure": ("P-3.6",),
    "Battre en retraite": ("P-3.7",),
    "Conquête d'un groupe d'îles": ("P-3.8",),
    "Iles indépendantes": ("P-3.9",),
    "Exemple de combat": ("P-3.10",),
    "4. Construction": ("P-4.2",),
    "Rotation interne": ("P-4.1",),
    "Procédure de construction": ("P-4.2", "Q-1"),
    "Villages": ("P-4.3",),
    "Cartes Art & Culture": ("P-4.4", "Q-D6"),
    "5. Victoire": ("P-5.1",),
    "Contrôle d'un groupe d'îles": ("P-5.2",),
    "Gagner la partie": ("P-5.3",),
    "Règles avancées": ("Q-A1", "Q-A2", "Q-A3", "Q-A4", "Q-A5", "Q-A6"),
    "Pions de départ variables": ("Q-A1",),
    "Ressources économisées": ("Q-A2",),
    "Malaria": ("Q-A3",),
    "L'île du sud": ("Q-A4",),
    "Kumara (patates douces)": ("Q-A5",),
    "Fin de partie variable": ("Q-A6",),
}
"""Every heading of the seed (the French rules) and the rule ids that cover it."""


def _rows() -> list[tuple[str, str, str]]:
    return ROW.findall(DOC.read_text(encoding="utf-8"))


def _seed_headings(text: str) -> set[str]:
    headings = {
        line.lstrip("#").strip().strip("*").strip() for line in text.splitlines() if line.startswith("#")
    }
    return {h for h in headings if not h.startswith(SEED_TITLE)}


def _names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def test_every_paradise_row_names_tests_named_after_it() -> None:
    rows = _rows()
    assert len(rows) >= 45
    for rule, path, prefix in rows:
        assert prefix.startswith("test_" + rule.replace("-", "").replace(".", "_") + "_"), rule
        assert any(name.startswith(prefix) for name in _names(ROOT / path)), f"{rule}: no {prefix}* in {path}"


def test_every_id_row_of_the_paradise_table_names_one_test_in_the_checked_form() -> None:
    part = DOC.read_text(encoding="utf-8").split(PARADISE_PART, 1)[1].split("\n# ", 1)[0]
    id_rows = [line for line in part.splitlines() if ID_ROW.match(line)]
    malformed = [line for line in id_rows if not ROW.match(line)]
    assert id_rows and not malformed, malformed


def test_every_heading_of_the_seed_is_covered_by_ids_with_rows() -> None:
    seeds = sorted(SEEDS.glob("002_*.txt"))
    if not seeds:
        pytest.skip("the seed is not beside this checkout")
    headings = _seed_headings(seeds[0].read_text(encoding="utf-8"))
    assert headings == set(SEED_HEADINGS), sorted(headings ^ set(SEED_HEADINGS))
    documented = {rule for rule, _, _ in _rows()}
    missing = {h: ids for h, ids in SEED_HEADINGS.items() if not set(ids) <= documented}
    assert not missing, missing


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
