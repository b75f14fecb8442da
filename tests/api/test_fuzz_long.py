"""The long schemathesis run (`make fuzz-long`): the service as gunicorn serves it, rate limits
off, every phase (examples, coverage, fuzzing, stateful over the links schemathesis infers) and
every check, about 10,000 generated requests (tests/api/schemathesis.toml). No failure of any
check is allowed. tests/api/test_fuzz.py is its short form in `make test`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.embedded_redis import EmbeddedRedis
from tests.live_web import ROOT, live_web

pytestmark = pytest.mark.fuzz_long

CONFIG = Path(__file__).with_name("schemathesis.toml")
MIN_CASES = 10_000
RUN_SECONDS = 3600


def test_a_long_schemathesis_run_finds_no_failure_of_any_check(
    redis_server: EmbeddedRedis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stream ends soon after its last event, so that reading one does not hold a request.
    monkeypatch.setenv("ARCHIPELAGO_SSE_MAX_SECONDS", "0.5")
    monkeypatch.setenv("ARCHIPELAGO_SSE_HEARTBEAT_SECONDS", "0.2")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    st = str(Path(sys.executable).with_name("st"))
    with live_web(redis_server.url, tmp_path, workers=2) as web:
        started = time.monotonic()
        done = subprocess.run(
            [st, "--config-file", str(CONFIG), "run", f"{web.url}/openapi.json", "--checks", "all"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_SECONDS,
            check=False,
        )
        seconds = time.monotonic() - started
    output = done.stdout + done.stderr
    cases = re.search(r"(\d+) generated", output)
    print(
        f"schemathesis: {cases.group(1) if cases else '?'} cases in {seconds:.0f} s, exit {done.returncode}"
    )
    print(output[output.rfind("Test Phases") :])  # the phases, the failures, the count of cases
    assert done.returncode == 0, output[-20000:]
    assert cases is not None and int(cases.group(1)) >= MIN_CASES, output[-3000:]
