"""What the benchmarks share: figures, the summary table, percentiles, a throwaway Redis."""

from __future__ import annotations

import gc
import math
import os
import platform
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from service.embedded_redis import EmbeddedRedis, start_redis


@dataclass(frozen=True)
class Figure:
    """One measured number, as the summary table shows it."""

    part: str  # domain | store | api
    label: str
    value: float
    unit: str


def say(message: str = "") -> None:
    print(message, flush=True)


def fmt(value: float) -> str:
    """A figure with as many digits as it deserves."""
    if value != value:  # NaN: nothing was measured
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def percentile(samples: Sequence[float], p: float) -> float:
    """The nearest-rank `p`th percentile (0 < p <= 100); NaN for no samples."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def table(figures: Sequence[Figure], loads: Mapping[str, str] | None = None) -> str:
    """The figures as an aligned text table; `loads` adds each part's load averages beside them."""
    loads = loads or {}
    rows = [("part", "figure", "value", "unit", "load" if loads else "")]
    rows += [(f.part, f.label, fmt(f.value), f.unit, loads.get(f.part, "")) for f in figures]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2])]
        cells += [row[3].ljust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths).rstrip())
    return "\n".join(lines)


def load_span(before: Sequence[float], after: Sequence[float]) -> str:
    """The 1-minute load average at a part's start and end: how busy the machine was meanwhile."""
    return f"{before[0]:.1f}-{after[0]:.1f}"


def machine() -> str:
    """Date, cores, CPU and Python: the context a figure needs to mean anything."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{date.today().isoformat()}, {os.cpu_count()} cores ({cpu}), "
        f"Python {platform.python_version()} on {sys.platform}"
    )


def filesystem_of(path: str | os.PathLike[str]) -> str:
    """The filesystem type holding `path` (fsync costs depend on it), or "unknown"."""
    target = os.path.realpath(path)
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return kind
    for line in mounts:
        parts = line.split()
        if len(parts) >= 3:
            mount = parts[1]
            inside = target == mount or target.startswith(mount.rstrip("/") + "/")
            if inside and len(mount) >= len(best):
                best, kind = mount, parts[2]
    return kind


def bench_tmpdir() -> str | None:
    """Where throwaway Redis data goes: $BENCH_TMPDIR, else the system's temp dir."""
    return os.environ.get("BENCH_TMPDIR") or None


@contextmanager
def temp_redis(appendfsync: str, label: str = "redis") -> Iterator[EmbeddedRedis]:
    """A fresh embedded redis-server in a temp dir; stopped and deleted afterwards."""
    data = tempfile.mkdtemp(prefix=f"archipelago-bench-{label}-", dir=bench_tmpdir())
    server = None
    try:
        with warnings.catch_warnings():
            # start_redis leaves its log file to the child; its copy may be freed late.
            warnings.simplefilter("ignore", ResourceWarning)
            server = start_redis(data, appendfsync=appendfsync)
            gc.collect()
        yield server
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(data, ignore_errors=True)
