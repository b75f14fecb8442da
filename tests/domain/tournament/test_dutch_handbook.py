"""The examples C.04.3 (2017) gives for the order of exchanges (D.2), each pinned as a pairing.

D.2 orders the exchanges between S1 and S2 of a homogeneous bracket by four rules, and the
handbook illustrates each with examples ("in a bracket containing eleven players, exchanging 6
with 4 is better than exchanging 8 with 5", "5-2 is better than 4-3", "6-9 is better than
7-8"...). For each example here, a bracket of eleven entrants on equal points (BSNs = pairing
numbers 1-11, S1 = 1-5, S2 = 6-11, no colour or float history, so that only the order of
candidates decides) has met everybody except the listed pairs: no transposition and no exchange
ordered before the example's better one pairs it, and both exchanges the example compares
would. The engine must pair it by the better one, as the test suite's own reading of the text
(tests/domain/tournament/dutch_by_the_text.py) does.

One example is not here: "5-4-1 is better than 5-3-2". An exchange that moves BSN 1 from S1
to S2 never decides a pairing of such a bracket: 1 then meets an entrant of S1 (the same pair
comes first from moving that entrant instead of 1), or one of S2 moved up (the same pair
without either exchanged), or gets the bye in an odd bracket, which the others' byes would
have to force.

A differential test then plays the engine against that reading on random histories.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decider import IllegalMove
from domain.tournament.dutch import pair_dutch
from domain.tournament.pairing import Standing
from tests.domain.tournament.dutch_by_the_text import Met, candidates, first_legal

ELEVEN = 11
Exchange = tuple[tuple[int, ...], tuple[int, ...]]


def bracket(size: int, met: Met) -> list[Standing]:
    return [
        Standing(
            str(n),
            1.0,
            0,
            frozenset(str(m) for m in range(1, size + 1) if frozenset((n, m)) in met),
            number=n,
        )
        for n in range(1, size + 1)
    ]


def met_except(size: int, allowed: str) -> Met:
    """Everybody has met everybody but the pairs listed as "1-3 2-7 ..."."""
    free = {frozenset(int(n) for n in pair.split("-")) for pair in allowed.split()}
    every = (frozenset((a, b)) for a in range(1, size + 1) for b in range(a + 1, size + 1))
    return frozenset(pair for pair in every if pair not in free)


def paired_by(exchange: Exchange, met: Met) -> bool:
    """Whether some transposition after this exchange pairs the bracket without a rematch."""
    return any(
        not any(frozenset(p) in met for p in pairs)
        for pairs, moved in candidates(ELEVEN)
        if moved == exchange[0] + exchange[1]
    )


def engine_pairs(size: int, met: Met) -> set[frozenset[int]]:
    return {frozenset(int(n) for n in table) for table in pair_dutch(bracket(size, met)).tables}


EXAMPLES = [
    pytest.param(
        "1-3 1-4 1-5 2-3 2-7 3-6 3-7 3-8 3-11 4-6 5-9 5-11 6-10 7-9 8-10",
        ((4,), (6,)),
        ((5,), (8,)),
        "1-4 2-7 3-8 5-9 6-10",
        id="D.2.b.2-exchanging-6-with-4-before-8-with-5",
    ),
    pytest.param(
        "1-2 1-3 2-4 2-9 3-4 5-7 5-9 6-8 6-11 7-9 8-10 9-10",
        ((3, 4), (6, 8)),
        ((2, 4), (8, 9)),
        "1-3 2-4 5-7 6-11 8-10",
        id="D.2.b.2-exchanging-8+6-with-4+3-before-9+8-with-4+2",
    ),
    pytest.param(
        "1-4 1-5 2-3 2-4 2-8 2-11 3-10 4-5 4-6 5-10 5-11 6-7 7-9",
        ((5,), (7,)),
        ((4,), (6,)),
        "1-5 2-8 3-10 4-6 7-9",
        id="D.2.b.3-moving-5-from-S1-before-moving-4",
    ),
    pytest.param(
        "1-2 1-3 2-3 2-4 3-4 3-5 4-8 4-11 5-7 5-8 6-7 9-10",
        ((2, 5), (6, 9)),
        ((3, 4), (6, 9)),
        "1-2 3-5 4-8 6-7 9-10",
        id="D.2.b.3-moving-5-2-from-S1-before-4-3",
    ),
    pytest.param(
        "1-4 1-8 1-9 2-5 2-7 2-9 3-6 3-8 6-7 7-9 7-10 8-10 9-10",
        ((4, 5), (6, 9)),
        ((4, 5), (7, 8)),
        "1-4 2-5 3-8 6-7 9-10",
        id="D.2.b.4-moving-6-9-from-S2-before-7-8",
    ),
    pytest.param(
        "1-3 2-4 2-5 2-11 3-5 6-7 6-8 6-9 7-8 8-11 9-10 10-11",
        ((3, 4, 5), (6, 7, 10)),
        ((3, 4, 5), (6, 8, 9)),
        "1-3 2-4 6-9 7-8 10-11",
        id="D.2.b.4-moving-6-7-10-from-S2-before-6-8-9",
    ),
]


@pytest.mark.parametrize(("allowed", "better", "worse", "expected"), EXAMPLES)
def test_the_handbook_s_example_of_the_order_of_exchanges(
    allowed: str, better: Exchange, worse: Exchange, expected: str
) -> None:
    met = met_except(ELEVEN, allowed)
    assert paired_by(better, met) and paired_by(worse, met)
    by_the_text = first_legal(ELEVEN, met)
    assert by_the_text is not None and by_the_text[1] == better[0] + better[1]
    want = {frozenset(int(n) for n in pair.split("-")) for pair in expected.split()}
    assert {frozenset(p) for p in by_the_text[0]} == want
    assert engine_pairs(ELEVEN, met) == want


def _completable(size: int, met: Met) -> bool:
    graph = nx.Graph()
    graph.add_edges_from(
        (a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1) if frozenset((a, b)) not in met
    )
    if size % 2:
        graph.add_edges_from((0, n) for n in range(1, size + 1))
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == (size + size % 2) // 2


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, Met]:
    size = draw(st.integers(4, 12))
    every = [frozenset((a, b)) for a in range(1, size + 1) for b in range(a + 1, size + 1)]
    share = draw(st.sampled_from((0.2, 0.4, 0.6)))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(every), max_size=len(every)))
    return size, frozenset(p for p, f in zip(every, flags, strict=True) if f < share)


@settings(deadline=None)
@given(histories())
def test_the_engine_pairs_a_bracket_as_the_text_orders_its_candidates(history: tuple[int, Met]) -> None:
    size, met = history
    if not _completable(size, met):
        with pytest.raises(IllegalMove):
            pair_dutch(bracket(size, met))
        return
    by_the_text = first_legal(size, met)
    assert by_the_text is not None
    assert engine_pairs(size, met) == {frozenset(p) for p in by_the_text[0]}
