"""A request that would change something, sent by a browser from another site, is refused
(403 `cross_site_request`) before any view reads it: nothing is written.

Another site's page can make a visitor's browser send a form (to /games/new, to a
tournament's entrants) or a text/plain body (to /games/import) without any CORS preflight.
Browsers say where such a request comes from: `Sec-Fetch-Site` (every current browser, and
no page script can set it) and `Origin` (on every POST, older browsers too). A POST, PUT,
PATCH or DELETE passes when
  - its Origin is one of TRUSTED_ORIGINS (pages of this service served under another name), or
  - its Sec-Fetch-Site is `same-origin` or `none` (the person made it, e.g. a bookmark), or,
    without Sec-Fetch-Site, its Origin names this host (the Host header), or
  - it carries neither header: a client that is no browser (curl, a bot's HTTP library).
    The service sets no cookie and a browser adds no credential of it by itself (seat tokens
    travel in the Authorization header a script sets), so such a request holds nothing but
    what its sender chose to send, and refusing it would protect nobody.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, render_template, request

from service.api.problems import PROBLEM_JSON, problem

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
SAME_SITE_VALUES = frozenset({"same-origin", "none"})
#: Blueprints of the pages: a person's form there is answered with a page, not problem+json.
PAGE_BLUEPRINTS = frozenset({"web", "web_replay", "web_rules"})
DETAIL = "a request from another site may not change anything here; send it from this site's own page"


def install(app: Flask) -> None:
    app.before_request(refuse_cross_site)


def same_site(
    method: str, fetch_site: str | None, origin: str | None, host: str, trusted: Collection[str]
) -> bool:
    """Whether a request with these headers may go on (see the module's docstring)."""
    if method.upper() in SAFE_METHODS:
        return True
    if origin and origin.rstrip("/").lower() in trusted:
        return True
    if fetch_site:
        return fetch_site.strip().lower() in SAME_SITE_VALUES
    if origin:
        return origin != "null" and urlsplit(origin).netloc.lower() == host.lower()
    return True


def trusted_origins() -> frozenset[str]:
    """TRUSTED_ORIGINS: comma-separated origins (scheme://host[:port]) besides this host."""
    listed = str(current_app.config.get("TRUSTED_ORIGINS") or "")
    return frozenset(o.strip().rstrip("/").lower() for o in listed.split(",") if o.strip())


def refuse_cross_site() -> Response | None:
    environ = request.environ
    fetch_site, origin = environ.get("HTTP_SEC_FETCH_SITE"), environ.get("HTTP_ORIGIN")
    # Without either header, or for a safe method, same_site passes whatever the host and the
    # trusted origins are: most requests need neither worked out.
    if (fetch_site is None and origin is None) or request.method in SAFE_METHODS:
        return None
    if same_site(request.method, fetch_site, origin, request.host, trusted_origins()):
        return None
    wants_page = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON])
    if request.blueprint in PAGE_BLUEPRINTS and wants_page == "text/html":
        return Response(render_template("refused.html"), 403, mimetype="text/html")
    return problem(403, "cross_site_request", DETAIL)
