"""The deal anyone can check: the service commits to each game's seed in GameCreated, seats
add entropy, every chance event is drawn from them, and the seed revealed at the end draws
every one of them again (record.deal); a changed draw, re-hashed, is named by its version."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from domain.actor import Actor
from record.canonical import canonical_json
from record.chain import secret_digest
from record.deal import CHECKED, COMMITTED, FAULT, check_deal
from record.draws import entropy_log
from record.envelope import COMMAND_FIELDS, HASHED_FIELDS
from replays import archive
from replays.archive import COMMAND_LINE_FIELDS
from replays.cli import main as replays_main
from service.store import EventStore
from tests.api.helpers import NAMES, bearer, choose, create_game, legal_commands, post, view
from tests.families.registered import EVERY_MODULE, TEST_GAMES

FAMILIES = [
    ("kahuna", 2, {"edition": "thames-kosmos"}),
    ("arabana-ikibiti", 2, {}),
    ("arabana-opodopo", 3, {"gods": True}),
    ("nanuuk", 2, {"pre_cracks": 2}),
    ("conquest-of-paradise", 2, {"last_turn": 2}),
    *((name, EVERY_MODULE[name].min_seats, {}) for name in TEST_GAMES),
]
"""A game of each family (the families that live in the tests too), with options that draw more."""


def entropy(seat: int) -> str:
    return hashlib.sha256(f"seat {seat}".encode()).hexdigest()


def add_entropy(client: FlaskClient, game: dict[str, Any], seat: int) -> Any:
    return client.post(
        f"/games/{game['game_id']}/entropy",
        json={"entropy": entropy(seat)},
        headers=bearer(game["tokens"][seat]),
    )


def play_out(
    client: FlaskClient, game: dict[str, Any], rng: random.Random, run_worker: Callable[[], None]
) -> None:
    """Random legal commands of any seat that has some, the worker run between them, to the end."""
    for _ in range(4000):
        phase = view(client, game)["phase"]
        if phase == "ended":
            return
        if phase == "scoring":
            run_worker()
            continue
        legal = {seat: legal_commands(client, game, seat)["commands"] for seat in range(len(game["tokens"]))}
        movers = [seat for seat, commands in legal.items() if commands]
        assert movers, f"no seat may move in phase {phase}"
        seat = rng.choice(movers)
        answer = post(client, game, seat, choose(rng, legal[seat]))
        assert answer.status_code == 200, answer.json
    raise AssertionError("no end")


def drawn_first(client: FlaskClient, game_name: str, seats: int, options: dict[str, Any]) -> dict[str, Any]:
    """A new game whose first seat is drawn by lot (no `first_seat` given)."""
    body = {"game": game_name, "seats": [{"name": n} for n in NAMES[:seats]], "options": options}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    game = dict(answer.json)
    game["tokens"] = [s["token"] for s in game["seats"]]
    return game


def stored_seed(events_client: redis.Redis, game_id: str) -> str:
    created = EventStore(events_client).read(game_id, upto=1)[0]
    assert created.secret is not None
    return str(created.secret["seed"])


def resealed(
    content: bytes, version: int, change: Callable[[dict[str, Any]], None], *, uncommanded: bool = False
) -> bytes:
    """The game file with event `version` changed by `change`, every digest, hash and link after
    it made again. `uncommanded`: every command's record dropped too, as a file from before
    commands were recorded reads, so that the referee replay has nothing to run and only the
    deal's check can catch the changed draw."""
    lines = [json.loads(line) for line in content.decode().splitlines()]
    previous = "0" * 64
    for line in lines:
        if line.get("kind") != "event":
            continue
        if line["version"] == version:
            change(line)
        if uncommanded:
            for key in (*COMMAND_LINE_FIELDS, "command_redacted"):
                line.pop(key, None)
        if line["version"] >= version or uncommanded:
            if line["secret"] is not None:
                line["secret_digest"] = secret_digest(line["secret"], line["salt"])
            line["prev_hash"] = previous
            hashed = {k: line[k] for k in HASHED_FIELDS}
            if line.get("command") is not None:  # a command's record is hashed with its first event
                hashed.update({k: line[k] for k in COMMAND_FIELDS})
            line["hash"] = hashlib.sha256(canonical_json(hashed).encode()).hexdigest()
        previous = line["hash"]
    return "".join(canonical_json(line) + "\n" for line in lines).encode()


def chance_versions(envelopes: list[Any]) -> list[int]:
    """Events the service drew (no seat's), after GameCreated, holding something to change."""
    return [
        e.version
        for e in envelopes[1:]
        if Actor.seat_in(e.actor) is None
        and e.type not in ("RoundScored", "GameEnded")
        and (e.secret or e.data)
    ]


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize(("game_name", "seats", "options"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_every_chance_event_of_a_finished_game_is_drawn_again_from_the_revealed_seed(
    client: FlaskClient,
    run_worker: Callable[[], None],
    events_client: redis.Redis,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game_name: str,
    seats: int,
    options: dict[str, Any],
) -> None:
    game = drawn_first(client, game_name, seats, options)
    game_id = game["game_id"]
    seed = stored_seed(events_client, game_id)
    for seat in range(seats):
        assert add_entropy(client, game, seat).status_code == 201
    assert client.get(f"/games/{game_id}/verify").json["deal"]["status"] == COMMITTED
    play_out(client, game, random.Random(5), run_worker)

    checked = client.get(f"/games/{game_id}/verify").json
    late = add_entropy(client, game, 0)
    assert (late.status_code, late.json["code"]) == (409, "game_over")
    for path in ("replay", "notation"):  # the seats' EntropyAdded reads as any event
        assert client.get(f"/games/{game_id}/{path}").status_code == 200, path
    content = client.get(f"/games/{game_id}/export").data
    envelopes = archive.read(content).envelopes
    created = envelopes[0]
    assert created.secret == {"seed": seed}
    assert created.data["deal"]["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert [e.type for e in envelopes].count("EntropyAdded") == seats
    report = check_deal(envelopes)
    assert (report.status, report.draws) == (CHECKED, checked["deal"]["draws"])

    # Each draw of the game, changed and re-hashed, is named by its version.
    rng = random.Random(game_name)
    drawn = chance_versions(envelopes)
    for version in rng.sample(drawn, min(3, len(drawn))):
        forged = resealed(content, version, mangle)
        assert archive.verify(forged).ok, "the forgery re-hashes the chain"
        found = check_deal(archive.read(forged).envelopes)
        assert (found.status, found.first_bad) == (FAULT, version)
    # The referee replay names the changed draw first (its events are not what the rules decide
    # for the recorded command); with every command's record dropped, the deal's check does.
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forged)
    assert replays_main(["verify", str(path)]) != 0
    assert "the referee replay finds the command there at fault" in capsys.readouterr().err
    path.write_bytes(resealed(content, version, mangle, uncommanded=True))
    assert replays_main(["verify", str(path)]) != 0
    assert f"event {version}: the deal fails" in capsys.readouterr().err


def mangle(line: dict[str, Any]) -> None:
    """Another draw: the secret's or the data's first list turned around, or a number moved."""
    for part in ("secret", "data"):
        holder = line.get(part)
        if not holder:
            continue
        for key, value in sorted(holder.items()):
            if isinstance(value, list) and len(value) > 1 and value != value[::-1]:
                holder[key] = value[::-1]
                return
            if isinstance(value, int) and not isinstance(value, bool):
                holder[key] = value + 1
                return
    line["data"] = {**line["data"], "forged": True}


def test_a_seed_that_is_not_the_one_committed_is_caught_at_game_created(
    client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = create_game(client, 2, game="nanuuk", options={"pre_cracks": 1})
    play_out(client, game, random.Random(2), run_worker)
    content = client.get(f"/games/{game['game_id']}/export").data
    forged = resealed(content, 1, lambda line: line["secret"].update(seed="00" * 32))
    found = check_deal(archive.read(forged).envelopes)
    assert (found.status, found.first_bad) == (FAULT, 1)
    assert "not the one committed" in found.reason


def test_the_seed_is_shown_to_no_viewer_before_the_end(
    client: FlaskClient, run_worker: Callable[[], None], events_client: redis.Redis
) -> None:
    game = create_game(client, 2, game="arabana-ikibiti")
    game_id = game["game_id"]
    for seat in range(2):
        assert add_entropy(client, game, seat).status_code == 201
    rng = random.Random(8)
    for _ in range(12):
        current = view(client, game)
        if current["phase"] == "scoring":
            run_worker()
            continue
        seat = current["active"]
        post(client, game, seat, choose(rng, legal_commands(client, game, seat)["commands"]))
    seed = stored_seed(events_client, game_id)
    created_salt = EventStore(events_client).read(game_id, upto=1)[0].salt
    viewers: list[dict[str, str]] = [{}, bearer(game["tokens"][0]), bearer(game["tokens"][1])]
    paths = ["", "/events", "/export", "/replay", "/notation", "/verify", "/stream?after=0", "/legal"]
    for headers in viewers:
        for path in paths:
            answer = client.get(f"/games/{game_id}{path}", headers=headers)
            text = answer.get_data(as_text=True)
            assert answer.status_code in (200, 401), (path, answer.status_code)
            assert seed not in text and created_salt not in text, path
    assert seed not in client.get("/games").get_data(as_text=True)
    shown = client.get(f"/games/{game_id}/verify").json["deal"]
    assert shown["status"] == COMMITTED
    assert shown["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_a_seat_adds_its_entropy_once_and_it_changes_the_draws_after_it(
    client: FlaskClient, events_client: redis.Redis
) -> None:
    game = create_game(client, 2, game="kahuna")
    first = add_entropy(client, game, 0)
    assert first.status_code == 201
    assert first.json["events"][0]["data"] == {"seat": 0, "entropy": entropy(0)}
    again = add_entropy(client, game, 0)
    assert (again.status_code, again.json["code"]) == (409, "entropy_added")
    bad = client.post(
        f"/games/{game['game_id']}/entropy", json={"entropy": "ABC"}, headers=bearer(game["tokens"][1])
    )
    assert (bad.status_code, bad.json["code"]) == (422, "invalid_request")
    assert EventStore(events_client).version(game["game_id"]) == first.json["version"]


def test_the_creators_entropy_is_mixed_into_the_first_deal(
    client: FlaskClient, events_client: redis.Redis
) -> None:
    from service.chance import deal_of

    body = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "entropy": "ab" * 16}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.json
    stored = EventStore(events_client).read(created.json["game_id"])
    assert stored[0].data["deal"]["entropy"] == "ab" * 16 and "entropy" not in {
        k for k in stored[0].data if k != "deal"
    }
    deal = deal_of(stored[0])
    assert deal is not None
    plain = type(deal)(deal.seed, {k: v for k, v in deal.data.items() if k != "entropy"})
    # The same seed without the creator's entropy draws another first deal.
    entropy = entropy_log(stored)
    assert deal.stream(entropy, 2).sample(range(24), 24) != plain.stream(entropy, 2).sample(range(24), 24)
