"""The Blueprint every view module uses: flask-smorest with JSON bodies read strictly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import flask
import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import UnsupportedMediaType

from service.api.json_body import read_json


class JsonParser(FlaskParser):
    """A body that is sent must be JSON: 415 instead of silently reading it as empty; it is
    read by `read_json`, which bounds what the standard parser does not."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not core.is_json(req.mimetype):
            if req.content_length:
                raise UnsupportedMediaType("send the body as JSON: Content-Type: application/json")
            return core.missing
        data = req.get_data(cache=True)
        return read_json(data) if data else core.missing


F = TypeVar("F", bound=Callable[..., Any])


class Decorator(Protocol):
    """What flask-smorest's decorators do to a view as far as types go: give it back as it was."""

    def __call__(self, view: F, /) -> F: ...


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's decorators, typed: each gives back the view it was given, so a view keeps
    its own signature under `mypy --strict` (flask-smorest ships no annotations for them)."""

    ARGUMENTS_PARSER = JsonParser()

    def get(self, rule: str, **options: Any) -> Decorator:
        decorate: Decorator = super().get(rule, **options)
        return decorate

    def post(self, rule: str, **options: Any) -> Decorator:
        decorate: Decorator = super().post(rule, **options)
        return decorate

    def delete(self, rule: str, **options: Any) -> Decorator:
        decorate: Decorator = super().delete(rule, **options)
        return decorate

    def arguments(self, schema: Any, **options: Any) -> Decorator:
        # webargs builds a schema given as a class afresh for every request (deep copies of
        # every field: a tenth of a command's CPU); an instance is built once. The document
        # names it by its class all the same.
        if isinstance(schema, type):
            schema = schema()
        decorate: Decorator = super().arguments(schema, **options)
        return decorate

    def response(self, status_code: int | str, schema: Any = None, **options: Any) -> Decorator:
        decorate: Decorator = super().response(status_code, schema, **options)
        return decorate

    def doc(self, **options: Any) -> Decorator:
        decorate: Decorator = super().doc(**options)
        return decorate
