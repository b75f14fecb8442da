"""`python -m bench store` books what the server spent per appended event (INFO commandstats and
the main thread's CPU) beside a raw XADD of the same bytes; no speed is asserted, but what the
append script calls is: 6 commands a batch and 2 an event when nothing is amiss."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from bench import append_cost
from bench.appends import Timing, corpus


@pytest.fixture(params=["redis", "cluster"])
def client(request: pytest.FixtureRequest) -> redis.Redis | RedisCluster:
    name = "redis_client" if request.param == "redis" else "cluster_client"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


def test_an_append_calls_six_commands_a_batch_and_two_an_event(client: redis.Redis | RedisCluster) -> None:
    timing = Timing(warmup_appends=0, seconds=0.3, rounds=1)

    store, raw = append_cost.compare(client, corpus(1, seed=1), timing, "test")

    assert store.appends > 0 and store.events >= store.appends
    assert store.nested_calls == 6 * store.appends + 2 * store.events
    assert store.command_us > store.nested_us > 0
    assert store.cpu_us > 0
    assert raw.events > 0 and raw.command_us > 0 and raw.nested_calls == 0


def test_books_subtract_only_the_commands_that_ran_between() -> None:
    before = append_cost.Books({"evalsha": (2, 10.0), "xadd": (4, 8.0)}, 1.0)
    after = append_cost.Books({"evalsha": (5, 40.0), "xadd": (4, 8.0), "hset": (3, 6.0)}, 1.5)

    spent = after.minus(before)

    assert spent.commands == {"evalsha": (3, 30.0), "hset": (3, 6.0)}
    assert spent.cpu_seconds == pytest.approx(0.5)


def test_a_slice_the_server_spent_preempted_moves_the_median_no_more_than_any_other() -> None:
    cost = append_cost.Cost()
    for command_us in (30.0, 31.0, 500.0):
        spent = append_cost.Books({"evalsha": (10, command_us * 20)}, 0.001)
        append_cost.book(cost, spent, appends=10, events=20, top_level=("evalsha",))

    assert cost.median_command_us() == 31.0
    assert cost.median_cpu_us() == pytest.approx(50.0)
    assert cost.per_event(cost.command_us) == pytest.approx(187.0)
