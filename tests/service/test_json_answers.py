"""Answers written by orjson read as the same JSON values Flask's own provider wrote."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from service.api import json_answers


@dataclass
class Point:
    x: int
    y: int


VALUES: list[Any] = [
    {"b": 1, "a": [True, None, 2.5, "Ōʻahu 😀 \u2028"], "c": {"z": {}, "y": []}},
    {"when": datetime(2026, 11, 28, 16, 30, tzinfo=UTC), "point": Point(1, 2)},
    {"big": 2**70, "small": -(2**63)},
    {2: "keys that are not strings", 1: "go to the standard module"},
    [1e21, 1e-7, -0.0, 123456789.125],
]


def answers(value: Any) -> tuple[bytes, bytes]:
    """What the service's provider and Flask's own write for `value`."""
    ours, theirs = Flask("ours"), Flask("theirs")
    json_answers.install(ours)
    assert isinstance(theirs.json, DefaultJSONProvider)
    with ours.app_context():
        mine = ours.json.response(value).get_data()
    with theirs.app_context():
        flask_own = theirs.json.response(value).get_data()
    return mine, flask_own


@pytest.mark.parametrize("value", VALUES)
def test_an_answer_reads_as_flasks_own(value: Any) -> None:
    mine, flask_own = answers(value)
    assert json.loads(mine) == json.loads(flask_own)
    assert mine.endswith(b"\n")


def test_keys_are_sorted_and_the_text_compact() -> None:
    mine, _ = answers({"b": 1, "a": {"d": 2, "c": 3}})
    assert mine == b'{"a":{"c":3,"d":2},"b":1}\n'
