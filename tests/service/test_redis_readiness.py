"""The service's Redis clients check a pooled connection for leftover data without gevent's poll,
and still tell an idle connection from one holding a reply or closed by the server."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import redis

from service.embedded_redis import EmbeddedRedis
from service.redis_clients import connect
from service.redis_readiness import ReplyParser

ROOT = Path(__file__).resolve().parents[2]


def pooled_connection(client: redis.Redis) -> redis.connection.AbstractConnection:
    connection = client.connection_pool.get_connection()
    connection.connect()
    return connection


def test_the_service_clients_parse_with_the_reply_parser(redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url)
    try:
        assert client.connection_pool.connection_kwargs["parser_class"] is ReplyParser
        assert client.ping() is True
    finally:
        client.close()


def test_an_idle_connection_reads_as_empty_and_an_unread_reply_as_pending(
    redis_server: EmbeddedRedis,
) -> None:
    client = connect(redis_server.url)
    connection = pooled_connection(client)
    try:
        assert connection.can_read() is False
        connection.send_command("PING")
        # The reply arrives within a round trip; a generous ceiling, never a fixed sleep.
        assert connection.can_read(timeout=5) is True
        assert connection.can_read() is True
        assert connection.read_response() == b"PONG"
        assert connection.can_read() is False
    finally:
        connection.disconnect()
        client.close()


def test_a_connection_the_server_closed_is_not_handed_out_again(redis_server: EmbeddedRedis) -> None:
    client = connect(redis_server.url)
    try:
        client.set("readiness", "kept")
        victim = client.client_id()
        admin = redis.Redis.from_url(redis_server.url)
        admin.client_kill_filter(_id=victim)
        admin.close()
        # The pool finds the dead connection before sending and opens a fresh one.
        assert client.get("readiness") == b"kept"
        assert client.client_id() != victim
    finally:
        client.delete("readiness")
        client.close()


GEVENT_CHILD = textwrap.dedent(
    """
    import sys
    from gevent import monkey
    monkey.patch_all()
    import gevent.select

    def refused(*args, **kwargs):
        raise AssertionError("a command went through gevent's poll")

    gevent.select.poll = refused
    import select
    select.poll = refused
    from service.redis_clients import connect

    client = connect(sys.argv[1])
    for n in range(20):
        client.set("readiness-gevent", n)
        assert client.get("readiness-gevent") == str(n).encode()
    client.delete("readiness-gevent")
    print("ok")
    """
)


def test_under_gevent_a_command_does_not_go_through_gevents_poll(redis_server: EmbeddedRedis) -> None:
    done = subprocess.run(
        [sys.executable, "-c", GEVENT_CHILD, redis_server.url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
