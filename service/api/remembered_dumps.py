"""A nested schema whose dumps are remembered by the value dumped.

A game's legal commands repeat from one version to the next, and marshmallow dumps each field
by field: for GET /games/{id}/legal that was most of the answer's CPU. A dump is a pure function
of plain JSON data, so the value's JSON names its dump exactly.
"""

from __future__ import annotations

from typing import Any

import orjson
from marshmallow import fields

SIZE = 4096
"""Dumps kept; the island games' commands number a few hundred distinct values."""
PLAIN = (str, int, float, bool, type(None))


def plain(value: Any, depth: int = 4) -> bool:
    """Whether `value` is made of dicts, lists and scalars of exactly the JSON types only (no
    subclass, tuple or enum, which would dump otherwise than their JSON reads), `depth` deep."""
    kind = type(value)
    if kind in PLAIN:
        return True
    if depth == 0:
        return False
    if kind is list:
        items = value
    elif kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        items = value.values()
    else:
        return False
    # A command's values are mostly scalars: those are checked here, without a call each.
    for item in items:
        if type(item) not in PLAIN and not plain(item, depth - 1):
            return False
    return True


class RememberedNested(fields.Nested):
    """fields.Nested that dumps a plain value once and then hands out copies of that dump; any
    other value is dumped as fields.Nested dumps it. The document shows it as fields.Nested."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._dumps: dict[bytes, Any] = {}

    # Named as fields.Nested names them, which differs from fields.Field.
    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.many or type(nested_obj) is not dict or not plain(nested_obj):
            return super()._serialize(nested_obj, attr, obj, **kwargs)  # type: ignore[no-untyped-call]
        key = orjson.dumps(nested_obj, option=orjson.OPT_SORT_KEYS)
        # A dict's get and set hold the interpreter's lock: no lock of our own (under gevent one
        # would cost a greenlet lock's calls per listed command). Two threads that miss together
        # both dump, and the second keeps its equal dump.
        dumped = self._dumps.get(key)
        if dumped is None:
            dumped = super()._serialize(nested_obj, attr, obj, **kwargs)  # type: ignore[no-untyped-call]
            if len(self._dumps) >= SIZE:
                self._dumps.clear()
            self._dumps[key] = dumped
        return dict(dumped)
