"""The Blueprint every view module uses: flask-smorest with JSON bodies read strictly."""

from __future__ import annotations

from typing import Any

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


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = JsonParser()
