"""The event store contract, run against every implementation (in memory and Redis)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
import redis
from freezegun import freeze_time
from redis.cluster import RedisCluster

from record.chain import envelope_hash
from record.envelope import Clock, EventStorePort
from service.clock import utc_now
from service.errors import PartialRetry, StoreError, VersionConflict
from service.store import AppendResult, EventStore, InMemoryEventStore, NewEvent, verify_chain

StoreFactory = Callable[..., EventStorePort]
GAME = "g-1"
WRITERS = 8


def events(command_id: str, *types: str, **data: object) -> list[NewEvent]:
    """One NewEvent per type, ids derived from the command as the service does."""
    return [
        NewEvent(event_id=f"{command_id}:{i}", type=t, data=dict(data), command_id=command_id)
        for i, t in enumerate(types)
    ]


def snapshot(store: EventStorePort, game_id: str = GAME) -> tuple[object, ...]:
    """Everything a reader can see, to prove a refused append wrote nothing."""
    return store.read(game_id), store.version(game_id), store.read_pointers()


def run_writers(target: Callable[[int], object]) -> list[object]:
    """Run `target(i)` in WRITERS threads released together; their results or exceptions."""
    barrier = threading.Barrier(WRITERS)
    results: list[object] = [None] * WRITERS

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = target(i)
        except StoreError as e:
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


class EventStoreContract:
    """Every event store must pass these; a subclass provides `make_store(clock=...)`."""

    @pytest.fixture
    def make_store(self) -> StoreFactory:
        raise NotImplementedError

    @pytest.fixture
    def store(self, make_store: StoreFactory) -> EventStorePort:
        return make_store()

    def test_appended_events_read_back_as_envelopes(self, store: EventStorePort) -> None:
        batch = [
            NewEvent(
                "c1:0",
                "GameStarted",
                {"board": "kahuna", "seats": [0, 1]},
                actor="organizer",
                command_id="c1",
            ),
            NewEvent(
                "c1:1",
                "StackShuffled",
                {"size": 24},
                schema=2,
                secret={"order": [3, 1, 2]},
                audience=(0,),
                actor="system",
                command_id="c1",
            ),
        ]
        result = store.append(GAME, 0, batch)
        assert (result.versions, result.duplicate) == ([1, 2], False)
        first, second = store.read(GAME)
        assert (first.version, first.type, first.schema, first.actor, first.command_id) == (
            1,
            "GameStarted",
            1,
            "organizer",
            "c1",
        )
        assert (first.data, first.secret, first.audience) == (
            {"board": "kahuna", "seats": [0, 1]},
            None,
            (),
        )
        assert (second.event_id, second.schema, second.secret, second.audience) == (
            "c1:1",
            2,
            {"order": [3, 1, 2]},
            (0,),
        )
        assert [first.position, second.position] == result.positions

    def test_an_append_reports_the_envelopes_a_read_returns(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c0", "A", note="first"))
        batch = [
            NewEvent(
                "c1:0",
                "Moved",
                {"line": ["Ōʻahu", "Maui"], "n": 2.5, "deep": {"x": [1, None]}},
                actor="seat:0",
                command_id="c1",
                command={"type": "Move", "cards": ["a"]},
            ),
            NewEvent(
                "c1:1",
                "Drawn",
                {"size": 3},
                secret={"card": "Maui"},
                audience=(1,),
                actor="seat:0",
                command_id="c1",
            ),
        ]
        result = store.append(GAME, 1, batch)
        assert result.written == tuple(store.read(GAME, after=1))
        assert [e.position for e in result.written] == result.positions
        assert verify_chain(result.written) is None
        assert store.append(GAME, 1, batch).written == ()  # a retry wrote nothing

    def test_non_ascii_data_reads_back_unchanged(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "Named", author="Günter Cornett", island="Ōʻahu"))
        assert store.read(GAME)[0].data == {"author": "Günter Cornett", "island": "Ōʻahu"}

    def test_versions_are_gapless_across_appends(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A"))
        store.append(GAME, 1, events("c2", "B", "C", "D"))
        result = store.append(GAME, 4, events("c3", "E", "F"))
        assert result.versions == [5, 6]
        assert [e.version for e in store.read(GAME)] == [1, 2, 3, 4, 5, 6]
        assert store.version(GAME) == 6

    def test_a_game_without_events_does_not_exist(self, store: EventStorePort) -> None:
        assert (store.exists(GAME), store.version(GAME), store.read(GAME)) == (False, 0, [])
        store.append(GAME, 0, events("c1", "A"))
        assert store.exists(GAME) and not store.exists("other")

    def test_stale_expected_version_is_a_conflict_and_writes_nothing(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A"))
        before = snapshot(store)
        with pytest.raises(VersionConflict) as raised:
            store.append(GAME, 0, events("c2", "B"))
        assert (raised.value.code, raised.value.expected, raised.value.actual) == (
            "version_conflict",
            0,
            1,
        )
        assert snapshot(store) == before

    def test_expected_version_ahead_of_the_game_is_a_conflict(self, store: EventStorePort) -> None:
        with pytest.raises(VersionConflict) as raised:
            store.append(GAME, 3, events("c1", "A"))
        assert raised.value.actual == 0
        assert not store.exists(GAME)

    def test_conflicting_batch_can_land_later_with_the_same_ids(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A"))
        with pytest.raises(VersionConflict):
            store.append(GAME, 0, events("c2", "B"))
        assert store.append(GAME, 1, events("c2", "B")).versions == [2]

    def test_retry_of_a_stored_batch_returns_the_original_result(self, store: EventStorePort) -> None:
        first = store.append(GAME, 0, events("c1", "A", "B"))
        before = snapshot(store)
        retry = store.append(GAME, 0, events("c1", "A", "B"))
        assert retry == replace(first, duplicate=True)
        assert snapshot(store) == before

    def test_retry_is_recognised_after_the_game_moved_on(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c0", "A"))
        first = store.append(GAME, 1, events("c1", "B", "C"))
        store.append(GAME, 3, events("c2", "D"))
        retry = store.append(GAME, 1, events("c1", "B", "C"))
        assert (retry.versions, retry.positions, retry.duplicate) == ([2, 3], first.positions, True)
        assert store.version(GAME) == 4

    def test_partial_retry_is_refused_and_writes_nothing(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B"))
        before = snapshot(store)
        mixed = [events("c1", "A", "B")[1], NewEvent("c9:0", "C", {})]
        with pytest.raises(PartialRetry) as raised:
            store.append(GAME, 2, mixed)
        assert (raised.value.code, raised.value.recorded) == ("partial_retry", ["c1:1"])
        assert snapshot(store) == before

    def test_read_after_and_upto(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B", "C", "D", "E"))
        assert [e.version for e in store.read(GAME, after=3)] == [4, 5]
        assert [e.version for e in store.read(GAME, after=1, upto=3)] == [2, 3]
        assert [e.version for e in store.read(GAME, upto=2)] == [1, 2]
        assert store.read(GAME, after=5) == []
        assert store.read(GAME, after=3, upto=3) == []

    def test_pointers_number_each_all_events_stream_gaplessly(self, store: EventStorePort) -> None:
        store.append("g-a", 0, events("a1", "A", "B"))
        store.append("g-b", 0, events("b1", "A"))
        store.append("g-a", 2, events("a2", "C"))
        pointers = store.read_pointers()
        assert sorted((p.game_id, p.version) for p in pointers) == [
            ("g-a", 1),
            ("g-a", 2),
            ("g-a", 3),
            ("g-b", 1),
        ]
        by_stream: dict[str, list[int]] = {}
        for pointer in pointers:
            by_stream.setdefault(pointer.stream, []).append(pointer.position)
        assert all(positions == list(range(1, len(positions) + 1)) for positions in by_stream.values())
        for game_id in ("g-a", "g-b"):
            envelopes = store.read(game_id)
            mine = [p for p in pointers if p.game_id == game_id]
            assert [(p.version, p.position, p.at) for p in mine] == [
                (e.version, e.position, e.at) for e in envelopes
            ]
        assert store.read_pointers(count=0) == []

    def test_pointers_after_a_checkpoint_are_the_new_ones_only(self, store: EventStorePort) -> None:
        store.append("g-a", 0, events("a1", "A", "B"))
        store.append("g-b", 0, events("b1", "A"))
        checkpoint = {p.stream: p.position for p in store.read_pointers()}
        assert store.read_pointers(checkpoint) == []
        store.append("g-b", 1, events("b2", "B"))
        store.append("g-c", 0, events("c1", "A"))
        later = store.read_pointers(checkpoint)
        assert sorted((p.game_id, p.version) for p in later) == [("g-b", 2), ("g-c", 1)]
        assert [
            (p.game_id, p.version) for p in store.read_pointers(checkpoint, count=1) if p.game_id == "g-b"
        ] == [("g-b", 2)]

    @freeze_time("2026-11-22 10:00:00")
    def test_at_comes_from_the_clock(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B"))
        assert {e.at for e in store.read(GAME)} == {"2026-11-22T10:00:00.000000Z"}

    def test_an_injected_clock_is_written_as_utc(self, make_store: StoreFactory) -> None:
        paris = timezone(timedelta(hours=1))
        clock: Clock = lambda: datetime(2026, 11, 22, 11, 30, 0, 250, tzinfo=paris)  # noqa: E731
        store = make_store(clock=clock)
        store.append(GAME, 0, events("c1", "A"))
        assert store.read(GAME)[0].at == "2026-11-22T10:30:00.000250Z"

    def test_events_form_a_hash_chain(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B"))
        store.append(GAME, 2, events("c2", "C", x=1))
        envelopes = store.read(GAME)
        assert envelopes[0].prev_hash == "0" * 64
        assert [e.prev_hash for e in envelopes[1:]] == [e.hash for e in envelopes[:-1]]
        for envelope in envelopes:
            # The secret counts only through its salted digest, which the hash covers.
            hidden = ("hash", "position", "secret", "salt", "body", "command_secret", "command_salt")
            body = {k: v for k, v in vars(envelope).items() if k not in hidden}
            # A command's fields are hashed only on the envelope that records one.
            body = {k: v for k, v in body.items() if not k.startswith("command_") or k == "command_id"}
            body.pop("command")
            body["audience"] = list(envelope.audience)
            text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            assert envelope.hash == hashlib.sha256(text.encode()).hexdigest()
        assert verify_chain(envelopes) is None
        assert verify_chain(store.read(GAME, after=1)) is None

    def test_a_secret_is_committed_by_a_salted_digest_the_hash_covers(self, store: EventStorePort) -> None:
        card = {"card": "LALE"}
        same = [NewEvent(f"c1:{i}", "CardDrawn", {}, secret=card, audience=(0,)) for i in range(2)]
        store.append(GAME, 0, [*same, *events("c2", "Open")])
        first, second, open_ = store.read(GAME)
        for envelope in (first, second):
            assert len(bytes.fromhex(envelope.salt)) == 32
            payload = bytes.fromhex(envelope.salt) + b'{"card":"LALE"}'
            assert envelope.secret_digest == hashlib.sha256(payload).hexdigest()
        # A fresh salt per event: equal secrets never show equal digests.
        assert first.salt != second.salt and first.secret_digest != second.secret_digest
        assert (open_.salt, open_.secret_digest) == ("", "")
        # The hash stays the same without the secret: anyone can recompute it from the digest.
        assert envelope_hash(replace(first, secret=None, salt="")) == first.hash

    def test_verify_chain_finds_a_secret_that_is_not_the_committed_one(self, store: EventStorePort) -> None:
        store.append(GAME, 0, [NewEvent("c1:0", "CardDrawn", {}, secret={"card": "LALE"}, audience=(0,))])
        (sealed,) = store.read(GAME)
        assert verify_chain([replace(sealed, secret={"card": "KAHU"})]) == 1
        assert verify_chain([replace(sealed, salt="00" * 32)]) == 1
        assert verify_chain([replace(sealed, salt="not hex")]) == 1

    def test_verify_chain_finds_a_tampered_event(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B", "C"))
        envelopes = store.read(GAME)
        edited = replace(envelopes[1], data={"cheat": True})
        assert verify_chain([envelopes[0], edited, envelopes[2]]) == 2
        resealed = replace(edited, hash="f" * 64)
        assert verify_chain([envelopes[0], resealed, envelopes[2]]) == 2
        assert verify_chain([envelopes[0], envelopes[2]]) == 3
        assert verify_chain([replace(envelopes[0], prev_hash="1" * 64)]) == 1

    def test_wait_returns_events_already_there_at_once(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A", "B"))
        assert [e.version for e in store.wait(GAME, after=1, timeout_ms=10_000)] == [2]

    def test_wait_wakes_on_the_next_append(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A"))
        timer = threading.Timer(0.2, store.append, args=(GAME, 1, events("c2", "B")))
        timer.start()
        woken = store.wait(GAME, after=1, timeout_ms=10_000)
        timer.join()
        assert [e.event_id for e in woken] == ["c2:0"]

    def test_wait_times_out_empty(self, store: EventStorePort) -> None:
        store.append(GAME, 0, events("c1", "A"))
        assert store.wait(GAME, after=1, timeout_ms=50) == []
        assert store.wait(GAME, after=1, timeout_ms=0) == []

    @pytest.mark.parametrize(
        ("game_id", "expected", "batch"),
        [
            ("g", 0, []),
            ("g", -1, events("c1", "A")),
            ("", 0, events("c1", "A")),
            ("g{1}", 0, events("c1", "A")),
            ("g", 0, [NewEvent("same", "A", {}), NewEvent("same", "B", {})]),
            ("g", 0, [NewEvent("", "A", {})]),
        ],
        ids=["empty", "negative", "no-game", "braces", "repeated-id", "blank-id"],
    )
    def test_malformed_appends_are_refused(
        self, store: EventStorePort, game_id: str, expected: int, batch: list[NewEvent]
    ) -> None:
        with pytest.raises(ValueError):
            store.append(game_id, expected, batch)
        assert store.read_pointers() == []

    def test_one_of_many_writers_with_the_same_expected_version_wins(self, store: EventStorePort) -> None:
        results = run_writers(lambda i: store.append(GAME, 0, events(f"w{i}", "A")))
        winners = [r for r in results if isinstance(r, AppendResult)]
        losers = [r for r in results if isinstance(r, VersionConflict)]
        assert (len(winners), len(losers)) == (1, WRITERS - 1)
        assert winners[0].versions == [1] and {e.actual for e in losers} == {1}
        assert [e.version for e in store.read(GAME)] == [1]

    def test_writers_retrying_on_conflict_all_land_gapless(self, store: EventStorePort) -> None:
        def append_until_stored(i: int) -> object:
            while True:
                try:
                    return store.append(GAME, store.version(GAME), events(f"w{i}", "A"))
                except VersionConflict:
                    continue

        results = run_writers(append_until_stored)
        stored = store.read(GAME)
        assert [e.version for e in stored] == list(range(1, WRITERS + 1))
        assert {e.command_id for e in stored} == {f"w{i}" for i in range(WRITERS)}
        assert all(isinstance(r, AppendResult) for r in results)
        assert sorted(v for r in results for v in r.versions) == list(range(1, WRITERS + 1))
        assert [p.position for p in store.read_pointers()] == list(range(1, WRITERS + 1))
        assert verify_chain(stored) is None


class OneSequenceContract(EventStoreContract):
    """A store on one Redis (or in memory) numbers every event of every game in one sequence."""

    def test_read_all_numbers_events_of_all_games_in_one_sequence(self, store: EventStorePort) -> None:
        assert isinstance(store, EventStore | InMemoryEventStore)
        store.append("g-a", 0, events("a1", "A", "B"))
        result = store.append("g-b", 0, events("b1", "A"))
        store.append("g-a", 2, events("a2", "C"))
        assert result.positions == [3]
        assert store.read_all() == [(1, "g-a", 1), (2, "g-a", 2), (3, "g-b", 1), (4, "g-a", 3)]
        assert store.read_all(after_position=2) == [(3, "g-b", 1), (4, "g-a", 3)]
        assert store.read_all(after_position=1, count=2) == [(2, "g-a", 2), (3, "g-b", 1)]
        assert store.read_all(count=0) == []
        assert [e.position for e in store.read("g-a")] == [1, 2, 4]
        assert len({p.stream for p in store.read_pointers()}) == 1


class TestInMemoryEventStore(OneSequenceContract):
    @pytest.fixture
    def make_store(self) -> StoreFactory:
        return lambda clock=utc_now: InMemoryEventStore(clock)


class TestRedisEventStore(OneSequenceContract):
    @pytest.fixture
    def make_store(self, redis_client: redis.Redis) -> StoreFactory:
        return lambda clock=utc_now: EventStore(redis_client, clock)


class TestRedisClusterEventStore(EventStoreContract):
    """The same contract on a 3-primary Redis Cluster: games in buckets, one stream per bucket."""

    @pytest.fixture
    def make_store(self, cluster_client: RedisCluster) -> StoreFactory:
        return lambda clock=utc_now: EventStore(cluster_client, clock)


def _count_events_of_three_games(store: EventStore) -> None:
    before = store.stored()
    for number, game in enumerate(("count-a", "count-b", "count-c")):
        batch = [
            NewEvent(f"{game}:{i}", "Noted", {"i": i}, actor="organizer", command_id=game)
            for i in range(number + 1)
        ]
        store.append(game, 0, batch)
    assert store.stored() == before + 1 + 2 + 3


def test_stored_counts_every_event_on_one_redis(redis_client: redis.Redis) -> None:
    _count_events_of_three_games(EventStore(redis_client, utc_now))


def test_stored_counts_every_event_of_every_bucket_on_a_cluster(cluster_client: RedisCluster) -> None:
    _count_events_of_three_games(EventStore(cluster_client, utc_now))
