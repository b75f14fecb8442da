"""Nanuuk! and its learning games over HTTP: every mode to its end, against people or the
computer, with undo, takebacks, replay, notation, export and import (docs/nanuuk.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from replays.notation.hex_cells import HexRecord
from tests.api.helpers import NAMES, bearer, events, legal_commands, post, view

NDJSON = "application/x-ndjson"
MODES = [
    ("nanuuk", 2, {}),
    ("nanuuk", 2, {"two_hunters": True, "pre_cracks": 2}),
    ("nanuuk", 3, {"double_move_cracks": "mover_chooses", "keep_igloo_reachable": True}),
    ("nanuuk", 4, {}),
    ("nanuuk-learning", 2, {}),
    ("nanuuk-learning", 4, {}),
    ("nanuuk-bear-hunt", 2, {"bear_may_stay": True}),
    ("nanuuk-bear-hunt", 3, {"play_on": True}),
    ("nanuuk-bear-flight", 2, {"bears": 2}),
    ("nanuuk-partners", 4, {"aim": "right"}),
    ("nanuuk-helper", 2, {}),
]


def create(
    client: FlaskClient, game: str, seats: list[dict[str, Any]], options: dict[str, Any]
) -> dict[str, Any]:
    answer = client.post("/games", json={"game": game, "seats": seats, "first_seat": 0, "options": options})
    assert answer.status_code == 201, answer.json
    created: dict[str, Any] = answer.json
    created["tokens"] = [s.get("token") for s in created["seats"]]
    return created


def people(count: int) -> list[dict[str, Any]]:
    return [{"name": name} for name in NAMES[:count]]


def play_to_the_end(client: FlaskClient, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Random legal commands of the seat the game waits for, each sent with If-Match."""
    for _ in range(3000):
        current = view(client, game)
        if current["phase"] == "ended":
            return current
        (seat,) = current["to_act"]
        commands = legal_commands(client, game, seat)["commands"]
        assert commands, f"seat {seat} is to act but may do nothing"
        answer = post(client, game, seat, rng.choice(commands), **{"If-Match": f'"{current["version"]}"'})
        assert answer.status_code == 200, answer.json
    raise AssertionError("no end after 3000 commands")


@pytest.mark.parametrize(("game", "seats", "options"), MODES, ids=lambda m: str(m))
def test_every_mode_plays_to_its_end_over_http_and_its_record_travels(
    client: FlaskClient, game: str, seats: int, options: dict[str, Any]
) -> None:
    created = create(client, game, people(seats), options)
    first = view(client, created)
    assert first["phase"] == "placing" and len(first["ice"]) + len(first["water"]) == 31

    ended = play_to_the_end(client, created, random.Random(seats * 7 + len(options)))

    result = ended["result"]
    assert result["winners"] and set(result["winners"]) <= set(range(seats))
    assert ended["scores"] == result["totals"]
    game_id = created["game_id"]
    replay = client.get(f"/games/{game_id}/replay")
    assert replay.status_code == 200 and replay.json["steps"][-1]["version"] == ended["version"]
    text = client.get(f"/games/{game_id}/notation")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    assert text.get_data(as_text=True).startswith(f'[Game "{game}"]')
    exported = client.get(f"/games/{game_id}/export")
    assert exported.status_code == 200, exported.json
    imported = client.post("/games/import", data=exported.data, content_type=NDJSON)
    assert imported.status_code == 201, imported.json
    again = client.get(f"/games/{imported.json['game_id']}")
    assert again.json["result"] == result and again.json["cracks"] == ended["cracks"]
    assert client.get(f"/games/{imported.json['game_id']}/export").data == exported.data


def test_the_notation_over_http_reads_back_in_the_hex_grammar(client: FlaskClient) -> None:
    from replays.notation import parse

    created = create(client, "nanuuk-learning", people(2), {})
    play_to_the_end(client, created, random.Random(3))
    text = client.get(f"/games/{created['game_id']}/notation").get_data(as_text=True)
    record = parse(text)
    assert isinstance(record, HexRecord) and record.tag("Game") == "nanuuk-learning"
    moves = [e for e in events(client, created)["events"] if e["type"] == "PieceMoved"]
    assert sum(
        len([s for s in line.steps if s.kind == "move"]) for line in record.lines if hasattr(line, "steps")
    ) == len(moves)


def _to_move(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """Play the placements (each seat's hunter on the first igloo offered) up to the first move."""
    while view(client, game)["phase"] == "placing":
        current = view(client, game)
        (seat,) = current["to_act"]
        assert post(client, game, seat, legal_commands(client, game, seat)["commands"][0]).status_code == 200
    return view(client, game)


def test_a_seat_undoes_its_own_step_before_placing_the_crack(client: FlaskClient) -> None:
    created = create(client, "nanuuk", people(2), {})
    before = _to_move(client, created)
    seat = before["active"]
    move = next(c for c in legal_commands(client, created, seat)["commands"] if c["type"] == "Move")
    assert post(client, created, seat, move).status_code == 200
    assert view(client, created)["pieces"] != before["pieces"]

    undone = client.post(
        f"/games/{created['game_id']}/undo", json={"scope": "turn"}, headers=bearer(created["tokens"][seat])
    )

    assert undone.status_code == 200, undone.json
    after = view(client, created)
    assert (after["pieces"], after["cracks"], after["active"]) == (before["pieces"], before["cracks"], seat)


def test_an_earlier_turn_is_taken_back_when_the_other_seat_accepts(client: FlaskClient) -> None:
    created = create(client, "nanuuk-learning", people(2), {})
    placed = _to_move(client, created)
    rng = random.Random(2)
    while view(client, created)["active"] == placed["active"]:
        seat = placed["active"]
        assert (
            post(
                client, created, seat, rng.choice(legal_commands(client, created, seat)["commands"])
            ).status_code
            == 200
        )
    mover = placed["active"]

    asked = client.post(
        f"/games/{created['game_id']}/takebacks",
        json={"to_version": placed["version"]},
        headers=bearer(created["tokens"][mover]),
    )
    assert asked.status_code == 201, asked.json
    other = 1 - mover
    accepted = client.post(
        f"/games/{created['game_id']}/takebacks/current",
        json={"accept": True},
        headers=bearer(created["tokens"][other]),
    )

    assert accepted.status_code == 200, accepted.json
    again = view(client, created)
    assert (again["pieces"], again["cracks"], again["active"]) == (placed["pieces"], placed["cracks"], mover)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "Move", "piece": 0, "cell": [9, 9]},
        {"type": "Move", "piece": 0, "cell": [0]},
        {"type": "Move", "piece": "zero", "cell": [0, 0]},
        {"type": "PlaceCrack", "crack": [[0, 0], [5, 5]]},
        {"type": "Retire", "piece": 63},
        {"type": "Exchange", "animal": "penguin"},
    ],
)
def test_bad_commands_are_refused_with_a_code_and_write_nothing(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    created = create(client, "nanuuk", people(2), {})
    before = _to_move(client, created)

    answer = post(client, created, before["active"], body)

    assert 400 <= answer.status_code < 500 and answer.mimetype == "application/problem+json"
    assert answer.json["code"]
    assert view(client, created)["version"] == before["version"]


@pytest.mark.parametrize(
    ("game", "seats", "kind"), [("nanuuk", 2, "ismcts"), ("nanuuk-bear-hunt", 2, "greedy")]
)
def test_a_person_plays_against_the_computer_to_the_end(
    client: FlaskClient,
    run_jobs: Callable[[], None],
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    seats: int,
    kind: str,
) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "8")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")
    monkeypatch.setenv("ARCHIPELAGO_ANALYSIS_SECONDS", "60")
    created = create(client, game, [{"name": "Ann"}, {"name": "Bot", "ai": kind, "level": 1}], {})
    rng = random.Random(5)
    for _ in range(600):
        run_jobs()
        current = view(client, created, 0)
        if current["phase"] == "ended":
            break
        assert current["to_act"] == [0], "the computer seat did not move"
        command = rng.choice(legal_commands(client, created, 0)["commands"])
        assert post(client, created, 0, command).status_code == 200
    else:
        raise AssertionError("the game did not end")
    by_bot = [e for e in events(client, created)["events"] if e["actor"] == "seat:1"]
    assert by_bot and view(client, created)["result"] is not None


def test_a_seat_highlights_a_cell_and_a_line_and_the_replay_page_outlines_them(client: FlaskClient) -> None:
    created = create(client, "nanuuk-helper", people(2), {})
    ended = play_to_the_end(client, created, random.Random(6))
    game_id = created["game_id"]
    note = {"version": 4, "kind": "highlight", "islands": ["0,-1"], "lines": [["1,0", "1,1"]], "text": "here"}

    answer = client.post(f"/games/{game_id}/annotations", json=note, headers=bearer(created["tokens"][0]))

    assert answer.status_code == 201, answer.json
    page = client.get(f"/replay/{game_id}/frame?version=4")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'class="cell lit" data-cell="0,-1"' in html and 'data-line="1,0|1,1"' in html
    assert ended["phase"] == "ended"


@pytest.mark.parametrize(
    ("note", "code"),
    [
        ({"islands": ["9,9"]}, "unknown_island"),
        ({"lines": [["0,-1", "1,1"]]}, "unknown_line"),
        ({"islands": ["ALOA"]}, "unknown_island"),
    ],
)
def test_a_highlight_of_no_cell_or_no_line_of_the_board_is_refused(
    client: FlaskClient, note: dict[str, Any], code: str
) -> None:
    created = create(client, "nanuuk", people(2), {})
    body = {"version": 1, "kind": "highlight", **note}

    answer = client.post(
        f"/games/{created['game_id']}/annotations", json=body, headers=bearer(created["tokens"][0])
    )

    assert answer.status_code == 422 and answer.json["code"] == code
    assert client.get(f"/games/{created['game_id']}/annotations").json["annotations"] == []
