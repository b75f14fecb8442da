"""The Dutch system (C.04.3, 2017 rules) on cases taken from the rules' text.

The FIDE handbook states the rules without worked pairings, so each case here is built from
one sentence of C.04.3 (quoted by article) and pins the pairing the article asks for. Ids are
pairing numbers ("1" is pairing number 1); tables are written first seat (white) first.
"""

from __future__ import annotations

import pytest

from domain.decider import IllegalMove
from domain.tournament.dutch import pair_dutch
from domain.tournament.pairing import Pairing, Standing

W, B = 0, 1


def s(
    number: int,
    points: float = 0,
    met: str = "",
    colours: tuple[int | None, ...] = (),
    floats: str = "",
    pairing_byes: int = 0,
    rank: int | None = None,
) -> Standing:
    """Entrant `number`; `met` lists opponents' numbers separated by commas."""
    opponents = frozenset(m for m in met.split(",") if m)
    return Standing(
        str(number),
        points,
        number - 1 if rank is None else rank,
        opponents,
        number=number,
        colours=colours,
        floats=tuple(floats.ljust(len(colours))) if floats else ("",) * len(colours),
        pairing_byes=pairing_byes,
    )


def pairs(pairing: Pairing) -> set[frozenset[str]]:
    return {frozenset(t) for t in pairing.tables}


def test_round_one_pairs_the_upper_half_against_the_lower_half_odd_numbers_white() -> None:
    # B.1/A.6 and E.5: S1 = 1-4 meets S2 = 5-8 in order; an odd pairing number takes white.
    pairing = pair_dutch([s(n) for n in range(1, 9)])
    assert pairing == Pairing((("1", "5"), ("6", "2"), ("3", "7"), ("8", "4")))


def test_an_odd_first_round_gives_the_pairing_bye_to_the_last_pairing_number() -> None:
    pairing = pair_dutch([s(n) for n in range(1, 8)])
    assert pairing == Pairing((("1", "4"), ("5", "2"), ("3", "6")), ("7",))


def test_pairing_numbers_not_the_standings_order_split_a_score_group() -> None:
    # A.2: within a score, pairing numbers order the players, whatever the tie-breaks say.
    standings = [s(n, rank=r) for n, r in zip(range(1, 5), (3, 2, 1, 0), strict=True)]
    assert pairs(pair_dutch(standings)) == {frozenset("13"), frozenset("24")}


def test_c1_a_rematch_is_avoided_by_the_first_transposition() -> None:
    # 1 met 3: S2 is transposed to 4, 3 (D.1): 1-4, 2-3. (Histories without colours: the
    # colour criteria, which come before the order of candidates, stay out of it.)
    group = [s(1, 1, "3"), s(2, 1, "4"), s(3, 1, "1"), s(4, 1, "2")]
    assert pairs(pair_dutch(group)) == {frozenset("14"), frozenset("23")}


def test_an_exchange_comes_when_no_transposition_works() -> None:
    # 1 met both of S2 (3 and 4): only 1-2, 3-4 is left (an exchange between S1 and S2).
    group = [s(1, 2, "3,4", (W, B)), s(2, 2, "5,6", (B, W)), s(3, 2, "1,6", (B, W)), s(4, 2, "1,5", (W, B))]
    group += [s(5, 0, "2,4", (W, B)), s(6, 0, "2,3", (B, W))]
    assert pairs(pair_dutch(group)) >= {frozenset("12"), frozenset("34")}


def test_c3_two_entrants_with_the_same_absolute_preference_never_meet() -> None:
    # 1 and 3 both played white twice running; 2 and 4 black twice. The natural 1-3, 2-4 would
    # give one of each pair a third white or black, so S2 is transposed: 1-4, 2-3.
    group = [
        s(1, 2, "5,6", (W, W)),
        s(2, 2, "7,8", (B, B)),
        s(3, 2, "6,5", (W, W)),
        s(4, 2, "8,7", (B, B)),
    ]
    pairing = pair_dutch(group)
    assert pairing.tables == (("4", "1"), ("2", "3"))


def test_no_one_ends_two_games_past_even_in_either_seat() -> None:
    # 1 and 2 played white twice more than black: white would take them to +3, so they never
    # meet each other and both play black, though they lead the standings.
    group = [s(1, 4, "5,6,7,8", (W, B, W, W)), s(2, 4, "6,7,8,9", (W, W, B, W)), s(3, 0, "", (B, W, B, B))]
    group += [s(4, 0, "", (B, W, B, B))]
    pairing = pair_dutch(group)
    assert frozenset("12") not in pairs(pairing)
    for first, second in pairing.tables:
        assert first in ("3", "4") and second in ("1", "2")


def test_c5_an_odd_bracket_floats_its_last_s2_entrant_down_to_the_top_of_the_next() -> None:
    # A.4/B.3: 1, 2, 3 have 1 point: 1-2 is S1-S2 and 3 floats down; the MDP meets the best
    # resident of the next bracket it has not met (4).
    standings = [s(1, 1, "4", (W,)), s(2, 1, "5", (B,)), s(3, 1, "6", (W,))]
    standings += [s(4, 0, "1", (B,)), s(5, 0, "2", (W,)), s(6, 0, "3", (B,))]
    assert pairs(pair_dutch(standings)) == {frozenset("12"), frozenset("34"), frozenset("56")}


def test_c12_a_downfloater_of_the_last_round_does_not_float_again() -> None:
    # 3 floated down last round. Floating 3 (1-2, 3-5, 4-6) or 2 (1-3, 2-6, 4-5) grants every
    # colour preference (C.10); C.12 then floats 2, though 3 comes later in S2.
    standings = [s(1, 1, "4", (W,)), s(2, 1, "5", (B,)), s(3, 1, "6", (B,), "D")]
    standings += [s(4, 0, "1", (B,)), s(5, 0, "2", (W,)), s(6, 0, "3", (W,))]
    assert pairs(pair_dutch(standings)) == {frozenset("13"), frozenset("26"), frozenset("45")}


def test_c2_the_pairing_bye_goes_to_the_lowest_entrant_who_had_none() -> None:
    standings = [s(1, 2, "2", (W,)), s(2, 0, "1", (B,)), s(3, 0, "", (None,), "D", pairing_byes=1)]
    standings += [s(4, 1, "5", (B,)), s(5, 1, "4", (W,))]
    pairing = pair_dutch(standings)
    assert pairing.byes == ("2",)


def test_c2_no_second_pairing_bye_so_no_pairing_when_everyone_had_one() -> None:
    standings = [s(n, 1, "", (None,), "D", pairing_byes=1) for n in (1, 2, 3)]
    with pytest.raises(IllegalMove) as refusal:
        pair_dutch(standings)
    assert refusal.value.code == "no_pairing"


@pytest.mark.parametrize("met", [["2", "1"], ["2,3", "1,3", "1,2"]])
def test_c1_no_pairing_without_a_rematch_is_refused(met: list[str]) -> None:
    with pytest.raises(IllegalMove) as refusal:
        pair_dutch([s(n, 0, m, (W,) * 0) for n, m in enumerate(met, start=1)])
    assert refusal.value.code == "no_pairing"


def test_the_same_standings_in_any_order_give_the_same_pairing() -> None:
    standings = [s(n, float(n % 3), "", (W if n % 2 else B,)) for n in range(1, 12)]
    assert pair_dutch(standings) == pair_dutch(list(reversed(standings)))


def test_boards_go_by_the_higher_score_then_the_sum_of_scores() -> None:
    standings = [s(1, 0), s(2, 0), s(3, 2), s(4, 2), s(5, 1), s(6, 1)]
    tables = pair_dutch(standings).tables
    assert [frozenset(t) for t in tables] == [frozenset("34"), frozenset("56"), frozenset("12")]


def test_one_entrant_sits_out_and_none_gives_an_empty_round() -> None:
    assert pair_dutch([s(1)]) == Pairing((), ("1",))
    assert pair_dutch([]) == Pairing(())


def test_a_lone_entrant_with_a_pairing_bye_gets_no_second_one() -> None:
    with pytest.raises(IllegalMove):
        pair_dutch([s(1, 1, "", (None,), "D", pairing_byes=1)])
