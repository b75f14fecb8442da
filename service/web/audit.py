"""The audit page at /audit (replays/audit_page.py): a static page whose script checks a game file
or a bundle, and a player's receipts, in the browser. Its script and style sheet are served as
files of their own, so the page runs under the pages' Content-Security-Policy (no inline script)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, url_for

from replays import audit_page

bp = Blueprint("web_audit", __name__)


@bp.get("/audit")
def page() -> Response:
    html = audit_page.served_page(
        url_for("web_audit.asset", name="audit.js"), url_for("web_audit.asset", name="audit.css")
    )
    return Response(html, mimetype="text/html")


@bp.get("/audit/<name>")
def asset(name: str) -> Response:
    if name not in audit_page.ASSETS:
        abort(404)
    return Response(audit_page.asset(name), content_type=audit_page.MEDIA_TYPES[name])
