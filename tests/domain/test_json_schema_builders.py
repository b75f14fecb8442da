"""The JSON Schema builders every game's contract uses are the platform's (domain/json_schema.py),
written once: a family's schemas module builds its messages with them, never with a copy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import json_schema
from domain.islands import schemas as islands
from domain.nanuuk import schemas as nanuuk
from domain.paradise import schemas as paradise

ROOT = Path(__file__).resolve().parents[2]
BUILDERS = ("obj", "nullable", "listed")


def test_obj_lists_its_properties_and_requires_only_what_it_is_told() -> None:
    loose = json_schema.obj(seat=json_schema.SEAT)
    strict = json_schema.obj(("seat",), seat=json_schema.SEAT, note={"type": "string"})
    assert loose == {"type": "object", "properties": {"seat": json_schema.SEAT}}
    assert strict["required"] == ["seat"] and list(strict["properties"]) == ["seat", "note"]
    assert "additionalProperties" not in strict  # a later version's keys are let through


def test_nullable_and_listed_wrap_a_schema_without_changing_it() -> None:
    seat = dict(json_schema.SEAT)
    assert json_schema.nullable(json_schema.SEAT) == {**seat, "nullable": True}
    assert json_schema.listed(json_schema.SEAT) == {"type": "array", "items": seat}
    assert json_schema.SEAT == seat


@pytest.mark.parametrize("family", [islands, nanuuk, paradise], ids=lambda m: m.__name__)
def test_each_family_builds_its_schemas_with_the_platform_s_builders(family: object) -> None:
    for name in BUILDERS:
        if hasattr(family, name):
            assert getattr(family, name) is getattr(json_schema, name), f"{family}.{name}"


def test_no_module_under_domain_defines_a_schema_builder_of_its_own() -> None:
    defining = re.compile(rf"^def ({'|'.join(BUILDERS)})\(.*JsonSchema", re.MULTILINE)
    copies = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "domain").rglob("*.py")
        if path != ROOT / "domain" / "json_schema.py" and defining.search(path.read_text())
    )
    assert copies == []
