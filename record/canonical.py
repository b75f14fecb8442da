"""Canonical JSON: the one text of a value that is hashed, stored and exported."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def canonical_json(value: Any) -> str:
    """`value` as the one JSON text that is hashed and stored: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-native deep copy: exactly what a reader will get back from the store."""
    copied: dict[str, Any] = json.loads(canonical_json(dict(value)))
    return copied
