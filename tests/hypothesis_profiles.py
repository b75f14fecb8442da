"""Hypothesis profiles: how many random games the property tests play.

`quick` (20 games per playout test, the same ones every run) is what `make test` runs, in CI
too: a landing is never blocked by the draw of a new random game. `full` (200 games per playout
test, new ones every run) is what `make test-long` runs, and where a random search for new
failures belongs. HYPOTHESIS_PROFILE names either (the Makefile sets it); without it, CI=true
selects `full`. tests/conftest.py loads the profile before
any test module is imported, so `@settings(...)` without `max_examples` takes the profile's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import settings

QUICK = "quick"
FULL = "full"

# A random game takes up to a second: no deadline, whatever the profile.
settings.register_profile(QUICK, max_examples=20, deadline=None, derandomize=True)
settings.register_profile(FULL, max_examples=200, deadline=None, derandomize=False)


def profile_for(environ: Mapping[str, str]) -> str:
    """The profile a run with this environment uses."""
    if environ.get("HYPOTHESIS_PROFILE"):
        return environ["HYPOTHESIS_PROFILE"]
    return FULL if environ.get("CI", "").lower() in ("true", "1", "yes") else QUICK


def load(environ: Mapping[str, str] = os.environ) -> None:
    settings.load_profile(profile_for(environ))


def examples(share: int) -> int:
    """One `share`-th of the loaded profile's examples (at least one): for a test whose games
    cost more, or that repeats what another test covers with the full count."""
    return max(1, settings.default.max_examples // share)
