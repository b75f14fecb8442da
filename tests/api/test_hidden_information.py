"""No answer shows a viewer what it may not see: other hands, the stack order, face-down discards."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.store import EventStore
from tests.api.helpers import (
    bearer,
    create_game,
    events,
    legal_commands,
    play,
    sse_events,
    view,
)

A, B = 0, 1


class Watcher:
    """Collects every body seat A and a spectator receive during a game."""

    def __init__(self, client: FlaskClient, game: dict[str, Any]) -> None:
        self.client = client
        self.game = game
        self.seen: list[tuple[int | None, dict[str, Any]]] = []
        self.streamed = False

    def __call__(self, viewer: int | None, body: dict[str, Any]) -> None:
        if viewer == B:
            return  # B's own answers may show B's cards
        self.seen.append((viewer, body))
        if viewer is None:  # once per command: what A and a spectator can fetch now
            game_id = self.game["game_id"]
            for who in (A, None):
                self.seen.append((who, view(self.client, self.game, who)))
                self.seen.append((who, events(self.client, self.game, who)))
            legal = legal_commands(self.client, self.game, A)
            assert_plays_own_cards(legal, view(self.client, self.game, A))
            if body["round"] == 2 and not self.streamed:
                self.streamed = True
                for who in (A, None):
                    headers = {} if who is None else bearer(self.game["tokens"][who])
                    stream = self.client.get(f"/games/{game_id}/stream", headers=headers)
                    self.seen.append((who, {"events": sse_events(stream)}))


def assert_redacted(
    viewer: int | None, body: dict[str, Any], secrets: dict[int, tuple[Any, tuple[int, ...]]]
) -> int:
    """Check one body as `viewer` saw it before the end; the number of events checked."""
    if "viewer" in body:
        assert body["viewer"] == viewer
        assert ("hand" in body) == (viewer is not None)
        assert all("hand" not in seat for seat in body["seats"])
    for event in body.get("events", []):
        secret, audience = secrets[event["version"]]
        if secret is None:
            assert "secret" not in event
        elif viewer is not None and viewer in audience:
            assert event["secret"] == secret
        else:
            assert event["secret"] is None and event["redacted"] is True
    return len(body.get("events", []))


def assert_plays_own_cards(legal: dict[str, Any], own: dict[str, Any]) -> None:
    """A's legal commands play only A's cards, and there are none while it is B's move."""
    if own["active"] != A or own["phase"] != "play":
        assert legal["commands"] == []
    played = {
        card
        for command in legal["commands"]
        if command["type"] != "DrawCard"  # face-up draws name public cards
        for card in [command.get("card"), *command.get("cards", [])]
        if card
    }
    assert played <= set(own["hand"])


@pytest.mark.parametrize("reveal", [True, False])
def test_seat_a_and_spectators_never_see_hidden_cards_until_a_revealed_end(
    reveal: bool,
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
) -> None:
    game = create_game(client, reveal_after_end=reveal)
    watcher = Watcher(client, game)

    play(client, game, random.Random(5), run_worker, observe=watcher)

    stored = EventStore(redis_client).read(game["game_id"])
    secrets = {e.version: (e.secret, e.audience) for e in stored}
    checked = sum(assert_redacted(viewer, body, secrets) for viewer, body in watcher.seen)
    assert watcher.streamed and checked > len(stored)
    hidden = [e for e in stored if e.secret is not None and A not in e.audience]
    assert {e.type for e in hidden} >= {"DeckShuffled", "HandDealt", "CardDrawn", "CardsDiscarded"}

    for viewer in (A, None):
        after_end = {e["version"]: e for e in events(client, game, viewer)["events"]}
        stream = client.get(
            f"/games/{game['game_id']}/stream",
            headers={} if viewer is None else bearer(game["tokens"][viewer]),
        )
        streamed = {e["version"]: e for e in sse_events(stream)}
        assert streamed == after_end
        for envelope in hidden:
            shown = after_end[envelope.version]
            assert shown["secret"] == (envelope.secret if reveal else None)


def test_each_seat_sees_its_own_hand_only(client: FlaskClient) -> None:
    game = create_game(client)
    views = [view(client, game, seat) for seat in (A, B)]
    spectator = view(client, game)

    dealt = {
        e["data"]["seat"]: e["secret"]
        for seat in (A, B)
        for e in events(client, game, seat)["events"]
        if e["type"] == "HandDealt" and e["secret"] is not None
    }
    assert views[A]["hand"] == sorted(dealt[A]["cards"])
    assert views[B]["hand"] == sorted(dealt[B]["cards"])
    assert "hand" not in spectator
    assert all(e.get("secret") is None for e in events(client, game)["events"])
