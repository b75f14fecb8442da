"""The offline `replays` commands run without the service's servers' libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_replays_cli_imports_neither_redis_nor_flask_nor_rq() -> None:
    probe = (
        "import sys, replays.cli; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('redis', 'flask', 'rq', 'service')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
