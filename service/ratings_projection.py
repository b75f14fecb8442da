"""The ratings projection: one rating per game kind for each person and each AI level, with
its history, from the results of rated tournaments (domain.ratings.rate, openskill).

It reads the tournaments' all-events streams (`tournaments:$all`, or one per bucket on a Redis
Cluster) from its checkpoint, the position read up to in each of them, and keeps
every rated result of each game kind in the order it was recorded. A correction replaces
the result of its game in that list; the game kind's ratings are then computed again from
its first result on, in order: a rating depends on every game before it, so a corrected
result changes the ratings of every later game too, and recomputing is the simplest way
that is sure to agree with the log. The checkpoints, the results and the ratings are one
JSON value under one key, written in one transaction with the checkpoint it was read at
(WATCH), so a projection never stores a result without its checkpoint nor counts one twice.

A person is rated by name (an entrant's name, case-insensitive): the service has no
accounts. Each AI level is one player, "AI level <n>", whichever tournament it plays in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

from domain.ratings import Rating, initial_rating, rate
from record.envelope import Envelope, EventStorePort
from service.keys import GLOBAL_STREAMS, TOURNAMENT

KEY = "ratings:projection"
RETRIES = 10


def player_of(entrant: Mapping[str, Any]) -> dict[str, str]:
    """The rated player an EntrantRegistered names: its key and the name shown."""
    if entrant["kind"] == "ai":
        return {"key": f"ai:{entrant['level']}", "name": f"AI level {entrant['level']}", "kind": "ai"}
    return {"key": f"person:{entrant['name'].casefold()}", "name": entrant["name"], "kind": "person"}


def empty() -> dict[str, Any]:
    """No event read yet: `streams` holds the position read up to in each all-events stream,
    `checkpoint` how many events were read in all (on one Redis, the position in its stream)."""
    return {"checkpoint": 0, "streams": {}, "tournaments": {}, "results": {}, "ratings": {}}


def apply(doc: dict[str, Any], tournament_id: str, envelope: Envelope) -> str | None:
    """Fold one tournament event into `doc`; the game kind whose results changed, if any."""
    data = envelope.data
    if envelope.type == "TournamentCreated":
        doc["tournaments"][tournament_id] = {"game": data["game"], "rated": data["rated"], "players": {}}
        return None
    about = doc["tournaments"].get(tournament_id)
    if about is None or not about["rated"]:
        return None
    if envelope.type == "EntrantRegistered":
        about["players"][data["entrant"]] = player_of(data)
        return None
    if envelope.type not in ("ResultRecorded", "ResultCorrected"):
        return None
    players = [about["players"][entrant] for entrant in data["seats"]]
    result = {
        "game_id": data["game_id"],
        "tournament": tournament_id,
        "at": envelope.at,
        "places": {p["key"]: place for p, place in zip(players, data["places"], strict=True)},
        "names": {p["key"]: p["name"] for p in players},
    }
    results = doc["results"].setdefault(about["game"], [])
    earlier = [i for i, r in enumerate(results) if r["game_id"] == data["game_id"]]
    if earlier:
        results[earlier[0]] = result
    else:
        results.append(result)
    return str(about["game"])


def computed(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every player's rating and history after `results`, in order."""
    ratings: dict[str, Rating] = {}
    players: dict[str, dict[str, Any]] = {}
    for result in results:
        places = result["places"]
        if len(places) < 2:
            continue  # one player met itself (two entrants of the same AI level): nothing to learn
        new = rate(ratings, places)
        ratings.update(new)
        for key, rating in new.items():
            entry = players.setdefault(key, {"player": key, "name": result["names"][key], "history": []})
            entry["history"].append({"game_id": result["game_id"], "at": result["at"], **_figures(rating)})
    for key, entry in players.items():
        entry.update(_figures(ratings.get(key, initial_rating())))
    return players


def _figures(rating: Rating) -> dict[str, Any]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "games": rating.games}


class RatingsProjection:
    """Catches the ratings up with the tournaments' events and answers GET /ratings/{game}."""

    def __init__(self, client: redis.Redis | RedisCluster, store: EventStorePort) -> None:
        self._redis = client
        self._store = store

    def update(self) -> int:
        """Fold the events after the checkpoint; the number of events read."""
        for _ in range(RETRIES):
            with self._redis.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(KEY)
                    doc = self._doc(pipe.get(KEY))
                    pointers = self._store.read_pointers(doc["streams"])
                    changed = set()
                    for pointer in pointers:
                        tournament_id, version = pointer.game_id, pointer.version
                        for envelope in self._store.read(tournament_id, after=version - 1, upto=version):
                            changed.add(apply(doc, tournament_id, envelope))
                        doc["streams"][pointer.stream] = pointer.position
                        doc["checkpoint"] += 1
                    for game in changed - {None}:
                        doc["ratings"][game] = computed(doc["results"][game])
                    pipe.multi()
                    pipe.set(KEY, json.dumps(doc, sort_keys=True))
                    pipe.execute()
                    return len(pointers)
                except redis.WatchError:
                    continue
        raise RuntimeError("the ratings kept changing under this update")

    def ratings(self, game: str) -> tuple[int, list[dict[str, Any]]]:
        """The checkpoint and the players of `game`, best ordinal first."""
        doc = self._doc(self._redis.get(KEY))
        players = list(doc["ratings"].get(game, {}).values())
        return doc["checkpoint"], sorted(players, key=lambda p: (-p["ordinal"], p["name"]))

    @staticmethod
    def _doc(raw: Any) -> dict[str, Any]:
        if raw is None:
            return empty()
        doc = dict(json.loads(raw))
        # Written before there were several streams: its checkpoint is the position in the one.
        doc.setdefault("streams", {GLOBAL_STREAMS[TOURNAMENT]: doc["checkpoint"]})
        return doc
