"""JSON Schema as plain data, and the few builders every game's message schemas share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JsonSchema = Mapping[str, Any]
"""A JSON Schema as plain data (the OpenAPI 3.0 dialect): the rules describe their messages
without knowing the web stack that publishes them."""

MAX_VERSION = 10**9
SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 7}
VERSION: JsonSchema = {"type": "integer", "minimum": 1, "maximum": MAX_VERSION}


def obj(required: tuple[str, ...] = (), **properties: JsonSchema) -> JsonSchema:
    """An object schema; keys a later version adds are let through (no additionalProperties)."""
    schema: dict[str, Any] = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    return schema


def nullable(schema: JsonSchema) -> JsonSchema:
    """`schema` or null (OpenAPI 3.0 says it with a flag, not a type list)."""
    return {**schema, "nullable": True}


def listed(items: JsonSchema) -> JsonSchema:
    """An array of `items`, of any length."""
    return {"type": "array", "items": items}
