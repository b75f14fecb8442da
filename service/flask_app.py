"""The service's Flask class: Flask, with each hook's and view's synchronous form remembered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

#: Functions whose form is remembered, at most: hooks, views and handlers number a few hundred;
#: a caller that makes a new function per request is served as Flask serves it.
REMEMBERED = 4096


class ServiceFlask(Flask):
    """Flask asks of every hook and view whether it is a coroutine function on each request
    (a dozen `inspect` calls a request); their answer does not change, so it is kept."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synchronous: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            return self._synchronous[func]
        except (KeyError, TypeError):  # TypeError: an unhashable callable
            pass
        synchronous = super().ensure_sync(func)
        if len(self._synchronous) < REMEMBERED:
            try:
                self._synchronous[func] = synchronous
            except TypeError:
                pass
        return synchronous
