"""The methods a path answers, as the document gives them, for OPTIONS and for 405's Allow.

werkzeug lists the methods of every route that matches a path: /games/import also matches
/games/<game_id>, so it offered GET, which is the game "import" (404), not the import. A
path's methods are those of the most specific routes that match it: the ones with the
fewest variables, as routing picks them.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Rule

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods() -> list[str]:
    """The methods the request's path answers, sorted."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    matched: list[Rule] = []
    for method in METHODS:
        try:
            rule, _arguments = adapter.match(method=method, return_rule=True)
        except HTTPException:
            continue
        matched.append(rule)
    if not matched:
        return []
    fewest = min(len(rule.arguments) for rule in matched)
    return sorted({m for rule in matched if len(rule.arguments) == fewest for m in rule.methods or ()})


def options() -> Response | None:
    """OPTIONS of a route that lets Flask answer it: the methods of the path, no body."""
    rule = request.url_rule
    if request.method != "OPTIONS" or rule is None or not getattr(rule, "provide_automatic_options", False):
        return None
    response = current_app.response_class()
    response.allow.update(allowed_methods())
    return response


def install(app: Flask) -> None:
    app.before_request(options)
