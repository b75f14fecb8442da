"""Export and import of every game, the families that live in the tests among them, against the
real Redis store: a finished game exported, imported and exported again gives the same bytes and
every event's hash, and its file refolds offline to the result the game recorded at its end."""

from __future__ import annotations

import random

import pytest
import redis

from domain.games import rules_for
from replays import archive
from service import game_files
from service.annotations import Annotations, Author
from service.games import GameService
from service.store import EventStore
from tests.api.test_contract_client import SHORT
from tests.families.registered import EVERY_GAME, EVERY_MODULE
from tests.replays.play import NAMES, play_service


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_finished_game_of_every_game_round_trips_byte_for_byte(
    redis_client: redis.Redis, name: str
) -> None:
    service, notes = GameService(EventStore(redis_client), redis_client), Annotations(redis_client)
    seats = [{"name": n} for n in NAMES[: EVERY_MODULE[name].min_seats]]
    setup = {"game": name, "seats": seats, "first_seat": 0, "options": SHORT.get(name, {})}
    game_id = play_service(service, random.Random(name), setup)
    notes.add(
        service.load(game_id), Author("guest", "Kibitz"), {"version": 1, "kind": "comment", "text": "Hi"}
    )
    exported = game_files.export_game(service, notes, game_id, None)

    imported = game_files.import_game(service, exported)

    assert game_files.export_game(service, notes, imported.game_id, None) == exported
    original, copy = service.load(game_id).envelopes, service.load(imported.game_id).envelopes
    assert [(e.hash, e.at, e.event_id) for e in copy] == [(e.hash, e.at, e.event_id) for e in original]
    read = archive.read(exported)
    rules = rules_for(name)
    ended = [e.data for e in read.envelopes if e.type == rules.end_event]
    assert ended == [rules.result(archive.refold(read))]
