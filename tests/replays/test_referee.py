"""The referee replay: stored commands run through the rules again, offline and in the service.

A forgery that re-hashes the chain passes every hash check; these tests make such forgeries
(a move credited to the seat that was not to act, an event the rules would not have made) and
check that the referee names the command, by the version of its first event.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis

from domain.decider import IllegalMove
from domain.turns import Seats
from record.chain import verify_chain
from record.envelope import Envelope
from record.referee import NOT_RECORDED, PARTIAL, REFEREED, referee
from replays import archive
from replays.cli import main
from service.chance import Dice
from service.embedded_redis import EmbeddedRedis
from service.forfeits import end_forfeited_game
from service.games import GameService
from service.store import EventStore
from tests.families import registered
from tests.replays.referee_play import (
    SETUPS,
    TEST_FAMILY_SETUPS,
    out_of_turn,
    play,
    rechained,
    setup_of,
    turns_of,
)

GOLDEN = Path(__file__).parents[1] / "golden"
EVERY_FAMILY = sorted({**SETUPS, **TEST_FAMILY_SETUPS})
"""A game of each family, the families that live in the tests among them."""


@pytest.fixture
def service(redis_client: redis.Redis) -> GameService:
    """The application layer on the flushed Redis, with seeded dice: the same deals every run."""
    return GameService(EventStore(redis_client), redis_client, dice=Dice(20261128))


@pytest.fixture(scope="module")
def finished(redis_server: EmbeddedRedis) -> Iterator[dict[str, list[Envelope]]]:
    """One finished game of each family, as the store holds it (played once for the module and
    kept in memory: each test's own client flushes the server)."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    games_service = GameService(EventStore(client), client, dice=Dice(20261128))
    games = {}
    registered.register()  # for the module's play only: each test registers them again
    try:
        for name in EVERY_FAMILY:
            game_id = play(games_service, setup_of(name), random.Random(7))
            games[name] = games_service.store.read(game_id)
    finally:
        registered.unregister()
    client.flushall()
    client.close()
    yield games


def written(
    tmp_path: Path, envelopes: list[Envelope], viewer: int | None = None, revealed: bool = True
) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text(archive.export(envelopes, viewer, revealed), encoding="utf-8")
    return str(path)


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_FAMILY)
def test_a_finished_game_of_each_family_is_refereed_command_by_command(
    finished: dict[str, list[Envelope]], name: str
) -> None:
    envelopes = finished[name]

    refereed = referee(envelopes)

    assert refereed.ok and refereed.status == REFEREED, refereed
    assert refereed.checked == refereed.commands > 5
    assert refereed.recorded_from == 2  # every event after GameCreated belongs to a recorded command


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_FAMILY)
def test_replays_verify_referees_a_finished_game_file(
    finished: dict[str, list[Envelope]], name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", written(tmp_path, finished[name])]) == 0

    out = capsys.readouterr().out
    assert "referee: the rules referee" in out


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_FAMILY)
def test_a_move_credited_to_the_seat_not_to_act_is_caught_by_its_version(
    finished: dict[str, list[Envelope]], name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged, version = out_of_turn(finished[name])
    assert verify_chain(forged) is None  # the chain alone cannot tell

    refereed = referee(forged)

    assert (refereed.first_fault, refereed.status) == (version, "fault"), refereed
    assert "seat 1 may not act here" in refereed.fault
    assert main(["verify", written(tmp_path, forged)]) == 1
    assert f"replays: error: event {version}: the referee replay" in capsys.readouterr().err


def test_only_the_actor_changed_is_caught_too(finished: dict[str, list[Envelope]]) -> None:
    envelopes = finished["kahuna"]
    head = turns_of(envelopes, 0)[0]

    forged = rechained(envelopes, head.version, lambda e: replace(e, actor="seat:1"))

    refereed = referee(forged)
    assert refereed.first_fault == head.version
    assert "is credited to seat:1" in refereed.fault


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("name", EVERY_FAMILY)
def test_an_event_changed_and_rehashed_is_caught_at_its_command(
    finished: dict[str, list[Envelope]], name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    envelopes = finished[name]
    heads = [e for e in envelopes if e.command is not None and e.actor.startswith("seat:")]
    head = heads[len(heads) // 2]
    event = [e for e in envelopes if e.command_id == head.command_id][-1]

    forged = rechained(envelopes, event.version, lambda e: replace(e, data={**e.data, "forged": 1}))

    refereed = referee(forged)
    assert refereed.first_fault == head.version, refereed
    assert f"event {event.version} ({event.type}) is not what the rules decide" in refereed.fault
    assert refereed.checked == heads.index(head) + sum(
        1
        for e in envelopes
        if e.command is not None and not e.actor.startswith("seat:") and e.version < head.version
    )
    assert main(["verify", written(tmp_path, forged)]) == 1
    assert f"event {head.version}: the referee replay" in capsys.readouterr().err


def test_an_event_dropped_from_a_command_and_rehashed_is_caught(finished: dict[str, list[Envelope]]) -> None:
    envelopes = finished["kahuna"]
    head = next(
        e for e in turns_of(envelopes, 1) if len([x for x in envelopes if x.command_id == e.command_id]) > 1
    )
    dropped = [e for e in envelopes if e.version != head.version + 1]
    renumbered = [replace(e, version=n) for n, e in enumerate(dropped, start=1)]
    forged = rechained(renumbered, 1, lambda e: e)

    refereed = referee(forged)

    assert refereed.first_fault == head.version, refereed


def test_a_chance_command_by_a_seat_is_caught(finished: dict[str, list[Envelope]]) -> None:
    envelopes = finished["kahuna"]
    deal = next(e for e in envelopes if e.command is not None and e.command["seat"] is None and e.version > 2)

    forged = rechained(envelopes, deal.version, lambda e: replace(e, actor="seat:0"))

    refereed = referee(forged)
    assert refereed.first_fault == deal.version
    assert "a system command" in refereed.fault


def test_a_game_stored_before_commands_were_recorded_says_so() -> None:
    game = archive.read((GOLDEN / "kahuna.jsonl").read_bytes())

    refereed = referee(game.envelopes)

    assert refereed.ok and refereed.status == NOT_RECORDED and refereed.commands == 0
    assert refereed.unchecked_from == 2 and "before commands were recorded" in refereed.unchecked


def test_a_game_that_started_before_commands_were_recorded_is_refereed_from_its_first_command(
    finished: dict[str, list[Envelope]],
) -> None:
    envelopes = finished["kahuna"]
    later = turns_of(envelopes, 1)[3].version
    older = [
        replace(e, command=None, command_secret=None, command_salt="", command_digest="", command_audience=())
        if e.version < later
        else e
        for e in envelopes
    ]
    mixed = rechained(older, 2, lambda e: e)

    refereed = referee(mixed)

    assert refereed.ok and refereed.status == PARTIAL, refereed
    assert (refereed.recorded_from, refereed.unchecked_from) == (later, 2)
    assert f"versions 2-{later - 1} were stored before commands were recorded" in refereed.unchecked


def test_a_game_of_its_setup_alone_has_nothing_to_referee(finished: dict[str, list[Envelope]]) -> None:
    refereed = referee(finished["nanuuk"][:1])

    assert refereed.ok and refereed.status == REFEREED and refereed.commands == 0


def test_replays_verify_of_an_older_file_says_its_commands_were_not_recorded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", str(GOLDEN / "nanuuk-2.jsonl")]) == 0

    assert "referee: not refereed: the record holds no commands" in capsys.readouterr().out


def test_a_spectators_file_of_a_game_in_play_is_refereed_as_far_as_it_shows(
    service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = play(service, setup_of("kahuna"), random.Random(3), until=40)
    envelopes = service.store.read(game_id)
    content = archive.export(envelopes, None, revealed=False)
    shown = archive.read(content).envelopes

    refereed = referee(shown)

    assert refereed.ok and refereed.status == PARTIAL, refereed
    assert refereed.unchecked_from == 2 and "withheld from this reader" in refereed.unchecked
    # the deck's order is the server's: the spectator's file hides the deal's shuffle command
    assert shown[1].command is not None and shown[1].command_secret is None and shown[1].command_digest
    assert main(["verify", written(tmp_path, envelopes, None, revealed=False)]) == 0
    assert "not refereed: a command's hidden part" in capsys.readouterr().out


def test_a_forged_seat_in_a_spectators_file_is_still_caught_by_its_form(service: GameService) -> None:
    game_id = play(service, setup_of("kahuna"), random.Random(4), until=30)
    shown = archive.read(archive.export(service.store.read(game_id), None, revealed=False)).envelopes
    head = turns_of(shown, 0)[-1]

    forged = rechained(shown, head.version, lambda e: replace(e, actor="seat:1"))

    assert referee(forged).first_fault == head.version


def test_undos_takebacks_and_corrections_are_refereed_by_the_undo_policy(service: GameService) -> None:
    rng = random.Random(11)
    casual = service.create(setup_of("kahuna")).game_id
    undone = 0
    for _ in range(60):
        loaded = service.load(casual)
        waiting = loaded.rules.to_act(loaded.state)
        assert isinstance(waiting, Seats), waiting
        seat = waiting.seats[0]
        command = rng.choice(list(loaded.rules.legal_commands(loaded.state, seat)))
        service.execute(casual, seat, command.to_json())
        try:
            service.execute(casual, seat, {"type": "Undo"})
            undone += 1
        except IllegalMove:
            pass
        if undone >= 3:
            break
    assert undone >= 3
    for _ in range(60):  # a move of the seat to act that shows it nothing new, then its takeback
        loaded = service.load(casual)
        asker = loaded.state.active
        command = rng.choice(list(loaded.rules.legal_commands(loaded.state, asker)))
        first = service.execute(casual, asker, command.to_json()).envelopes[0].version
        try:
            service.execute(casual, asker, {"type": "RequestTakeback", "to_version": first - 1})
            break
        except IllegalMove:
            continue
    service.execute(casual, 1 - asker, {"type": "AnswerTakeback", "accept": True})
    envelopes = service.store.read(casual)
    assert sum(1 for e in envelopes if e.type == "Undone") == undone + 1
    assert [e.type for e in envelopes[-3:]] == ["TakebackRequested", "TakebackAnswered", "Undone"]

    assert referee(envelopes).status == REFEREED

    tournament = service.create(setup_of("nanuuk", mode="tournament")).game_id
    for _ in range(6):
        loaded = service.load(tournament)
        waiting = loaded.rules.to_act(loaded.state)
        assert isinstance(waiting, Seats), waiting
        seat = waiting.seats[0]
        command = rng.choice(list(loaded.rules.legal_commands(loaded.state, seat)))
        service.execute(tournament, seat, command.to_json(), expected_version=loaded.version)
    version = service.store.version(tournament)
    last_move = [e for e in service.store.read(tournament) if e.actor.startswith("seat:") and e.command][-1]
    service.correct(tournament, last_move.version - 1, "a misclick the arbiter saw", expected_version=version)
    envelopes = service.store.read(tournament)
    assert envelopes[-1].type == "Corrected" and envelopes[-1].command["type"] == "Correct"

    refereed = referee(envelopes)
    assert refereed.status == REFEREED, refereed
    forged = rechained(envelopes, envelopes[-1].version, lambda e: replace(e, actor="seat:0"))
    assert referee(forged).first_fault == envelopes[-1].version


def test_a_forfeit_is_the_systems_command_and_nothing_may_follow_it(service: GameService) -> None:
    game_id = play(service, setup_of("kahuna"), random.Random(9), until=30)
    decided = SimpleNamespace(data={"game_id": game_id, "seat": 1, "reason": "timeout"}, version=7)
    assert end_forfeited_game(service, "t1", decided)
    envelopes = service.store.read(game_id)
    assert envelopes[-1].type == "GameForfeited" and envelopes[-1].command["type"] == "Forfeit"

    assert referee(envelopes).status == REFEREED

    last_move = turns_of(envelopes, 0)[-1]
    moved = [e for e in envelopes if e.command_id == last_move.command_id]
    after = [replace(e, version=len(envelopes) + n) for n, e in enumerate(moved, start=1)]
    forged = rechained([*envelopes, *after], len(envelopes) + 1, lambda e: e)
    refereed = referee(forged)
    assert refereed.first_fault == len(envelopes) + 1
    assert "(GameForfeited): nothing may follow" in refereed.fault


def test_a_resignation_is_refereed_by_its_policy_and_nothing_may_follow_it(service: GameService) -> None:
    game_id = play(service, setup_of("nanuuk"), random.Random(12), until=12)
    service.execute(game_id, 1, {"type": "Resign"})
    envelopes = service.store.read(game_id)
    assert envelopes[-1].type == "GameResigned" and envelopes[-1].command["type"] == "Resign"

    assert referee(envelopes).status == REFEREED

    forged = rechained(envelopes, envelopes[-1].version, lambda e: replace(e, data={**e.data, "winner": 1}))
    assert referee(forged).first_fault == envelopes[-1].version
