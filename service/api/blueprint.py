"""The Blueprint every view module uses: flask-smorest with JSON bodies read strictly."""

from __future__ import annotations

from typing import Any

import flask
import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import UnsupportedMediaType


class JsonParser(FlaskParser):
    """A body that is sent must be JSON: 415 instead of silently reading it as empty."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not core.is_json(req.mimetype) and req.content_length:
            raise UnsupportedMediaType("send the body as JSON: Content-Type: application/json")
        return super()._raw_load_json(req)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonParser()
