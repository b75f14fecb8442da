"""What every stored game must satisfy after a run that stressed the store (slots moving under it,
several processes writing): nothing lost, nothing twice, the chain whole, and a fresh fold of the
stored events giving the answer the players were given."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient

from record.chain import verify_chain
from record.envelope import EventStorePort
from service.api.context import EXTENSION
from service.app import create_app


def check_stored_game(store: EventStorePort, game_id: str, answered: dict[str, Any]) -> None:
    """`answered`: the last spectator view a player was given (GET /games/{id}) after the game ended."""
    stored = store.read(game_id)
    assert [e.version for e in stored] == list(range(1, len(stored) + 1)), "versions gapless"
    assert verify_chain(stored) is None, f"the chain of {game_id} holds"
    assert len({e.event_id for e in stored}) == len(stored), "no event twice"
    scorings = Counter(e.data.get("round") for e in stored if e.type == "RoundScored")
    assert all(count == 1 for count in scorings.values()), f"each round scored once: {scorings}"
    assert stored[-1].type == "GameEnded" and answered["version"] == len(stored)
    pointers = [p for p in store.read_pointers() if p.game_id == game_id]
    assert sorted(p.version for p in pointers) == list(range(1, len(stored) + 1)), "one pointer per event"


def fresh_view(fresh: FlaskClient, game_id: str) -> dict[str, Any]:
    """The spectator view folded by an app that never saw the game: from the stored events alone."""
    answer = fresh.get(f"/games/{game_id}")
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


@contextmanager
def fresh_client(**urls: str) -> Iterator[FlaskClient]:
    """A test client of a new app on the store at `urls` (REDIS_URL, REDIS_CLUSTER_URL, RQ_REDIS_URL):
    it has folded no game yet. Its connections are closed afterwards."""
    app = create_app({**urls, "TESTING": True, "RATE_LIMITS_ENABLED": False})
    try:
        yield app.test_client()
    finally:
        app.extensions[EXTENSION].redis.close()
