"""A tournament's lots work as a game's deal: the seed is committed in TournamentCreated, kept
from every viewer until the close, and the revealed seed draws every lot again; a changed lot,
re-hashed, is named by the audit."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import pytest
import redis
from flask.testing import FlaskClient

from record.canonical import canonical_json
from record.deal import CHECKED, COMMITTED, FAULT, check_lots
from record.draws import entropy_before
from record.envelope import HASHED_FIELDS
from replays.bundle import read_bundle, verify_bundle
from service.store import TOURNAMENT as TOURNAMENT_KIND
from service.store import EventStore
from tests.api.tournament_helpers import create_tournament, organize, register, view


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def stored_seed(events_client: redis.Redis, tournament_id: str) -> str:
    created = EventStore(events_client, kind=TOURNAMENT_KIND).read(tournament_id, upto=1)[0]
    assert created.secret is not None
    return str(created.secret["seed"])


def everything_shown(client: FlaskClient, tid: str) -> str:
    paths = ["", "/events", "/stream?after=0", "/export", "/audit", "/standings", "/pairings"]
    texts = [client.get(f"/tournaments/{tid}{path}").get_data(as_text=True) for path in paths]
    return "\n".join([*texts, client.get("/tournaments").get_data(as_text=True)])


def resealed_lots(content: bytes, version: int) -> bytes:
    """The bundle with the tournament's event `version` (a LotsDrawn) turned around and the
    tournament's chain sealed again after it."""
    lines = [json.loads(line) for line in content.decode().splitlines()]
    header, tournament = lines[0], lines[1 : 1 + lines[0]["events"]]
    previous = "0" * 64
    for line in tournament:
        if line["version"] == version:
            line["data"]["entrants"] = list(reversed(line["data"]["entrants"]))
        if line["version"] >= version:
            line["prev_hash"] = previous
            line["hash"] = hashlib.sha256(
                canonical_json({k: line[k] for k in HASHED_FIELDS}).encode()
            ).hexdigest()
        previous = line["hash"]
    rest = lines[1 + header["events"] :]
    return "".join(canonical_json(line) + "\n" for line in [header, *tournament, *rest]).encode()


def test_the_lots_are_committed_kept_until_the_close_and_drawn_again_from_the_revealed_seed(
    client: FlaskClient, run_jobs: Callable[[], None], events_client: redis.Redis
) -> None:
    tournament = create_tournament(client, rounds=1)
    tid = tournament["tournament_id"]
    for level in (1, 2):
        register(client, tournament, kind="ai", level=level)
    organize(client, tournament, {"type": "StartTournament"})
    seed = stored_seed(events_client, tid)
    assert seed not in everything_shown(client, tid)
    assert check_lots(read_bundle(client.get(f"/tournaments/{tid}/export").data)[0]).status == COMMITTED

    organize(client, tournament, {"type": "PairRound"})
    for _ in range(400):
        run_jobs()
        if view(client, tournament)["completed"] == 1:
            break
    else:
        raise AssertionError("the computer entrants did not finish")
    assert seed not in everything_shown(client, tid)
    organize(client, tournament, {"type": "CloseTournament"})

    content = client.get(f"/tournaments/{tid}/export").data
    events, _ = read_bundle(content)
    assert events[0].secret == {"seed": seed}
    assert events[0].data["deal"]["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    lots = check_lots(events)
    assert (lots.status, lots.draws) == (CHECKED, 1)
    assert verify_bundle(content).ok and client.get(f"/tournaments/{tid}/audit").json["ok"]

    drawn = next(e.version for e in events if e.type == "LotsDrawn")
    forged = resealed_lots(content, drawn)
    assert (check_lots(read_bundle(forged)[0]).status, check_lots(read_bundle(forged)[0]).first_bad) == (
        FAULT,
        drawn,
    )
    report = verify_bundle(forged)
    assert not report.ok and report.mismatches[0]["version"] == drawn
    assert "revealed seed" in report.mismatches[0]["reason"]


def test_a_tournament_created_before_lots_were_committed_is_said_to_be_so() -> None:
    from record.deal import NONE
    from record.envelope import Envelope

    created = Envelope(
        1, "TournamentCreated", 1, {"name": "x"}, None, (), "organizer", "c", "c:0", "", "", "", 0
    )
    assert check_lots([created]).status == NONE


def test_each_entrant_s_entropy_is_mixed_into_the_lots_and_drawn_again_from_the_revealed_seed(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, rounds=1)
    tid = tournament["tournament_id"]
    malformed = client.post(f"/tournaments/{tid}/entrants", json={"name": "Cai", "entropy": "ABC"})
    assert malformed.status_code == 422
    for level, entropy in ((1, "ab" * 16), (2, "cd" * 32), (3, None), (4, None)):
        register(
            client, tournament, kind="ai", level=level, **({} if entropy is None else {"entropy": entropy})
        )
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    for _ in range(400):
        run_jobs()
        if view(client, tournament)["completed"] == 1:
            break
    else:
        raise AssertionError("the computer entrants did not finish")
    organize(client, tournament, {"type": "CloseTournament"})

    content = client.get(f"/tournaments/{tid}/export").data
    events, _ = read_bundle(content)
    drawn = next(e.version for e in events if e.type == "LotsDrawn")
    mixed = entropy_before(events[0].data["deal"], events, drawn)
    assert mixed == [("entrant:e1", "ab" * 16), ("entrant:e2", "cd" * 32)]
    # The service drew the lots with the entrants' entropy: the check, which mixes it in, draws
    # the very order recorded (4 entrants: 24 orders).
    assert check_lots(events).status == CHECKED
