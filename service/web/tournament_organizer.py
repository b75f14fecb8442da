"""The organizer's page of a tournament (`/t/<id>/organize`) and the audit's page (`/t/<id>/audit`).

The organizer's page is the tournament's page with the organizer's panel: a button or a form
for each of the organizer's commands the rules would take now (service.web.tournament_words),
sent by its script through the JSON API with the organizer's token. The token arrives in the
URL fragment and stays in the browser (`localStorage`), as a seat's token does; the page
itself is the same for everyone, and a command sent without the token is refused.

The audit's page renders GET /tournaments/{id}/audit, read from the store for each request.
"""

from __future__ import annotations

from typing import Any

from flask import render_template

from service.api.context import tournament_service
from service.api.tournament_reports import audit_report
from service.web.tournament_words import organizer_actions
from service.web.tournaments import NO_STORE, context


def organize(tournament_id: str) -> Any:
    """The organizer's page of one tournament."""
    loaded = tournament_service().load(tournament_id)
    shown = context(loaded)
    shown["organizer"] = organizer_actions(shown["t"], shown["registration_open"])
    page = render_template("tournament.html", **shown, problem=None, fields={})
    return page, NO_STORE


def audit_page(tournament_id: str) -> Any:
    """The audit of the tournament and every game it assigned, as a page."""
    loaded = tournament_service().load(tournament_id)
    shown = context(loaded)
    report = audit_report(tournament_id)
    return render_template("tournament_audit.html", **shown, report=report), NO_STORE
