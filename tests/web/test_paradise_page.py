"""The play page of Conquest of Paradise: the hex map with its fog of war, stacks by their
visible top, exactly the commands /legal lists, the build phase as a form, the end."""

from __future__ import annotations

import json
import random
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import legal_commands, post, view
from tests.api.test_paradise_http import create, play_until
from tests.web.pages import by_id, elements, offered, panel


def canonical(commands: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(c, sort_keys=True) for c in commands)


def hexes(html: str) -> dict[str, str]:
    """Each map hex's hook and its words (the aria-label a screen reader says)."""
    return {
        a["data-hex"]: a.get("aria-label", "")
        for tag, a, within in elements(html)
        if tag == "g" and "data-hex" in a and "board" in within
    }


def test_the_panel_offers_exactly_the_commands_legal_lists_at_every_step(client: FlaskClient) -> None:
    game = create(client, 3, last_turn=2)
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        current = view(client, game)
        if current["phase"] == "ended":
            break
        for seat in range(3):
            commands = legal_commands(client, game, seat)["commands"]
            assert canonical(offered(panel(client, game["game_id"], game["tokens"][seat]))) == canonical(
                commands
            )
            checked += 1
        seat = current["acting"][0]
        assert (
            post(client, game, seat, rng.choice(legal_commands(client, game, seat)["commands"])).status_code
            == 200
        )
    assert checked >= 60


def test_the_map_hides_unexplored_hexes_and_unexamined_tiles(client: FlaskClient) -> None:
    game = create(client, 3)
    current = play_until(client, game, random.Random(8), lambda v: v["phase"] == "move")
    spectator = hexes(panel(client, game["game_id"]))
    assert len(spectator) == 160
    unknown = {f"{c},{r}" for c, r in current["unknown"]}
    assert unknown and all("unexplored" in spectator[h] for h in unknown)
    for island in current["islands"]:
        key = f"{island['hex'][0]},{island['hex'][1]}"
        if "name" in island:
            assert island["name"] in spectator[key]
        else:
            assert "face-down island tile" in spectator[key]
    finder = next(
        (i for i in view(client, game, 0)["islands"] if "name" in i and 0 in i["discoverers"]), None
    )
    if finder is not None and not finder["face_up"]:
        key = f"{finder['hex'][0]},{finder['hex'][1]}"
        assert finder["name"] in hexes(panel(client, game["game_id"], game["tokens"][0]))[key]
        assert finder["name"] not in panel(client, game["game_id"])


def test_a_stack_shows_its_height_to_all_and_its_pieces_to_its_owner(client: FlaskClient) -> None:
    game = create(client, 3)
    play_until(client, game, random.Random(8), lambda v: v["phase"] == "move")
    stack = view(client, game, 0)["stacks"]
    own = next(s for s in stack if s["seat"] == 0)
    key = f"{own['hex'][0]},{own['hex'][1]}"
    mine = hexes(panel(client, game["game_id"], game["tokens"][0]))[key]
    theirs = hexes(panel(client, game["game_id"], game["tokens"][1]))[key]
    assert f"Ann's stack of {own['count']}" in mine and f"Ann's stack of {own['count']}" in theirs
    kind = next(k for k, n in own["pieces"].items() if n)
    assert f"{own['pieces'][kind]} {kind}" in mine and "(" not in theirs.split("Ann's stack")[1]


def test_the_build_phase_is_a_form_of_the_legal_build_orders_sent_together(client: FlaskClient) -> None:
    game = create(client, 3)
    current = play_until(client, game, random.Random(8), lambda v: v["phase"] == "build")
    seat = current["acting"][0]
    html = panel(client, game["game_id"], game["tokens"][seat])
    assert by_id(html, "build-form") is not None and by_id(html, "build-submit") is not None
    options = [
        json.loads(a["value"])
        for tag, a, within in elements(html)
        if tag == "option" and "build-form" in within
    ]
    commits = [c for c in legal_commands(client, game, seat)["commands"] if c["type"] == "EndBuild"]
    alone = [c["orders"][0] for c in commits if len(c.get("orders", ())) == 1]
    assert options and canonical(options) == canonical(alone)
    assert by_id(html, "build-add") is not None
    assert post(client, game, seat, {"type": "EndBuild", "orders": options[:1]}).status_code == 200
    orders = panel(client, game["game_id"], game["tokens"][seat])
    assert "none yet" not in orders.split('id="orders"')[1].split("</ul>")[0]
    assert 'id="orders"' not in panel(client, game["game_id"]), "a spectator sees no build orders"


def test_the_end_screen_names_the_winners_and_their_vp(client: FlaskClient) -> None:
    game = create(client, 2, last_turn=2)
    final = play_until(client, game, random.Random(3), lambda v: False)
    html = panel(client, game["game_id"])
    result = html.split('id="result"')[1].split("</section>")[0]
    assert all(final["seats"][w]["name"] in result for w in final["result"]["winners"])
    assert "VP" in result


def test_the_lobby_form_switches_on_the_advanced_rules(client: FlaskClient) -> None:
    form = {
        "game": "conquest-of-paradise",
        "seat-0": "human",
        "name-0": "Ann",
        "seat-1": "random",
        "seat-2": "random",
        "opt-conquest-of-paradise-malaria": "on",
        "opt-conquest-of-paradise-kumara": "on",
        "options": '{"last_turn": 3}',
    }
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.data
    game_id = response.location.split("/play/")[1].split("#")[0]
    created = client.get(f"/games/{game_id}/events?after=0").json["events"][0]
    assert created["data"]["options"] == {"malaria": True, "kumara": True, "last_turn": 3}


def test_a_highlight_of_a_hex_shows_on_its_replay_step(client: FlaskClient) -> None:
    game = create(client, 2, last_turn=2)
    play_until(client, game, random.Random(3), lambda v: False)
    note = {"author": "Kim", "version": 6, "kind": "highlight", "text": "Tonga", "islands": ["5,6"]}
    assert client.post(f"/games/{game['game_id']}/annotations", json=note).status_code == 201
    frame = client.get(f"/replay/{game['game_id']}/frame?version=6").get_data(as_text=True)
    lit = [
        a["data-hex"] for tag, a, _ in elements(frame) if tag == "g" and "lit" in a.get("class", "").split()
    ]
    assert lit == ["5,6"] and "Tonga" in frame


def test_the_end_screen_s_side_panel_gives_the_result_s_vp_and_shows_every_hand(client: FlaskClient) -> None:
    game = create(client, 2, last_turn=2)
    final = play_until(client, game, random.Random(3), lambda v: False)
    rows = [a for _, a, _ in elements(panel(client, game["game_id"])) if "data-vp" in a]
    assert [float(a["data-vp"]) for a in rows] == final["result"]["vp"]
    hands = [
        a["data-hand"].split(",") for _, a, _ in elements(panel(client, game["game_id"])) if "data-hand" in a
    ]
    assert hands == [cards for cards in final["result"]["cards"] if cards]
