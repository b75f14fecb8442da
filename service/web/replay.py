"""The replay viewer's pages: /replay/<game_id>."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("web_replay", __name__)
