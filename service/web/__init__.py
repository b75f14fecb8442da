"""The browser client: server-rendered pages over the same service as the JSON API.

The `web` blueprint holds the lobby, the play page and the tournament pages, its templates
and its static files (served from the package: nothing is fetched from the internet);
`web_replay` (service/web/replay.py) the replay viewer, which shares them; `web_audit`
(service/web/audit.py) the audit page; `web_rules` (service/web/rules/) the rules pages.
"""

from __future__ import annotations

from flask import Blueprint, Flask

from service.web import (
    accounts,
    audit,
    learn,
    lobby,
    play,
    replay,
    rules,
    tournament_new,
    tournament_organizer,
    tournaments,
)

bp = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/web/static",
)

ROUTES = (
    ("/", "index", lobby.index, ("GET",)),
    ("/games/new", "new_game", lobby.new_game_form, ("GET",)),
    ("/games/new", "create_game", lobby.create_game, ("POST",)),
    ("/learn/kahuna", "learn_kahuna", learn.learn_kahuna, ("POST",)),
    ("/play/<game_id>", "play", play.page, ("GET",)),
    ("/play/<game_id>/seats/<int:seat>", "take_seat", lobby.take_seat, ("POST",)),
    ("/play/<game_id>/panel", "panel", play.panel_fragment, ("GET",)),
    ("/signup", "sign_up_form", accounts.sign_up_form, ("GET",)),
    ("/signup", "sign_up", accounts.sign_up, ("POST",)),
    ("/signin", "sign_in_form", accounts.sign_in_form, ("GET",)),
    ("/signin", "sign_in", accounts.sign_in, ("POST",)),
    ("/signout", "sign_out", accounts.sign_out, ("POST",)),
    ("/me", "account", accounts.account, ("GET",)),
    ("/players/<name>", "player", accounts.player, ("GET",)),
    ("/t", "tournaments", tournaments.index, ("GET",)),
    ("/t/new", "new_tournament", tournament_new.new_tournament_form, ("GET",)),
    ("/t/new", "create_tournament", tournament_new.create_tournament, ("POST",)),
    ("/t/<tournament_id>", "tournament", tournaments.page, ("GET",)),
    ("/t/<tournament_id>/organize", "organize_tournament", tournament_organizer.organize, ("GET",)),
    ("/t/<tournament_id>/audit", "tournament_audit", tournament_organizer.audit_page, ("GET",)),
    ("/t/<tournament_id>/entrants", "register_entrant", tournaments.register, ("POST",)),
)
for rule, endpoint, view, methods in ROUTES:
    bp.add_url_rule(rule, endpoint, view, methods=list(methods))


def init_web(app: Flask) -> None:
    """Register the pages on `app`."""
    app.register_blueprint(bp)
    accounts.install(app)
    app.register_blueprint(replay.bp)
    app.register_blueprint(audit.bp)
    app.register_blueprint(rules.bp)
