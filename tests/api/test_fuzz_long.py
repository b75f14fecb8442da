"""The long schemathesis run (`make fuzz-long`): the service as gunicorn serves it, rate limits
off, every phase (examples, coverage, fuzzing, stateful over the links schemathesis infers) and
every check, about 10,000 generated requests (tests/api/schemathesis.toml). No failure of any
check is allowed. tests/api/test_fuzz.py is its short form in `make test`.

The service plays the families that live in the tests too (ARCHIPELAGO_GAME_PLUGINS), and the
run's hooks (tests/api/fuzz_hooks.py, fuzz_seats.py) put real game and tournament ids and their
tokens on its requests: every operation that takes a token must get past the 401 and the 403
at least once, and the operations that only ever got a 4xx are printed with their statuses.
FUZZ_MAX_EXAMPLES sets schemathesis' examples per operation (default: the config's 100).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from service.embedded_redis import EmbeddedRedis
from service.game_plugins import VARIABLE
from tests.live_web import ROOT, live_web

pytestmark = pytest.mark.fuzz_long

CONFIG = Path(__file__).with_name("schemathesis.toml")
MIN_CASES = 10_000
EXAMPLES = os.environ.get("FUZZ_MAX_EXAMPLES")
REFUSED = {401, 403}
RUN_SECONDS = 3600


def test_a_long_schemathesis_run_finds_no_failure_of_any_check(
    redis_server: EmbeddedRedis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stream ends soon after its last event, so that reading one does not hold a request.
    monkeypatch.setenv("ARCHIPELAGO_SSE_MAX_SECONDS", "0.5")
    monkeypatch.setenv("ARCHIPELAGO_SSE_HEARTBEAT_SECONDS", "0.2")
    monkeypatch.setenv(VARIABLE, "tests.families.registered:register")
    statuses = tmp_path / "statuses.tsv"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "FUZZ_STATUS_LOG": str(statuses)}
    st = str(Path(sys.executable).with_name("st"))
    more = ["--max-examples", EXAMPLES] if EXAMPLES else []
    with live_web(redis_server.url, tmp_path, workers=2) as web:
        started = time.monotonic()
        done = subprocess.run(
            [st, "--config-file", str(CONFIG), "run", f"{web.url}/openapi.json", "--checks", "all", *more],
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
    # The warnings (what the run could not reach), the phases, the failures, the count of cases.
    start = next((at for at in map(output.rfind, ("= WARNINGS =", "= SUMMARY =")) if at >= 0), 0)
    print(output[start:])
    answered = answers(statuses)
    print("Statuses by operation:")
    print("\n".join(f"  {op}: {dict(sorted(s.items()))}" for op, s in sorted(answered.items())))
    only_4xx = sorted(op for op, s in answered.items() if all(400 <= c < 500 for c in s))
    print(f"{len(only_4xx)} of {len(answered)} operations got only 4xx answers: {only_4xx}")
    assert done.returncode == 0, output[-20000:]
    assert cases is not None and int(cases.group(1)) >= (MIN_CASES if not EXAMPLES else 1), output[-3000:]
    assert [op for op, s in answered.items() if set(s) <= REFUSED] == []


def answers(log: Path) -> dict[str, Counter[int]]:
    """The statuses each operation answered, from the hooks' log."""
    found: dict[str, Counter[int]] = defaultdict(Counter)
    for line in log.read_text().splitlines():
        operation, status = line.rsplit("\t", 1)
        found[operation][int(status)] += 1
    return found
