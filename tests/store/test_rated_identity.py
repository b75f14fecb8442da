"""Who the ratings rate: a player by its id across tournaments, every other entrant as a one-off
player of its tournament (a computer entrant too), never a name; a game of computer entrants
alone is not rated."""

from __future__ import annotations

import json
from typing import Any

import redis

from service.keys import TOURNAMENT
from service.ratings_projection import KEY, RatingsProjection
from service.store import EventStore, NewEvent

ANN = "p0000000000000a11"


def _person(name: str, player: str | None = None) -> dict[str, Any]:
    return {"kind": "person", "name": name, "level": None, **({} if player is None else {"player": player})}


def _computer(level: int, name: str) -> dict[str, Any]:
    return {"kind": "ai", "name": name, "level": level}


def _tournament(store: EventStore, tournament_id: str, game: str, *entrants: dict[str, Any]) -> None:
    """A rated tournament of `entrants` (e1, e2, ... in order), as its stored events read."""
    created = NewEvent(f"{tournament_id}:0", "TournamentCreated", {"game": game, "rated": True})
    registered = [
        NewEvent(f"{tournament_id}:{i}", "EntrantRegistered", {"entrant": f"e{i}", "round": 0, **entrant})
        for i, entrant in enumerate(entrants, start=1)
    ]
    store.append(tournament_id, 0, [created, *registered])


def _result(store: EventStore, tournament_id: str, game_id: str, seats: list[str], places: list[int]) -> None:
    data = {"game_id": game_id, "seats": seats, "places": places}
    store.append(
        tournament_id, store.version(tournament_id), [NewEvent(f"r:{game_id}", "ResultRecorded", data)]
    )


def _players(client: redis.Redis, store: EventStore, game: str = "kahuna") -> dict[str, dict[str, Any]]:
    projection = RatingsProjection(client, store)
    projection.update()
    return {p["player"]: p for p in projection.ratings(game)[1]}


def test_a_namesake_in_another_tournament_inherits_nothing(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    _tournament(store, "t1", "kahuna", _person("Ann", ANN), _person("Ben"))
    _result(store, "t1", "g1", ["e1", "e2"], [1, 2])
    _tournament(store, "t2", "kahuna", _person("ann"), _person("Cy"))  # not Ann: no player token
    _result(store, "t2", "g2", ["e1", "e2"], [1, 2])

    players = _players(redis_client, store)

    assert players[ANN]["games"] == 1
    namesake = players["t2:e1"]
    assert (namesake["name"], namesake["games"], namesake["tournament"]) == ("ann", 1, "t2")
    assert namesake["mu"] == players[ANN]["mu"], "both won their first game from the start"


def test_persons_stored_without_a_player_are_one_off_players_of_their_tournament(
    redis_client: redis.Redis,
) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    for tournament_id in ("t1", "t2"):
        _tournament(store, tournament_id, "kahuna", _person("Ann"), _person("Ben"))
        _result(store, tournament_id, f"g-{tournament_id}", ["e1", "e2"], [1, 2])

    players = _players(redis_client, store)

    assert sorted(players) == ["t1:e1", "t1:e2", "t2:e1", "t2:e2"]
    assert all(p["games"] == 1 for p in players.values())


def test_one_player_under_two_names_in_two_tournaments_has_one_history(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    _tournament(store, "t1", "kahuna", _person("Ann", ANN), _person("Ben"))
    _result(store, "t1", "g1", ["e1", "e2"], [1, 2])
    _tournament(store, "t2", "kahuna", _person("Cy"), _person("Ann Moss", ANN))
    _result(store, "t2", "g2", ["e1", "e2"], [2, 1])

    ann = _players(redis_client, store)[ANN]

    assert (ann["games"], ann["name"], ann["tournament"]) == (2, "Ann Moss", None)
    assert [(s["tournament"], s["game_id"], s["games"]) for s in ann["history"]] == [
        ("t1", "g1", 1),
        ("t2", "g2", 2),
    ]
    assert ann["history"][1]["mu"] > ann["history"][0]["mu"], "a second win, on from the first"


def test_three_level_1_computer_seats_at_a_four_seat_table_are_rated_as_four_players(
    redis_client: redis.Redis,
) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    computers = [_computer(1, f"AI level 1 (e{i})") for i in (2, 3, 4)]
    _tournament(store, "t1", "arabana-opodopo", _person("Ann", ANN), *computers)
    _result(store, "t1", "g1", ["e4", "e2", "e1", "e3"], [1, 2, 3, 4])

    players = _players(redis_client, store, "arabana-opodopo")

    assert sorted(players) == sorted([ANN, "t1:e2", "t1:e3", "t1:e4"])
    assert all(p["games"] == 1 for p in players.values())
    by_mu = sorted(players, key=lambda key: -players[key]["mu"])
    assert by_mu == ["t1:e4", "t1:e2", ANN, "t1:e3"], "each moved by its own place"


def test_a_game_of_computer_entrants_alone_is_not_rated(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    _tournament(store, "t1", "kahuna", _computer(1, "Red"), _computer(2, "Blue"), _person("Ann", ANN))
    _result(store, "t1", "g1", ["e1", "e2"], [1, 2])
    assert _players(redis_client, store) == {}

    _result(store, "t1", "g2", ["e3", "e1"], [1, 2])
    players = _players(redis_client, store)

    assert sorted(players) == sorted([ANN, "t1:e1"]) and players["t1:e1"]["games"] == 1
    assert players["t1:e1"]["kind"] == "ai"


def test_a_projection_stored_by_name_is_read_again_from_the_first_event(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    for tournament_id in ("t1", "t2"):
        _tournament(store, tournament_id, "kahuna", _person("Ann"), _person("Ben"))
        _result(store, tournament_id, f"g-{tournament_id}", ["e1", "e2"], [1, 2])
    by_name = {"games": 2, "history": [], "mu": 30.0, "sigma": 5.0, "ordinal": 15.0, "name": "Ann"}
    stored = {
        "checkpoint": 8,
        "streams": {"tournaments:$all": 8},
        "tournaments": {},
        "results": {},
        "ratings": {"kahuna": {"person:ann": {"player": "person:ann", **by_name}}},
    }
    redis_client.set(KEY, json.dumps(stored))
    projection = RatingsProjection(redis_client, store)

    assert projection.ratings("kahuna") == (0, []), "the name-keyed ratings are no longer answered"
    assert projection.update() == 8, "every event is read again"
    assert sorted(p["player"] for p in projection.ratings("kahuna")[1]) == [
        "t1:e1",
        "t1:e2",
        "t2:e1",
        "t2:e2",
    ]


def test_a_stored_table_of_one_player_twice_rates_nothing_and_the_projection_goes_on(
    redis_client: redis.Redis,
) -> None:
    store = EventStore(redis_client, kind=TOURNAMENT)
    _tournament(store, "t1", "kahuna", _person("Ann", ANN), _person("Ann again", ANN), _person("Ben"))
    _result(store, "t1", "g1", ["e1", "e2"], [1, 2])  # the rules refuse this; the log may not
    _result(store, "t1", "g2", ["e3", "e1"], [1, 2])

    players = _players(redis_client, store)

    assert {key: p["games"] for key, p in players.items()} == {ANN: 1, "t1:e3": 1}
