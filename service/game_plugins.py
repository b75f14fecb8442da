"""Games registered from outside domain/: ARCHIPELAGO_GAME_PLUGINS names callables, as
"package.module:function" separated by commas, that the web app and the worker each call once at
start, before they serve, so that both processes know the same games. The browser test of a family
that lives in the tests (tests/browser/test_test_families.py) runs the service with
"tests.families.registered:register"; a deployment may name its own out-of-tree games."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib.metadata import EntryPoint

VARIABLE = "ARCHIPELAGO_GAME_PLUGINS"


def load_game_plugins(environ: Mapping[str, str] = os.environ) -> list[str]:
    """Call each callable the variable names; the names called, in order.

    A name that does not import or has no such callable raises, so a process that cannot load
    its games stops at start instead of refusing their games later."""
    called = []
    for spec in (part.strip() for part in environ.get(VARIABLE, "").split(",")):
        if not spec:
            continue
        entry = EntryPoint(name=spec, value=spec, group=VARIABLE)  # the entry-point syntax
        if entry.pattern.fullmatch(spec) is None or not entry.attr:
            raise ValueError(f"{VARIABLE}: {spec!r} is not 'package.module:function'")
        entry.load()()
        called.append(spec)
    return called
