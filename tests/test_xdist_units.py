"""The work units `make test` hands its workers (tests/xdist_units.py)."""

from __future__ import annotations

from tests.xdist_units import unit_of


def test_the_browser_tests_are_one_unit_each_replays_module_one_and_any_other_test_its_own() -> None:
    assert unit_of("tests/browser/test_play.py::test_a[1]") == unit_of("tests/browser/test_replay.py::test_b")
    assert unit_of("tests/replays/test_render.py::test_a[x]") == unit_of(
        "tests/replays/test_render.py::test_b"
    )
    assert unit_of("tests/replays/test_render.py::test_a") != unit_of(
        "tests/replays/test_notation.py::test_a"
    )
    assert unit_of("tests/api/test_x.py::test_a") != unit_of("tests/api/test_x.py::test_b")
    assert unit_of("tests/api/test_x.py::test_a[redis]") == "tests/api/test_x.py::test_a[redis]"
