"""How the launcher waits for Redis and restarts what dies: back-off, crash loops, loading."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from service import launcher
from service.embedded_redis import free_port, wait_until_loaded
from service.launcher import Child, Launcher, LaunchError
from tests.service.launcher_run import STARTED_WITHIN, running
from tests.slow_loading import slow_loading_conf, slow_loading_data


def exiting(code: int, after: float = 0.0) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", f"import sys, time; time.sleep({after}); sys.exit({code})"]
    )


def test_a_part_that_keeps_dying_is_started_again_with_back_off_then_given_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(launcher, "RESTART_FIRST_DELAY", 0.01)
    run = Launcher({})
    started: list[subprocess.Popen[bytes]] = []

    def start() -> Child:
        started.append(exiting(3))
        return Child("flaky", started[-1], own_group=False)

    part = run._add("flaky", start)
    part.child = start()

    with pytest.raises(LaunchError, match="flaky died 5 times within 60s; giving up"):
        run._supervise("http://127.0.0.1:1")

    said = capsys.readouterr().err
    assert re.findall(r"starting it again in ([\d.]+)s", said) == ["0.01", "0.02", "0.04", "0.08"]
    assert said.count("(exit code 3)") == 5
    assert len(started) == 5


def test_a_part_that_ran_longer_than_the_crash_window_starts_its_back_off_afresh(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(launcher, "RESTART_FIRST_DELAY", 0.01)
    monkeypatch.setattr(launcher, "CRASH_WINDOW", 0.2)
    run = Launcher({})
    started: list[subprocess.Popen[bytes]] = []

    def start() -> Child:
        if len(started) == 4:
            run.stop_signal = signal.SIGTERM
        started.append(exiting(1, after=0.3))
        return Child("slow to die", started[-1], own_group=False)

    part = run._add("slow to die", start)
    part.child = start()

    assert run._supervise("http://127.0.0.1:1") == 0
    said = capsys.readouterr().err
    assert re.findall(r"starting it again in ([\d.]+)s", said) == ["0.01"] * 4
    started[-1].wait()


class Silent:
    """A Redis client whose server never answers (connection refused)."""

    def ping(self) -> bool:
        raise redis.exceptions.ConnectionError("refused")


def test_the_wait_for_redis_ends_after_the_stall_timeout_without_progress() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]

    with pytest.raises(RuntimeError, match="no progress for 30s"):
        wait_until_loaded(Silent(), stall_timeout=30, clock=clock, sleep=lambda _: None)  # type: ignore[arg-type]
    assert 30 <= now[0] <= 32


def test_make_run_says_how_far_redis_has_loaded_its_data_then_serves(tmp_path: Path) -> None:
    data = tmp_path / "var"
    slow_loading_data(data, seconds=4, cycle=0.25)
    conf = slow_loading_conf(tmp_path / "redis.conf", cycle=0.25)

    with running(tmp_path, REDIS_CONF=str(conf)) as run:
        run.wait_for("Archipelago is running", STARTED_WITHIN)
        said = run.said()
        progress = re.findall(r"Redis is loading ([\d.]+) MB: (\d+)%", said)
        assert progress, said
        assert float(progress[0][0]) > 30
        assert said.index("Redis is loading") < said.index("Archipelago is running")
        assert "starting Redis on 3" in said  # MB of data: the size it will load
        assert run.stop() == 0


def test_a_redis_url_that_never_answers_ends_the_launch_after_the_start_timeout() -> None:
    port = free_port()  # nothing listens there
    run = Launcher({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "REDIS_START_TIMEOUT": "0.5"})

    with pytest.raises(LaunchError, match=f"Redis at redis://127.0.0.1:{port}/0 is not ready: .*no progress"):
        run._wait_external_redis(f"redis://127.0.0.1:{port}/0")
