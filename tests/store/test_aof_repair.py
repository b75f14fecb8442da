"""A restart after a kill that cut the append-only file inside a script's MULTI/EXEC drops the
cut script whole: its first commands are never joined to the next script's (service/aof_repair.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis

from service.aof_repair import only_an_open_transaction, repair_open_transaction
from service.embedded_redis import redis_server_binary, start_redis


def command(*parts: str) -> bytes:
    out = b"*%d\r\n" % len(parts)
    for part in parts:
        out += b"$%d\r\n%s\r\n" % (len(part.encode()), part.encode())
    return out


WHOLE = command("SELECT", "0") + command("MULTI") + command("SET", "k0", "0") + command("EXEC")
OPEN = command("MULTI") + command("SET", "k1", "1") + command("SET", "k2", "2")
CUT = command("SET", "k3", "3")[:-5]


@pytest.mark.parametrize("cut_at", range(len(CUT) + 1))
def test_a_file_ending_in_an_open_multi_is_cut_back_to_its_last_exec(tmp_path: Path, cut_at: int) -> None:
    aof = tmp_path / "appendonly.aof"
    aof.write_bytes(WHOLE + OPEN + CUT[:cut_at])
    assert repair_open_transaction(aof, redis_server_binary()) == len(OPEN) + cut_at
    assert aof.read_bytes() == WHOLE


def test_a_file_ending_in_an_exec_or_a_partial_command_outside_a_transaction_is_left_to_redis(
    tmp_path: Path,
) -> None:
    aof = tmp_path / "appendonly.aof"
    for content in (WHOLE, WHOLE + CUT):
        aof.write_bytes(content)
        assert repair_open_transaction(aof, redis_server_binary()) == 0
        assert aof.read_bytes() == content


def test_a_file_whose_last_multi_has_its_exec_is_not_checked(tmp_path: Path) -> None:
    """redis-check-aof reads a grown file's RDB preamble whole: a start after a clean stop skips it."""
    aof = tmp_path / "appendonly.aof"
    aof.write_bytes(WHOLE + command("SET", "k9", "9"))
    assert repair_open_transaction(aof, str(tmp_path / "no-such-redis-server")) == 0
    aof.write_bytes(WHOLE + OPEN)
    with pytest.raises(FileNotFoundError):
        repair_open_transaction(aof, str(tmp_path / "no-such-redis-server"))


def test_damage_before_the_end_is_left_for_redis_to_refuse(tmp_path: Path) -> None:
    """A second MULTI inside an open one is not what a kill leaves: cutting there would drop
    everything after it."""
    aof = tmp_path / "appendonly.aof"
    content = WHOLE + OPEN + command("MULTI") + command("SET", "k4", "4")
    aof.write_bytes(content)
    assert repair_open_transaction(aof, redis_server_binary()) == 0
    assert aof.read_bytes() == content
    assert not only_an_open_transaction(OPEN + command("EXEC") + OPEN)
    assert not only_an_open_transaction(OPEN + b"garbage")
    assert only_an_open_transaction(OPEN + b"*2\r")


def _keys(url: str) -> set[str]:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        return {str(key) for key in client.keys("*")}
    finally:
        client.close()


def test_the_cut_script_is_not_joined_to_the_next_after_two_restarts(tmp_path: Path) -> None:
    """Redis 6.2 alone keeps the open MULTI, and k1 and k2 come back with the next script."""
    (tmp_path / "appendonly.aof").write_bytes(WHOLE + OPEN + CUT)
    server = start_redis(tmp_path)
    try:
        client = redis.Redis.from_url(server.url)
        client.eval("redis.call('set', 'k4', '4'); redis.call('set', 'k5', '5')", 0)
        client.close()
    finally:
        server.stop()
    server = start_redis(tmp_path, port=server.port)
    try:
        assert _keys(server.url) == {"k0", "k4", "k5"}
    finally:
        server.stop()
    assert b"its last" in (tmp_path / "redis.log").read_bytes()


def test_a_file_with_an_rdb_preamble_is_cut_after_it(tmp_path: Path) -> None:
    server = start_redis(tmp_path)
    try:
        client = redis.Redis.from_url(server.url)
        client.set("before", "1")
        client.bgrewriteaof()
        deadline = time.monotonic() + 30
        while (
            client.info("persistence")["aof_rewrite_in_progress"]
            or client.info("persistence")["aof_rewrite_scheduled"]
        ):
            assert time.monotonic() < deadline, "the rewrite did not end"
            time.sleep(0.05)
        client.eval("redis.call('set', 'k1', '1'); redis.call('set', 'k2', '2')", 0)
        client.close()
    finally:
        server.stop()
    aof = tmp_path / "appendonly.aof"
    content = aof.read_bytes()
    assert content.startswith(b"REDIS")
    multi = content.rindex(b"*1\r\n$5\r\nMULTI\r\n")
    aof.write_bytes(content[:-10])  # inside the script's block
    assert repair_open_transaction(aof, redis_server_binary()) == len(content) - 10 - multi
    assert aof.read_bytes() == content[:multi]
