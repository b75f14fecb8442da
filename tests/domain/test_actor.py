"""The actor of an event is one typed value: read from its stored text and written back unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.actor import ORGANIZER, SYSTEM, WORKER, Actor

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "actor"),
    [
        ("seat:0", Actor.of_seat(0)),
        ("seat:12", Actor.of_seat(12)),
        ("system", SYSTEM),
        ("worker", WORKER),
        ("organizer", ORGANIZER),
    ],
)
def test_a_stored_actor_reads_as_its_typed_value_and_writes_back_the_same_text(
    text: str, actor: Actor
) -> None:
    assert Actor.parse(text) == actor
    assert str(actor) == text


@pytest.mark.parametrize("text", ["seat:", "seat:x", "seat:01", "seat:-1", "seat", "dealer", "", "system:1"])
def test_a_text_that_names_no_actor_is_refused_and_has_no_seat(text: str) -> None:
    with pytest.raises(ValueError):
        Actor.parse(text)
    assert Actor.seat_in(text) is None


def test_no_module_takes_a_seat_actor_string_apart_itself() -> None:
    parsing = re.compile(r'startswith\("seat:"\)|partition\(":"\)|actor\[5:\]')
    found = [
        str(path.relative_to(ROOT))
        for package in ("domain", "service", "replays", "ai", "bench")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "actor.py" and parsing.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_module_writes_a_seat_actor_string_by_hand() -> None:
    found = [
        str(path.relative_to(ROOT))
        for package in ("domain", "service", "replays", "ai", "bench")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "actor.py" and 'f"seat:{' in path.read_text(encoding="utf-8")
    ]
    assert found == []
