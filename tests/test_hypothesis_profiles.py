"""The hypothesis profiles: quick locally, the full count of random games in CI."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

from tests.hypothesis_profiles import FULL, QUICK, examples, profile_for

TESTS = Path(__file__).parent


def test_ci_runs_the_full_profile_of_at_least_200_games_per_playout_test() -> None:
    assert profile_for({"CI": "true"}) == FULL
    assert settings.get_profile(FULL).max_examples >= 200


def test_a_local_run_is_quick_unless_hypothesis_profile_says_otherwise() -> None:
    assert profile_for({}) == QUICK
    assert settings.get_profile(QUICK).max_examples < settings.get_profile(FULL).max_examples
    assert profile_for({"HYPOTHESIS_PROFILE": FULL}) == FULL
    assert profile_for({"CI": "true", "HYPOTHESIS_PROFILE": QUICK}) == QUICK


def test_make_test_runs_the_quick_profile_seeded_and_make_test_long_the_full_one() -> None:
    """A landing's CI runs the same random games every time; new ones are drawn by test-long."""
    assert settings.get_profile(QUICK).derandomize
    assert not settings.get_profile(FULL).derandomize
    makefile = (TESTS.parent / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^HYPOTHESIS_PROFILE \?= quick$", makefile, re.M)
    test_long = makefile.split("\ntest-long:", 1)[1].split("\n\n", 1)[0]
    assert "HYPOTHESIS_PROFILE=full" in test_long


def test_a_share_of_the_profile_is_at_least_one_example() -> None:
    assert examples(share=8) == max(1, settings.default.max_examples // 8)
    assert examples(share=10**6) == 1


def test_no_property_test_hard_codes_its_number_of_examples() -> None:
    """Counts come from the profile (or a share of it): a literal would ignore CI's full run.
    An environment variable may still ask for more (FUZZ_EXAMPLES, LEAK_EXAMPLES)."""
    literal = re.compile(r"max_examples\s*=\s*\d|_EXAMPLES\",\s*\"?\d")
    offenders = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if literal.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
