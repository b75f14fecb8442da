"""Many clients on few games through real gunicorn processes and an RQ worker: commands and
their retries (the same Idempotency-Key, the same body) race each other on each game.

No answer is a 5xx; a retry gets the first answer again; every acknowledged command is in the
store once, and no command is there that no one was told of; every game's chain is intact and
the service's view of each game is the one its events fold to from scratch.
`make test` runs 20 clients on 5 games for 4 s; `make faults` 200 clients on 50 games for 60 s.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis

from bench.api import running_service
from service.loading import fold_envelopes
from service.wiring import build_service

SETUP = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}
SCORING_PAUSE = 0.02


@dataclass
class Acknowledged:
    game_id: str
    command_ids: set[str]
    event_ids: list[str]


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acknowledged: dict[str, Acknowledged] = field(default_factory=dict)  # by Idempotency-Key
    statuses: dict[int, int] = field(default_factory=dict)
    retries: int = 0
    failures: list[str] = field(default_factory=list)

    def count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1


class Player(threading.Thread):
    """Plays random legal commands on one game as whichever seat may act; resends half of
    them with the same Idempotency-Key, as a client whose answer was lost would."""

    def __init__(self, number: int, port: int, game: dict[str, Any], until: float, tally: Tally) -> None:
        super().__init__(name=f"player-{number}", daemon=True)
        self.number, self.game, self.until, self.tally = number, game, until, tally
        self.rng = random.Random(number)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.sent = 0

    def request(self, method: str, path: str, token: str, body: Any = None, key: str = "") -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        self.tally.count(response.status)
        if response.status >= 500:
            raise AssertionError(f"{method} {path} -> {response.status} {raw[:300]!r}")
        return response.status, json.loads(raw) if raw else None

    def run(self) -> None:
        try:
            while time.monotonic() < self.until:
                if not self.step():
                    time.sleep(SCORING_PAUSE)
        except BaseException as error:
            self.tally.failures.append(f"{self.name}: {error!r}")
        finally:
            self.conn.close()

    def step(self) -> bool:
        """One command (and perhaps its retry); False when no seat may act now."""
        game_id = self.game["game_id"]
        for token in self.rng.sample(self.game["tokens"], len(self.game["tokens"])):
            _, legal = self.request("GET", f"/games/{game_id}/legal", token)
            if legal["commands"]:
                break
        else:
            return False
        body = self.rng.choice(legal["commands"])
        self.sent += 1
        key = f"p{self.number}-{self.sent}"
        path = f"/games/{game_id}/commands"
        first = answer = self.request("POST", path, token, body, key)
        if self.rng.random() < 0.5:
            again = self.request("POST", path, token, body, key)
            with self.tally.lock:
                self.tally.retries += 1
            if first[0] == 200:
                assert again[0] == 200 and again[1]["duplicate"], (first, again)
                assert again[1]["events"] == first[1]["events"], (first, again)
            else:
                # A refusal is not recorded: the retry is decided afresh, on the newer state.
                answer = again
        if answer[0] == 200:
            events = answer[1]["events"]
            with self.tally.lock:
                self.tally.acknowledged[key] = Acknowledged(
                    game_id, {e["command_id"] for e in events}, [e["event_id"] for e in events]
                )
        return True


def _create(port: int) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/games", body=json.dumps(SETUP), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        created = json.loads(response.read())
    finally:
        conn.close()
    assert response.status == 201, created
    return {"game_id": created["game_id"], "tokens": [s["token"] for s in created["seats"]]}


def _spectator_view(port: int, game_id: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", f"/games/{game_id}")
        return dict(json.loads(conn.getresponse().read()))
    finally:
        conn.close()


def clients_race_on_games(clients: int, games: int, seconds: float) -> Tally:
    tally = Tally()
    with running_service(web=2, workers=1) as served:
        created = [_create(served.port) for _ in range(games)]
        until = time.monotonic() + seconds
        players = [Player(n, served.port, created[n % games], until, tally) for n in range(clients)]
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=seconds + 120)
        assert not tally.failures, tally.failures[:5]
        assert all(not p.is_alive() for p in players), "a client hangs"
        _check_games(served.redis_url, served.port, created, tally)
    print(
        f"\n{clients} clients on {games} games for {seconds:g} s: {len(tally.acknowledged)} commands "
        f"acknowledged, {tally.retries} retries, answers by status {dict(sorted(tally.statuses.items()))}"
    )
    return tally


def _check_games(url: str, port: int, created: list[dict[str, Any]], tally: Tally) -> None:
    service = build_service(url, url)
    try:
        for game in created:
            game_id = game["game_id"]
            loaded = service.load(game_id, fresh=True)
            envelopes = loaded.envelopes
            assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1))
            assert loaded.broken is None
            ids = [e.event_id for e in envelopes]
            assert len(ids) == len(set(ids)), "an event recorded twice"
            told = [a for a in tally.acknowledged.values() if a.game_id == game_id]
            assert {i for a in told for i in a.event_ids} <= set(ids), "an acknowledged event lost"
            by_seats = {e.command_id for e in envelopes if e.actor.startswith("seat:")}
            assert by_seats == {c for a in told for c in a.command_ids}, "a command no one was told of"
            recorded = loaded.rules.view(fold_envelopes(loaded.rules, envelopes), None)
            served = _spectator_view(port, game_id)
            # The service adds to each seat what the rules do not hold: whether it signs its moves
            # and whether it is open (no one took it yet).
            assert [seat.pop("signs") for seat in served["seats"]] == [False] * len(served["seats"])
            assert [seat.pop("open") for seat in served["seats"]] == [False] * len(served["seats"])
            assert served["version"] == len(envelopes)
            assert json.loads(json.dumps(recorded)) == {k: served[k] for k in recorded}
    finally:
        service.redis.close()
        if isinstance(service.scoring.connection, redis.Redis):
            service.scoring.connection.close()


def test_clients_and_their_retries_racing_on_games_lose_nothing_and_duplicate_nothing() -> None:
    tally = clients_race_on_games(clients=20, games=5, seconds=4)
    assert tally.acknowledged and tally.retries


@pytest.mark.faults
def test_200_clients_with_retries_on_50_games_for_60_seconds() -> None:
    tally = clients_race_on_games(clients=200, games=50, seconds=60)
    assert tally.acknowledged and tally.retries
