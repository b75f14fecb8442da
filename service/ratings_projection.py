"""The ratings projection: one rating per game kind for each rated player, with its history,
from the results of rated tournaments (domain.ratings.rate, openskill).

It reads the tournaments' all-events streams (`tournaments:$all`, or one per bucket on a Redis
Cluster) from its checkpoint, the position read up to in each of them, and keeps
every rated result of each game kind in the order it was recorded. A correction replaces
the result of its game in that list; the game kind's ratings are then computed again from
its first result on, in order: a rating depends on every game before it, so a corrected
result changes the ratings of every later game too, and recomputing is the simplest way
that is sure to agree with the log. The checkpoints, the results and the ratings are one
JSON value under one key, written in one transaction with the checkpoint it was read at
(WATCH), so a projection never stores a result without its checkpoint nor counts one twice.

Who is rated (docs/tournaments.md, "Who is rated"): a person's entrant registered with a
player token is that player (its id), whichever tournament it plays in. Every other entrant
is a one-off player of its tournament alone, keyed by tournament and entrant: a person
registered without a player token (and every person of a tournament stored before there
were players), and each computer entrant, so that several computer entrants of one level
at one table are as many players. A name never joins two entrants. A game whose seats are
all computer entrants is not rated: it tells nothing about a person.
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
IDENTITY = 2
"""How the stored projection keys its players; a projection stored under another way (by
name, before there were players) is read again from the first event."""


def player_of(tournament_id: str, entrant: Mapping[str, Any]) -> dict[str, Any]:
    """The rated player an EntrantRegistered names: its key, the name shown, its kind, and
    the one tournament a one-off player belongs to (None for a player held by a token)."""
    about = {"name": entrant["name"], "kind": entrant["kind"]}
    if entrant.get("player") is not None:
        return {"key": entrant["player"], **about, "tournament": None}
    return {"key": f"{tournament_id}:{entrant['entrant']}", **about, "tournament": tournament_id}


def empty() -> dict[str, Any]:
    """No event read yet: `streams` holds the position read up to in each all-events stream,
    `checkpoint` how many events were read in all (on one Redis, the position in its stream)."""
    return {
        "identity": IDENTITY,
        "checkpoint": 0,
        "streams": {},
        "tournaments": {},
        "results": {},
        "ratings": {},
    }


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
        about["players"][data["entrant"]] = player_of(tournament_id, data)
        return None
    if envelope.type not in ("ResultRecorded", "ResultCorrected"):
        return None
    players = [about["players"][entrant] for entrant in data["seats"]]
    if all(p["kind"] == "ai" for p in players):
        return None  # computer entrants only: not rated
    result = {
        "game_id": data["game_id"],
        "tournament": tournament_id,
        "at": envelope.at,
        "places": {p["key"]: place for p, place in zip(players, data["places"], strict=True)},
        "players": {p["key"]: p for p in players},
    }
    results = doc["results"].setdefault(about["game"], [])
    earlier = [i for i, r in enumerate(results) if r["game_id"] == data["game_id"]]
    if earlier:
        results[earlier[0]] = result
    else:
        results.append(result)
    return str(about["game"])


def computed(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every player's rating and history after `results`, in order; a player shows the name
    of its newest rated game."""
    ratings: dict[str, Rating] = {}
    players: dict[str, dict[str, Any]] = {}
    for result in results:
        if len(result["places"]) < 2:
            continue  # one player in every seat, which the rules refuse: nothing to learn
        new = rate(ratings, result["places"])
        ratings.update(new)
        for key, rating in new.items():
            about = result["players"][key]
            entry = players.setdefault(key, {"player": key, "history": []})
            entry.update(name=about["name"], kind=about["kind"], tournament=about["tournament"])
            step = {"game_id": result["game_id"], "tournament": result["tournament"], "at": result["at"]}
            entry["history"].append({**step, **_figures(rating)})
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
        return doc["checkpoint"], sorted(players, key=lambda p: (-p["ordinal"], p["name"], p["player"]))

    @staticmethod
    def _doc(raw: Any) -> dict[str, Any]:
        doc = {} if raw is None else dict(json.loads(raw))
        if doc.get("identity") != IDENTITY:
            return empty()
        # Written before there were several streams: its checkpoint is the position in the one.
        doc.setdefault("streams", {GLOBAL_STREAMS[TOURNAMENT]: doc["checkpoint"]})
        return doc
