"""The audit page at /audit: served within the pages' policy, its script and style sheet as files
of the service, and linked from every game, replay and tournament page (the service's own audit too)."""

from __future__ import annotations

from flask.testing import FlaskClient

from replays import audit_page
from tests.api.helpers import create_game
from tests.api.tournament_helpers import create_tournament
from tests.web.test_browser_headers import Inline, assert_browser_headers, assert_page


def test_the_audit_page_runs_under_the_page_policy_with_its_script_as_a_file(client: FlaskClient) -> None:
    page = client.get("/audit")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert_page(page)
    html = page.get_data(as_text=True)
    assert '<script src="/audit/audit.js"></script>' in html
    assert '<link rel="stylesheet" href="/audit/audit.css">' in html
    for name, media_type in (("audit.js", "text/javascript"), ("audit.css", "text/css")):
        answer = client.get(f"/audit/{name}")
        assert answer.status_code == 200 and answer.mimetype == media_type
        assert answer.get_data(as_text=True) == audit_page.asset(name)
        assert_browser_headers(answer)
    missing = client.get("/audit/audit.html")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_the_offline_page_carries_its_script_and_style_inline_and_names_no_address() -> None:
    html = audit_page.offline_page()
    inline = Inline()
    inline.feed(html)
    assert len(inline.blocked) == 1 and inline.blocked[0].startswith("inline <script>")
    assert audit_page.asset("audit.js") in html and audit_page.asset("audit.css") in html
    assert " src=" not in html and "<link" not in html and "http://" not in html and "https://" not in html


def test_every_game_replay_and_tournament_page_links_the_audit_page(client: FlaskClient) -> None:
    game_id = create_game(client)["game_id"]
    tournament_id = create_tournament(client)["tournament_id"]
    pages = (f"/play/{game_id}", f"/replay/{game_id}", f"/t/{tournament_id}", f"/t/{tournament_id}/audit")
    for path in pages:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert 'id="audit-page-link"' in answer.get_data(as_text=True) and 'href="/audit"' in answer.get_data(
            as_text=True
        ), path
