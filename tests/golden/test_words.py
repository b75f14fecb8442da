"""Every step of every golden game reads as words: the log of the play page and the replay say
each command in a sentence through its family's `describe`, never as a raw event dump."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from domain.games import rules_for
from replays.archive import event_dicts, read
from tests.golden.test_golden import FILES

HERE = Path(__file__).parent
RAW = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b|[{}\[\]]|\bversion\b|\bRound 0\b")
"""A CamelCase type name, a dict or a list, or a developer's word."""


def steps(path: Path) -> tuple[Any, list[list[dict[str, Any]]]]:
    archive = read(path.read_bytes())
    groups: list[list[dict[str, Any]]] = []
    for event in event_dicts(archive):
        if groups and groups[-1][-1]["command_id"] == event["command_id"]:
            groups[-1].append(event)
        else:
            groups.append([event])
    return archive, groups


def withheld(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as a seat that may not read their secrets gets them."""
    return [{**e, "secret": None, "redacted": True} if e.get("secret") is not None else e for e in group]


@pytest.mark.usefixtures("test_families")  # the families that live in the tests say theirs too
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_step_of_a_golden_game_is_a_sentence(path: Path) -> None:
    archive, groups = steps(path)
    rules, names = rules_for(archive.header["game"]), archive.header["seats"]

    raw = {
        line
        for group in groups
        for line in (rules.describe(group, names), rules.describe(withheld(group), names))
        if RAW.search(line) or not line.strip()
    }

    assert not raw, sorted(raw)[:5]


def test_a_withheld_build_order_of_the_old_shape_says_no_more_than_that_one_was_given() -> None:
    _, groups = steps(HERE / "conquest-of-paradise-3-stops.jsonl")
    ordered = next(g for g in groups if [e["type"] for e in g] == ["BuildOrdered"])
    rules = rules_for("conquest-of-paradise")
    names = ["Ann", "Ben", "Cai"]
    seat = ordered[0]["data"]["seat"]

    assert rules.describe(withheld(ordered), names) == f"{names[seat]} gives a secret build order"


def test_a_withheld_commit_of_build_orders_says_nothing_of_them() -> None:
    _, groups = steps(HERE / "conquest-of-paradise-3.jsonl")
    # A commit before the phase's last is its one event: the last commit reveals every order.
    commits = [g for g in groups if [e["type"] for e in g] == ["BuildCommitted"]]
    rules = rules_for("conquest-of-paradise")
    names = ["Ann", "Ben", "Cai"]

    lines = {rules.describe(withheld(g), names) for g in commits if g[0].get("secret") is not None}

    assert lines, "the game commits build orders in secret"
    assert all(line.endswith("commits the build orders") for line in lines), sorted(lines)
