"""The tournament pages: /tournaments and /tournaments/<id>."""

from __future__ import annotations

from typing import Any

from flask import render_template


def index() -> Any:
    """The tournaments list."""
    return render_template("tournaments.html", tournaments=[])


def page(tournament_id: str) -> Any:
    """One tournament."""
    return render_template("tournament.html", tournament_id=tournament_id), 404
