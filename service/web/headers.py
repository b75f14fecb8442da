"""The headers that keep a browser from running, embedding or misreading what the service sends,
on every answer (pages, API, static files, errors).

A page (text/html) gets a Content-Security-Policy under which only the service's own script
files run (no inline script, no event-handler attribute, no eval) and only its own style
sheets apply, besides the board pictures' fixed <style> blocks, which the policy names by
their hash. Every other answer gets the policy of something that is no page
(`default-src 'none'`). No answer may be framed (`frame-ancestors 'none'`, and X-Frame-Options
for browsers that predate it), none is sniffed into another media type (nosniff), and a link
followed out of a page names no address of this site (Referrer-Policy: same-origin): a play
page's URL names the game, and its fragment the seat's token.
"""

from __future__ import annotations

import base64
import hashlib

from flask import Flask, Response

from replays.renderers import renderers

#: The <style> blocks of the boards drawn inside the pages (play, replay): constant text, one
#: per registered renderer.
BOARD_STYLES = tuple(renderer.style for renderer in renderers() if renderer.style)


def style_source(css: str) -> str:
    """The CSP source that admits exactly this <style> block's text."""
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


PAGE_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' " + " ".join(sorted({style_source(css) for css in BOARD_STYLES})),
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
OTHER_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

EVERY_ANSWER = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def install(app: Flask) -> None:
    app.after_request(add_headers)


_EVERY_ANSWER_BY_KEY = tuple((name.lower(), name, value) for name, value in EVERY_ANSWER.items())


def add_headers(response: Response) -> Response:
    """`response` with the headers above; a view's own value of one of them is kept."""
    headers = response.headers
    # One pass over the headers the view set, where setdefault would make one per name.
    present = {name.lower() for name in headers.keys()}
    for key, name, value in _EVERY_ANSWER_BY_KEY:
        if key not in present:
            headers.add(name, value)
    if "content-security-policy" not in present:
        policy = PAGE_POLICY if response.mimetype == "text/html" else OTHER_POLICY
        headers.add("Content-Security-Policy", policy)
    return response
