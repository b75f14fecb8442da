"""`python -m tests.faults.paused_worker JOB WHERE MARKER [worker args]`: the real forking worker,
whose job JOB (a function of service.jobs) stops for good before or after its work.

On reaching the pause the work horse writes its pid to MARKER, so a test knows the job is under
way (before: nothing of it written yet; after: all written, the job not yet reported done) and
can kill the worker there.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service import jobs, worker

PAUSE_SECONDS = 600


def paused(job: Callable[..., Any], where: str, marker: Path) -> Callable[..., Any]:
    def pause() -> None:
        marker.write_text(str(os.getpid()))
        time.sleep(PAUSE_SECONDS)

    @functools.wraps(job)
    def run(*args: Any, **kwargs: Any) -> Any:
        if where == "before":
            pause()
        result = job(*args, **kwargs)
        if where == "after":
            pause()
        return result

    return run


def main(argv: list[str]) -> int:
    name, where, marker, *rest = argv
    # RQ imports the job by its path (service.jobs.NAME): the horse, a fork of this
    # process, finds the paused one there.
    setattr(jobs, name, paused(getattr(jobs, name), where, Path(marker)))
    return worker.main(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
