"""Arabana-Opodopo tables: sizes of 3-4, grouped by standing, few repeat meetings, seats rotated.

The property tests play random tournaments (3-20 entrants, random places, late entries
and withdrawals) and check, every round, what group_tables guarantees:

- every present entrant sits at exactly one table or has a bye; every table has an allowed
  size; the byes are the fewest that make the split possible, and the split has the most
  tables of 4 (checked against every split of the count);
- the byes go to the entrants with the fewest byes, the lowest-ranked among them;
- no swap of two entrants between tables would lower the number of repeat meetings;
- at each table no other seat order gives a smaller total of the times each entrant has
  held its new seat (checked over every order);
- the same standings in any order give the same tables.

And the rotation: the same entrants at one table for k rounds hold every seat within one
time of each other (with changing tablemates no seat order can promise that to everyone;
the per-table optimum above is what is guaranteed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decider import IllegalMove
from domain.tournament.pairing import Pairing, Standing
from domain.tournament.tables import group_tables, table_sizes


def fresh(count: int) -> list[Standing]:
    return [Standing(f"e{k:02d}", 0.0, k) for k in range(count)]


# --- worked examples ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "byes", "split"),
    [
        (3, 0, (3,)),
        (4, 0, (4,)),
        (5, 1, (4,)),
        (6, 0, (3, 3)),
        (7, 0, (4, 3)),
        (8, 0, (4, 4)),
        (9, 0, (3, 3, 3)),
        (10, 0, (4, 3, 3)),
        (11, 0, (4, 4, 3)),
        (13, 0, (4, 3, 3, 3)),
        (17, 0, (4, 4, 3, 3, 3)),
    ],
)
def test_table_sizes_prefer_4s_unless_the_count_forces_3s(
    count: int, byes: int, split: tuple[int, ...]
) -> None:
    assert table_sizes(count, (4, 3)) == (byes, split)


def test_round_one_seats_the_standings_in_order_at_tables_of_4_then_3() -> None:
    pairing = group_tables(fresh(7))
    assert pairing == Pairing((("e00", "e01", "e02", "e03"), ("e04", "e05", "e06")))


def test_five_entrants_play_one_table_of_4_and_the_lowest_ranked_sits_out() -> None:
    assert group_tables(fresh(5)) == Pairing((("e00", "e01", "e02", "e03"),), ("e04",))


def test_the_bye_skips_an_entrant_who_had_one() -> None:
    standings = [*fresh(4), Standing("e04", 0.0, 4, byes=1)]
    assert group_tables(standings).byes == ("e03",)


@pytest.mark.parametrize("count", [1, 2])
def test_fewer_entrants_than_a_table_of_3_cannot_be_paired(count: int) -> None:
    with pytest.raises(IllegalMove) as refusal:
        group_tables(fresh(count))
    assert refusal.value.code == "no_pairing"


def test_no_entrants_give_an_empty_round() -> None:
    assert group_tables([]) == Pairing(())


@pytest.mark.parametrize("sizes", [(), (1,), (3, 3)])
def test_table_sizes_that_make_no_sense_are_refused(sizes: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        group_tables(fresh(6), sizes)


def test_entrants_who_met_are_split_up_at_the_cost_of_the_standings() -> None:
    # Round 1 had e00-e02 together and e03-e05 together; the standings would repeat it.
    met = {
        "e00": "e01 e02",
        "e01": "e00 e02",
        "e02": "e00 e01",
        "e03": "e04 e05",
        "e04": "e03 e05",
        "e05": "e03 e04",
    }
    standings = [Standing(s.id, 0.0, s.rank, frozenset(met[s.id].split())) for s in fresh(6)]
    # Any two tables of 3 hold two who met: the fewest repeats, with the least moves.
    assert group_tables(standings).tables == (("e00", "e01", "e03"), ("e02", "e04", "e05"))


def test_an_entrant_gets_the_seat_it_has_held_least() -> None:
    standings = [
        Standing("a", 3.0, 0, seats=(1, 0, 0)),
        Standing("b", 2.0, 1, seats=(0, 1, 0)),
        Standing("c", 1.0, 2, seats=(0, 0, 1)),
    ]
    # Each has held one seat once; of the two orders that give everyone a new seat, the one
    # with the better-ranked b in the first seat.
    assert group_tables(standings).tables == (("b", "c", "a"),)


@pytest.mark.parametrize(("size", "rounds"), [(3, 3), (3, 7), (4, 4), (4, 9)])
def test_the_same_group_rotates_through_every_seat(size: int, rounds: int) -> None:
    history = {e.id: [0] * size for e in fresh(size)}
    for _ in range(rounds):
        standings = [Standing(e, 0.0, k, seats=tuple(history[e])) for k, e in enumerate(history)]
        (table,) = group_tables(standings).tables
        for seat, e in enumerate(table):
            history[e][seat] += 1
    for counts in history.values():
        assert max(counts) - min(counts) <= 1 and sum(counts) == rounds


# --- oracles ------------------------------------------------------------------------------


def repeats(table: Sequence[str], of: dict[str, Standing]) -> int:
    return sum(1 for a, b in combinations(table, 2) if b in of[a].opponents)


def every_split(count: int) -> list[tuple[int, int, int]]:
    """(byes, 4s, 3s) for every way to seat `count` entrants at tables of 4 and 3."""
    return [
        (count - 4 * f - 3 * t, f, t)
        for f, t in product(range(count // 4 + 1), range(count // 3 + 1))
        if 4 * f + 3 * t <= count
    ]


def held_total(order: Sequence[str], of: dict[str, Standing]) -> int:
    return sum(of[e].held(seat) for seat, e in enumerate(order))


def check_round(standings: list[Standing], pairing: Pairing) -> None:
    of = {s.id: s for s in standings}
    seated = [e for t in pairing.tables for e in t] + list(pairing.byes)
    assert sorted(seated) == sorted(of), "every present entrant at one table or out, once"
    assert all(len(t) in (3, 4) for t in pairing.tables)
    fours = sum(len(t) == 4 for t in pairing.tables)
    best = min(every_split(len(standings)), key=lambda s: (s[0], -s[1]))
    assert (len(pairing.byes), fours) == best[:2]
    if pairing.byes:
        order = sorted(standings, key=lambda s: (s.byes, -s.rank))
        assert set(pairing.byes) == {s.id for s in order[: len(pairing.byes)]}
    tables = [list(t) for t in pairing.tables]
    for t, u in combinations(range(len(tables)), 2):
        for i, j in product(range(len(tables[t])), range(len(tables[u]))):
            swapped_t = [*tables[t][:i], tables[u][j], *tables[t][i + 1 :]]
            swapped_u = [*tables[u][:j], tables[t][i], *tables[u][j + 1 :]]
            now = repeats(tables[t], of) + repeats(tables[u], of)
            assert repeats(swapped_t, of) + repeats(swapped_u, of) >= now, "a swap would lower the repeats"
    for table in pairing.tables:
        assert held_total(table, of) == min(held_total(p, of) for p in permutations(table))
    shuffled = list(standings)
    random.Random(len(shuffled)).shuffle(shuffled)
    assert group_tables(shuffled) == pairing, "the same standings in another order give the same tables"


# --- random tournaments -------------------------------------------------------------------


@dataclass
class Entrant:
    id: str
    joins: int
    leaves: int
    points: float = 0.0
    met: set[str] = field(default_factory=set)
    seats: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    byes: int = 0

    def standing(self, rank: int) -> Standing:
        return Standing(self.id, self.points, rank, frozenset(self.met), tuple(self.seats), self.byes)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[Entrant], int]:
    count = draw(st.integers(3, 20))
    rounds = draw(st.integers(1, 6))
    entrants = []
    for k in range(count):
        joins = draw(st.integers(1, rounds)) if k >= 3 and draw(st.integers(0, 4)) == 0 else 0
        leaves = draw(st.integers(joins + 1, rounds + 1)) if draw(st.integers(0, 5)) == 0 else rounds + 1
        entrants.append(Entrant(f"e{k:02d}", joins, leaves))
    return entrants, rounds


@settings(deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_random_opodopo_tournaments_keep_every_table_guarantee(
    tournament: tuple[list[Entrant], int], rng: random.Random
) -> None:
    entrants, rounds = tournament
    for r in range(rounds):
        present = [e for e in entrants if e.joins <= r < e.leaves]
        if len(present) < 3:
            break
        ranked = sorted(present, key=lambda e: (-e.points, entrants.index(e)))
        standings = [e.standing(rank) for rank, e in enumerate(ranked)]
        pairing = group_tables(standings)
        check_round(standings, pairing)
        by_id = {e.id: e for e in present}
        for table in pairing.tables:
            placing = list(table)
            rng.shuffle(placing)
            for place, e in enumerate(placing):
                by_id[e].points += len(table) - 1 - place
                by_id[e].met |= set(table) - {e}
            for seat, e in enumerate(table):
                by_id[e].seats[seat] += 1
        for e in pairing.byes:
            by_id[e].byes += 1
