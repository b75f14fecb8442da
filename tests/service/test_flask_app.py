"""The service's Flask class asks once whether a hook or view is a coroutine function."""

from __future__ import annotations

from typing import Any

import flask.app
import pytest

from service.flask_app import ServiceFlask


def test_a_functions_synchronous_form_is_asked_for_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    real = flask.app.iscoroutinefunction

    def counting(func: Any) -> bool:
        asked.append(func)
        return real(func)

    monkeypatch.setattr(flask.app, "iscoroutinefunction", counting)
    app = ServiceFlask(__name__)

    @app.before_request
    def noted() -> None:
        flask.g.noted = True

    @app.get("/here")
    def here() -> str:
        return "yes" if flask.g.noted else "no"

    client = app.test_client()
    answers = [client.get("/here").get_data(as_text=True) for _ in range(5)]
    assert answers == ["yes"] * 5
    assert asked.count(noted) == 1
    assert asked.count(here) == 1


def test_an_unhashable_callable_is_served_without_being_kept() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self) -> str:
            return "called"

    app = ServiceFlask(__name__)
    handler = Unhashable()
    assert app.ensure_sync(handler)() == "called"
    assert app.ensure_sync(handler)() == "called"
