"""Round robin: the Berger tables of FIDE C.05 Annex 1, byes for odd counts, double cycles."""

from __future__ import annotations

from itertools import combinations

import pytest

from domain.tournament.berger import round_robin
from domain.tournament.pairing import Pairing

# The published tables, written out by hand: "a-b" is draw number a in the first seat.
FIDE_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
FIDE_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
FIDE_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


def _numbers(n: int) -> list[str]:
    return [str(k) for k in range(1, n + 1)]


def _written(pairing: Pairing) -> str:
    return " ".join("-".join(table) for table in pairing.tables)


@pytest.mark.parametrize(("n", "published"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_round_robin_gives_the_published_berger_table_round_by_round(n: int, published: list[str]) -> None:
    pairings = round_robin(_numbers(n))
    assert [_written(p) for p in pairings] == published
    assert all(p.byes == () for p in pairings)


def test_round_robin_names_entrants_by_their_draw_number() -> None:
    pairings = round_robin(["ann", "bob", "cy", "dee"])
    assert pairings[0] == Pairing((("ann", "dee"), ("bob", "cy")))
    assert pairings[1] == Pairing((("dee", "cy"), ("ann", "bob")))


def test_an_odd_count_gives_a_bye_to_whoever_meets_the_missing_draw_number() -> None:
    pairings = round_robin(_numbers(5))
    assert [_written(p) for p in pairings] == ["2-5 3-4", "5-3 1-2", "3-1 4-5", "1-4 2-3", "4-2 5-1"]
    assert [p.byes for p in pairings] == [("1",), ("4",), ("2",), ("5",), ("3",)]


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_meets_exactly_once_and_everyone_plays_or_sits_out_once_a_round(n: int) -> None:
    pairings = round_robin(_numbers(n))
    met = [frozenset(table) for p in pairings for table in p.tables]
    assert sorted(met, key=sorted) == sorted(map(frozenset, combinations(_numbers(n), 2)), key=sorted)
    for p in pairings:
        seated = [e for table in p.tables for e in table] + list(p.byes)
        assert sorted(seated) == sorted(_numbers(n))
        assert len(p.byes) == n % 2


@pytest.mark.parametrize("n", range(3, 13))
def test_double_round_robin_plays_every_pair_once_in_each_seat_order(n: int) -> None:
    pairings = round_robin(_numbers(n), double=True)
    games = sorted(table for p in pairings for table in p.tables)
    assert games == sorted((a, b) for a in _numbers(n) for b in _numbers(n) if a != b)
    half = len(pairings) // 2
    assert [p.byes for p in pairings[half:]] == [p.byes for p in round_robin(_numbers(n))]


@pytest.mark.parametrize("n", range(4, 15, 2))
def test_double_round_robin_never_gives_anyone_the_same_seat_three_rounds_running(n: int) -> None:
    pairings = round_robin(_numbers(n), double=True)
    for entrant in _numbers(n):
        seats = [next(t.index(entrant) for t in p.tables if entrant in t) for p in pairings]
        runs = [seats[i : i + 3] for i in range(len(seats) - 2)]
        assert [0, 0, 0] not in runs and [1, 1, 1] not in runs, (entrant, seats)


def test_the_first_cycle_of_a_double_round_robin_plays_its_last_two_rounds_swapped() -> None:
    single = [_written(p) for p in round_robin(_numbers(6))]
    double = [_written(p) for p in round_robin(_numbers(6), double=True)]
    assert double[:5] == single[:3] + [single[4], single[3]]
    assert double[5:] == [" ".join(f"{b}-{a}" for a, b in (t.split("-") for t in r.split())) for r in single]


@pytest.mark.parametrize("entrants", [[], ["solo"]])
def test_fewer_than_two_entrants_have_no_round(entrants: list[str]) -> None:
    assert round_robin(entrants) == []


def test_an_entrant_named_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        round_robin(["a", "b", "a"])
