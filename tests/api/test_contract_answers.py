"""Each registered game's schemas are true: a whole game of every game, played with random legal
commands through the checking test client (tests/api/contract.py), has every view (each seat's
and a spectator's), every list of legal commands and every event (with each seat's secrets)
valid against the served document."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask import Flask

from tests.api.helpers import bearer
from tests.api.test_contract_client import MAX_COMMANDS, SHORT
from tests.families.registered import EVERY_GAME, EVERY_MODULE

VARIANTS = [
    ("nanuuk", 2, {"two_hunters": True, "double_move_cracks": "mover_chooses", "pre_cracks": 3}),
    ("nanuuk-bear-hunt", 3, {"bear_may_stay": True, "play_on": True, "crack_each_step": True}),
    ("nanuuk-bear-flight", 2, {"bears": 3, "bear_may_stay": True, "bear_must_move_twice": True}),
    ("nanuuk-partners", 4, {"aim": "left"}),
    (
        "conquest-of-paradise",
        3,
        {
            "variable_start": True,
            "saved_resources": True,
            "malaria": True,
            "south_island": True,
            "kumara": True,
            "end_shift": -3,
            "last_turn": 3,
        },
    ),
]
"""Options that bring in fields, events and view keys the defaults leave out."""


@pytest.mark.usefixtures("test_families")  # the families that live in the tests are checked too
@pytest.mark.parametrize(
    ("name", "seats", "options"),
    [(name, EVERY_MODULE[name].max_seats, SHORT.get(name, {})) for name in EVERY_GAME] + VARIANTS,
)
def test_every_answer_of_a_whole_game_matches_the_games_declared_schemas(
    name: str, seats: int, options: dict[str, object], app: Flask, run_worker: Callable[[], None]
) -> None:
    client = app.test_client()  # checks each answer against the served document
    rng = random.Random(name)
    names = [{"name": f"P{n}"} for n in range(seats)]
    body = {"game": name, "seats": names, "first_seat": 0, "options": options}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.json
    game_id, tokens = created.json["game_id"], [s["token"] for s in created.json["seats"]]
    path = f"/games/{game_id}"
    for _ in range(MAX_COMMANDS):
        spectator = client.get(path)
        assert spectator.status_code == 200
        if spectator.json["phase"] == "ended":
            break
        sent = False
        for token in tokens:
            assert client.get(path, headers=bearer(token)).status_code == 200
            legal = client.get(f"{path}/legal", headers=bearer(token)).json["commands"]
            if legal and not sent:
                done = client.post(f"{path}/commands", json=rng.choice(legal), headers=bearer(token))
                assert done.status_code == 200, done.json
                sent = True
        if not sent:
            run_worker()  # the round waits for its scoring
    else:
        raise AssertionError(f"{name} did not end within {MAX_COMMANDS} commands")
    assert spectator.json["result"] is not None
    for headers in [{}, *(bearer(t) for t in tokens)]:
        log = client.get(f"{path}/events", headers=headers)
        ends = (EVERY_MODULE[name].end_event, "RoundScored")
        assert log.status_code == 200 and log.json["events"][-1]["type"] in ends
