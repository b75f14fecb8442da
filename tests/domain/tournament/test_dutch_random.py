"""Random Swisses paired by the Dutch engine never break an absolute criterion.

Each tournament has 20-60 entrants and 5-11 rounds, with the service's 2-player scoring (3:1,
2:2, a 3:0 forfeit), entrants withdrawing and late entrants joining between rounds. After
every round: each entrant in play is at one table or has the bye (one bye exactly when the
count is odd); no rematch; no second pairing-allocated bye; nobody's first-seat difference
beyond +-2 and nobody in the same seat three games running. A refusal (no_pairing) must be
right: the test's own check finds no complete pairing within the absolute criteria either.
`make test` plays a few tournaments of the smaller sizes; `make test-long` the whole range.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decider import IllegalMove
from domain.tournament.dutch import pair_dutch
from domain.tournament.pairing import Standing
from tests.hypothesis_profiles import examples


@dataclass
class Player:
    number: int
    points: float = 0.0
    seats: list[int | None] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    met: set[int] = field(default_factory=set)
    pairing_byes: int = 0
    gone: bool = False

    def standing(self) -> Standing:
        return Standing(
            str(self.number),
            self.points,
            0,
            frozenset(str(m) for m in self.met),
            number=self.number,
            colours=tuple(self.seats),
            floats=tuple(self.floats),
            pairing_byes=self.pairing_byes,
        )


def seat_ok(seats: list[int | None], seat: int) -> bool:
    """The test's own reading of the absolute colour rules, for a game in `seat` next."""
    games = [c for c in seats if c is not None] + [seat]
    return abs(games.count(0) - games.count(1)) <= 2 and not (len(games) >= 3 and len(set(games[-3:])) == 1)


def some_pairing_exists(players: list[Player]) -> bool:
    """Whether any complete pairing keeps the absolute criteria (networkx's plain matching)."""
    graph = nx.Graph()
    graph.add_nodes_from(p.number for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            fits = (seat_ok(a.seats, 0) and seat_ok(b.seats, 1)) or (
                seat_ok(a.seats, 1) and seat_ok(b.seats, 0)
            )
            if b.number not in a.met and fits:
                graph.add_edge(a.number, b.number)
    if len(players) % 2:
        graph.add_edges_from((0, p.number) for p in players if p.pairing_byes == 0)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players) + len(players) % 2


def play_round(players: list[Player], rng: random.Random) -> bool:
    """Pair and play one round, checking it; False when the engine rightly finds no pairing."""
    present = [p for p in players if not p.gone]
    by_number = {str(p.number): p for p in present}
    try:
        pairing = pair_dutch([p.standing() for p in present])
    except IllegalMove as refusal:
        assert refusal.code == "no_pairing"
        assert not some_pairing_exists(present)
        return False
    seated = [e for t in pairing.tables for e in t] + list(pairing.byes)
    assert sorted(seated) == sorted(by_number)
    assert len(pairing.byes) == len(present) % 2
    before = {p.number: p.points for p in present}
    for entrant in pairing.byes:
        bye = by_number[entrant]
        assert bye.pairing_byes == 0, f"a second pairing bye for {entrant}"
        bye.pairing_byes += 1
        bye.points += 3
        bye.seats.append(None)
        bye.floats.append("D")
    for first, second in pairing.tables:
        a, b = by_number[first], by_number[second]
        assert b.number not in a.met, f"{first} and {second} meet again"
        for player, seat in ((a, 0), (b, 1)):
            assert seat_ok(player.seats, seat), f"{player.number} in seat {seat} after {player.seats}"
            player.seats.append(seat)
        a.met.add(b.number)
        b.met.add(a.number)
        won = rng.choice([(3, 1), (2, 2), (1, 3), (3, 0), (0, 3)])
        a.points, b.points = a.points + won[0], b.points + won[1]
        way = (
            "D" if before[a.number] > before[b.number] else "U" if before[a.number] < before[b.number] else ""
        )
        a.floats.append(way)
        b.floats.append({"D": "U", "U": "D", "": ""}[way])
    return True


def play_swiss(entrants: int, rounds: int, seed: int) -> int:
    """A whole random Swiss; the number of rounds paired."""
    rng = random.Random(seed)
    players = [Player(n) for n in range(1, entrants + 1)]
    for round_ in range(1, rounds + 1):
        if round_ > 1:
            for p in players:
                if not p.gone and rng.random() < 0.03:
                    p.gone = True
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                late = Player(len(players) + 1, seats=[None] * (round_ - 1), floats=[""] * (round_ - 1))
                players.append(late)
        if sum(not p.gone for p in players) < 2 or not play_round(players, rng):
            return round_ - 1
        for p in players:
            if p.gone:
                p.seats.append(None)
                p.floats.append("")
    return rounds


# A share of the profile: the long form below plays the whole count at every size.
@settings(max_examples=examples(share=6), deadline=None)
@given(st.integers(20, 26), st.integers(5, 7), st.integers(0, 2**32))
def test_random_swisses_keep_the_absolute_criteria(entrants: int, rounds: int, seed: int) -> None:
    assert play_swiss(entrants, rounds, seed) >= 1


@pytest.mark.long
@settings(deadline=None)
@given(st.integers(20, 60), st.integers(5, 11), st.integers(0, 2**32))
def test_random_swisses_of_every_size_keep_the_absolute_criteria(
    entrants: int, rounds: int, seed: int
) -> None:
    assert play_swiss(entrants, rounds, seed) >= 1
