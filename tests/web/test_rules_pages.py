"""The rules pages: /rules/<game> for every registered game, in players' words with its board;
the lobby's and the form's ways to them; the guided game's entry."""

from __future__ import annotations

import re

import pytest
import redis
from flask.testing import FlaskClient

from domain.games import GAMES
from service.web.option_fields import option_fields
from service.web.rules import pages
from tests.api.helpers import bearer
from tests.families.registered import EVERY_GAME
from tests.web.pages import by_id, elements

#: A rule id of our rulings (K-7, N-1, V-2, Q-A1): for test names, never for players.
RULE_ID = re.compile(r"\b[A-Z]-[A-Z]?\d+\b")


@pytest.mark.usefixtures("test_families")  # the families that live in the tests have theirs too
def test_every_registered_game_has_a_rules_page() -> None:
    assert sorted(GAMES) == sorted(pages()) == EVERY_GAME


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_game_s_rules_page_names_it_shows_its_board_and_speaks_no_rule_id(
    client: FlaskClient, game: str
) -> None:
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f"How to play {pages()[game].title}" in html
    figure = html.split('id="rules-board"', 1)[1].split("</figure>", 1)[0]
    assert "<svg" in figure and 'role="img"' in figure
    text = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    assert RULE_ID.findall(text) == []
    for option in option_fields(GAMES[game]):
        assert pages()[game].options.get(option.name), f"{game}'s option {option.name} is not explained"


@pytest.mark.usefixtures("test_families")
def test_the_rules_index_links_every_game(client: FlaskClient) -> None:
    html = client.get("/rules").get_data(as_text=True)
    linked = {a["data-game"]: a["href"] for tag, a, _ in elements(html) if tag == "a" and "data-game" in a}
    assert linked == {game: f"/rules/{game}" for game in EVERY_GAME}


def test_an_unknown_game_has_a_404_page_in_words(client: FlaskClient) -> None:
    response = client.get("/rules/chess")
    assert response.status_code == 404 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert by_id(html, "missing") is not None and "chess" in html
    assert "no rules to show" in html


def test_the_new_game_form_explains_each_option_in_words_with_a_question_mark(client: FlaskClient) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    fields = [field for game in sorted(GAMES) for field in option_fields(GAMES[game])]
    assert fields
    for field in fields:
        hint = by_id(html, f"{field.field}-hint")
        assert hint is not None, field.field
    helps = re.findall(r'<details class="option-help">(.*?)</details>', html, flags=re.S)
    assert len(helps) == len(fields)
    assert all(">?<" in help_ for help_ in helps)
    form = html.split('id="new-game"', 1)[1]
    assert RULE_ID.findall(form) == []
    assert by_id(html, "rules-link")["href"] == "/rules"


def test_the_lobby_and_the_kahuna_rules_offer_the_guided_game(client: FlaskClient) -> None:
    for page in ("/", "/rules/kahuna"):
        html = client.get(page).get_data(as_text=True)
        assert by_id(html, "learn-kahuna")["action"] == "/learn/kahuna", page
    assert by_id(client.get("/").get_data(as_text=True), "rules-link")["href"] == "/rules"


def test_learn_kahuna_starts_a_game_against_the_random_computer_with_the_guide_on(
    client: FlaskClient,
) -> None:
    response = client.post("/learn/kahuna")
    assert response.status_code == 303
    game_id, token = re.fullmatch(
        r"/play/(\w+)#token=(\S+)&guide=kahuna", response.location.removeprefix("http://localhost")
    ).groups()
    seen = client.get(f"/games/{game_id}", headers=bearer(token)).json
    assert seen["game"] == "kahuna" and seen["viewer"] == 0 and seen["active"] == 0
    assert [seat.get("ai") for seat in seen["seats"]] == [None, "random"]


def test_a_cross_site_learn_kahuna_writes_nothing(client: FlaskClient, redis_client: redis.Redis) -> None:
    response = client.post("/learn/kahuna", headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert redis_client.keys("game:*") == []


def test_the_play_and_replay_pages_link_to_their_game_s_rules(client: FlaskClient) -> None:
    game_id = client.post("/learn/kahuna").location.split("/play/", 1)[1].split("#", 1)[0]
    for page in (f"/play/{game_id}", f"/replay/{game_id}"):
        html = client.get(page).get_data(as_text=True)
        assert by_id(html, "rules-link")["href"] == "/rules/kahuna", page
