"""The search keys its tree by a cheap command identity that tells commands apart exactly as
their posted bodies do; a seeded search of a fixed iteration count gives the same answer
as before the speed work (so speed changes are proven not to change play); and the cycle
collector, paused while a search runs, is left as the search found it."""

from __future__ import annotations

import gc
import hashlib
import random
from typing import Any

import pytest

from ai import ismcts
from ai.ismcts import Budget, search
from ai.sim import ident, key
from bench.ai import positions
from domain.decider import Command
from tests.ai.collector import left_after_search


def test_ident_is_hashable_and_equal_exactly_when_the_posted_bodies_are() -> None:
    commands = [
        Command("PlaceBridge", 0, {"card": "KAHU", "line": ["GOLA", "KAHU"]}),
        Command("PlaceBridge", 0, {"line": ["GOLA", "KAHU"], "card": "KAHU"}),
        Command("PlaceBridge", 0, {"card": "KAHU", "line": ["KAHU", "GOLA"]}),
        Command("DiscardCards", 0, {"cards": ["KAHU"]}),
        Command("DiscardCards", 0, {"cards": "KAHU"}),
        Command("DrawCard", 0, {"source": "stack"}),
        Command("DrawCard", 1, {"source": "stack"}),
        Command("SwapBridge", 0, {"line": [["A", "B"]], "to": {"x": [1]}}),
        Command("SwapBridge", 0, {"line": [("A", "B")], "to": {"x": (1,)}}),
        Command("SwapBridge", 0, {"line": [["A", "B"]], "to": {"x": ["1"]}}),
        Command("GiveCards", 0, {"gifts": {"1": "KAHU", "2": "GOLA"}}),
        Command("GiveCards", 0, {"gifts": {"2": "GOLA", "1": "KAHU"}}),
        Command("GiveCards", 0, {"gifts": [["1", "KAHU"], ["2", "GOLA"]]}),
        Command("TakeCard", 0, {"card": None}),
        Command("EndTurn", 0, {}),
    ]
    for a in commands:
        for b in commands:
            assert (ident(a) == ident(b)) == (key(a) == key(b)), (a, b)
            assert hash(ident(a)) == hash(ident(a))


def test_ident_of_a_shared_command_is_kept_and_of_a_changeable_one_is_computed_each_time() -> None:
    from types import MappingProxyType

    shared = Command("PlaceBridge", 0, MappingProxyType({"card": "KAHU", "line": ["GOLA", "KAHU"]}))
    first = ident(shared)
    assert ident(shared) is first
    assert first == ident(Command("PlaceBridge", 0, {"card": "KAHU", "line": ["GOLA", "KAHU"]}))
    args: dict[str, Any] = {"card": "KAHU"}
    changeable = Command("PlayCard", 0, args)
    before = ident(changeable)
    args["card"] = "GOLA"
    assert ident(changeable) != before
    assert ident(changeable) == ident(Command("PlayCard", 0, {"card": "GOLA"}))


# (game, seats) -> digest of the root's visits after a seeded search of 120 iterations.
PINNED = {
    ("kahuna", 2): "eeeb5a1e76c9ad10",  # since its search explores less (0.5)
    ("arabana-opodopo", 3): "913eba230ec2f343",
    ("conquest-of-paradise", 2): "ed8b77d7fabc041b",  # as before its search kept its steps
}


@pytest.mark.parametrize(("game", "seats"), list(PINNED))
def test_a_seeded_search_of_fixed_iterations_gives_the_pinned_visits(game: str, seats: int) -> None:
    ((knowledge, legal),) = positions(game, seats, {}, 1, 3)
    found = search(knowledge, legal, random.Random(5), Budget(iterations=120))
    digest = hashlib.sha256(repr(sorted(found.visits.items())).encode()).hexdigest()[:16]
    assert digest == PINNED[(game, seats)]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_pauses_during_a_search_and_is_left_as_it_was(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    ((knowledge, legal),) = positions("kahuna", 2, {}, 1, 3)
    during: list[bool] = []
    real = ismcts._iterate

    def watched(*args: Any) -> None:
        during.append(gc.isenabled())
        real(*args)

    monkeypatch.setattr(ismcts, "_iterate", watched)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        search(knowledge, legal, random.Random(5), Budget(iterations=20))
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()

    assert len(during) == 20 and not any(during)
    assert after is enabled


def test_a_search_that_fails_gives_the_cycle_collector_back(monkeypatch: pytest.MonkeyPatch) -> None:
    ((knowledge, legal),) = positions("kahuna", 2, {}, 1, 3)

    def broken(*args: Any) -> None:
        raise RuntimeError("a rule failed")

    monkeypatch.setattr(ismcts, "_iterate", broken)
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        search(knowledge, legal, random.Random(5), Budget(iterations=20))
    assert gc.isenabled()


def test_a_finished_search_leaves_no_tree_for_the_cycle_collector() -> None:
    """The collector is paused during searches; a tree whose nodes pointed to their parents was
    cyclic garbage that a later collection walked whole, inside the next move's time."""
    ((knowledge, legal),) = positions("kahuna", 2, {}, 1, 3)
    left = left_after_search(knowledge, legal)
    assert left < 50, f"{left} objects of the finished search waited for the cycle collector"
