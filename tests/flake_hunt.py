"""`make test-flakes`: the whole `make test` suite several times while a busy loop holds every
core, then every test that failed at least once, with how often.

A test that passes on a quiet machine and fails when its threads, servers and clocks are
starved is a test that depends on luck; this is the load it must survive. The hogs run at
the same priority as the suite, so the suite gets about half of each core.

    python -m tests.flake_hunt [--runs 3] [--hogs N] [pytest arguments...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from multiprocessing.synchronize import Event as StopEvent
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def hog(stop: StopEvent) -> None:
    """Spin until told to stop: a core's worth of load that yields only to the scheduler."""
    while not stop.is_set():
        for _ in range(100_000):
            pass


def failed_tests(report: Path) -> list[str]:
    """Node ids of the tests a junit-xml report marks failed or errored."""
    if not report.exists():
        return ["<no report: the run did not finish>"]
    failed = []
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return failed


def run_suite(pytest_args: list[str], report: Path) -> tuple[int, float]:
    command = [sys.executable, "-m", "pytest", f"--junitxml={report}", *pytest_args]
    started = time.monotonic()
    code = subprocess.call(command, cwd=ROOT)
    return code, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 2, help="busy loops (default: one per core)"
    )
    options, pytest_args = parser.parse_known_args(argv)
    pytest_args = [arg for arg in pytest_args if arg != "--"]

    stop = multiprocessing.Event()
    hogs = [multiprocessing.Process(target=hog, args=(stop,), daemon=True) for _ in range(options.hogs)]
    for each in hogs:
        each.start()
    failures: Counter[str] = Counter()
    lines = []
    try:
        with tempfile.TemporaryDirectory(prefix="flake-hunt-") as folder:
            for run in range(1, options.runs + 1):
                load_before = os.getloadavg()[0]
                code, seconds = run_suite(pytest_args, Path(folder) / f"run{run}.xml")
                failed = failed_tests(Path(folder) / f"run{run}.xml")
                failures.update(failed)
                lines.append(
                    f"run {run}: exit {code}, {seconds:.0f} s, {len(failed)} failed, "
                    f"load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
                )
                print(f"flake-hunt: {lines[-1]}", flush=True)
    finally:
        stop.set()
        for each in hogs:
            each.join(timeout=5)

    print(f"\nflake-hunt: {options.runs} runs with {options.hogs} busy loops")
    for line in lines:
        print(f"  {line}")
    if not failures:
        print("flake-hunt: 0 tests failed in any run")
        return 0
    print(f"flake-hunt: {len(failures)} tests failed at least once:")
    for test, times in failures.most_common():
        print(f"  {times}/{options.runs}  {test}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
