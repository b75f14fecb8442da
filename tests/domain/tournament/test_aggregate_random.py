"""Random tournaments of every format: random entrants, results, forfeits, withdrawals, late
entries and corrections, checked after every command.

Invariants: the stored events refold to the very state decide saw; every table's points add up
as its scoring says (2 players: 3:1, 2:2, 4:0, 5:0 or a 3:0 forfeit, island points cancelling;
tables: the placement points of the table, all but the last place's for a forfeit); the
standings are a total order by the tie-breaks and their points are the results' and byes' sum.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from hypothesis import event
from hypothesis import given as hypothesis_given
from hypothesis import strategies as st
from tournament_given import NAMES, Given, game_end, given, hash_of, refold, stored

from domain.actor import ORGANIZER, SYSTEM
from domain.decider import Command, IllegalMove
from domain.tournament import module as tournament
from domain.tournament.settings import PLACEMENT
from domain.tournament.standings import standings
from domain.tournament.state import State

GAMES = {
    "round_robin": ["kahuna", "arabana-ikibiti"],
    "swiss": ["kahuna", "arabana-ikibiti"],
    "tables": ["arabana-opodopo"],
}
# The refusals a random walk may meet: the pairing engines find no round for who is left.
ENDS_THE_WALK = {"no_pairing", "too_few_entrants"}


class Walk:
    """A tournament played by random commands; every accepted command is checked at once."""

    def __init__(self, data: st.DataObject, game: Given) -> None:
        self.data = data
        self.game = game
        self.replica = refold([stored(e) for e in game.history])
        self.games = 0

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    def send(self, type_: str, actor: Any = ORGANIZER, **args: Any) -> bool:
        """Send a command; True when accepted (and checked), False for a refusal the walk expects."""
        before = self.game.state
        try:
            events = tournament.decide(before, Command(type_, None, args), actor)
        except IllegalMove as refusal:
            assert self.game.state == before
            if refusal.code in ENDS_THE_WALK or refusal.code == "correction_changes_nothing":
                return False
            raise
        self.game = self.game.plus(*events)
        for fact in events:
            self.replica = tournament.evolve(self.replica, stored(fact))
        assert self.replica == self.game.state
        check(self.game.state)
        return True

    def lots(self) -> None:
        due = tournament.pending_system(self.game.state)
        if due is not None:
            size = due.permutations["order"]
            self.send("DrawLots", SYSTEM, order=self.draw(st.permutations(range(size))))

    def game_end(self, seats: int, scoring: str, round_: int) -> dict[str, Any]:
        totals = self.draw(st.lists(st.integers(0, 20), min_size=seats, max_size=seats))
        if scoring == "i9" and round_ >= 2 and self.draw(st.integers(0, 4)) == 0:
            return game_end(
                self.draw(st.integers(0, 1)),
                *totals,
                reason="premature",
                round=self.draw(st.sampled_from([2, 3])),
            )
        best = [seat for seat, t in enumerate(totals) if t == max(totals)]
        if seats == 2 and len(best) == 2:
            return game_end(None, *totals)
        return game_end(self.draw(st.sampled_from(best)), *totals)

    def play_table(self, index: int) -> None:
        state = self.game.state
        table = state.round_tables(state.round)[index]
        if table.result is not None:  # a withdrawal forfeited it already
            return
        self.games += 1
        game_id = f"g{self.games}"
        assert self.send("AssignGame", SYSTEM, table=index, game_id=game_id)
        what = self.draw(st.sampled_from(["result"] * 6 + ["forfeit", "withdraw"]))
        if what == "forfeit":
            seat = self.draw(st.integers(0, len(table.seats) - 1))
            assert self.send("ForfeitSeat", game_id=game_id, seat=seat, reason="no_show")
        elif what == "withdraw":
            entrant = self.draw(st.sampled_from(table.seats))
            assert self.send("WithdrawEntrant", ORGANIZER, entrant=entrant)
        else:
            end = self.game_end(len(table.seats), state.settings.scoring, state.round)
            assert self.send(
                "RecordResult", SYSTEM, game_id=game_id, result=end, final_hash=hash_of(self.games)
            )

    def maybe_late_entry(self) -> None:
        state = self.game.state
        if state.settings.late_entry and self.draw(st.integers(0, 3)) == 0:
            assert self.send("RegisterEntrant", name=f"Late {len(state.entrants) + 1}")
            self.lots()
            if self.draw(st.booleans()):
                assert self.send("GiveBye", entrant=self.game.state.entrants[-1].id)

    def maybe_correct(self) -> None:
        played = [t for t in self.game.state.tables if t.result is not None and t.game_id is not None]
        if played and self.draw(st.integers(0, 3)) == 0:
            table = self.draw(st.sampled_from(played))
            end = self.game_end(len(table.seats), self.game.state.settings.scoring, table.round)
            self.send(
                "CorrectResult", game_id=table.game_id, result=end, reason="the scoresheet said otherwise"
            )


def check(state: State) -> None:
    for table in state.tables:
        if table.result is not None:
            check_table_points(
                state, table.seats, table.result.points, table.result.island_points, table.result.how
            )
    for round_ in range(1, state.round + 1):
        seated = Counter(e for t in state.round_tables(round_) for e in t.seats)
        seated.update(b.entrant for b in state.byes if b.round == round_)
        assert max(seated.values(), default=1) == 1, f"someone plays twice in round {round_}"
    check_standings(state)
    if state.settings.format == "swiss":
        check_dutch_absolute_criteria(state)


def check_dutch_absolute_criteria(state: State) -> None:
    """No rematch, one pairing bye at most, and in games played out (a forfeit holds no seat)
    a first-seat difference within two and never the same seat three games running."""
    met = Counter(frozenset(t.seats) for t in state.tables)
    assert max(met.values(), default=1) == 1, "a rematch"
    pairing_byes = Counter(b.entrant for b in state.byes if b.reason == "pairing")
    assert max(pairing_byes.values(), default=1) == 1, "a second pairing bye"
    seats: dict[str, list[int]] = defaultdict(list)
    for table in sorted(state.tables, key=lambda t: t.round):
        if table.result is None or table.result.how != "forfeit":
            for seat, entrant in enumerate(table.seats):
                seats[entrant].append(seat)
    for entrant, held in seats.items():
        assert abs(held.count(0) - held.count(1)) <= 2, f"{entrant} seats {held}"
        assert all(len(set(held[i : i + 3])) > 1 for i in range(len(held) - 2)), f"{entrant} seats {held}"


def check_table_points(
    state: State, seats: tuple[str, ...], points: tuple[float, ...], island: tuple[float, ...], how: str
) -> None:
    if state.settings.scoring == PLACEMENT:
        table = state.settings.placement_points[len(seats)]
        assert sum(points) == (sum(table[:-1]) if how == "forfeit" else sum(table))
        return
    allowed = {(3, 0)} if how == "forfeit" else {(3, 1), (2, 2), (4, 0), (5, 0)}
    assert tuple(sorted(points, reverse=True)) in allowed
    assert sum(island) == 0


def check_standings(state: State) -> None:
    lines = standings(state)
    assert [line.rank for line in lines] == list(range(len(lines)))
    assert len({line.entrant for line in lines}) == len(lines)
    expected: dict[str, float] = defaultdict(float)
    for table in state.tables:
        if table.result is not None:
            for seat, entrant in enumerate(table.seats):
                expected[entrant] += table.result.points[seat]
    for bye in state.byes:
        expected[bye.entrant] += bye.points
    for line in lines:
        assert abs(line.points - expected[line.entrant]) < 1e-6
    for a, b in zip(lines, lines[1:], strict=False):
        first = (a.points, a.island_points, a.buchholz, a.sonneborn_berger)
        second = (b.points, b.island_points, b.buchholz, b.sonneborn_berger)
        assert first >= second
        if first == second and a.lot is not None and b.lot is not None:
            assert (-a.direct_encounter, a.lot) < (-b.direct_encounter, b.lot)


@hypothesis_given(st.data())
def test_random_tournaments_keep_their_invariants(data: st.DataObject) -> None:
    fmt = data.draw(st.sampled_from(sorted(GAMES)))
    game_name = data.draw(st.sampled_from(GAMES[fmt]))
    count = data.draw(st.integers(3 if fmt == "tables" else 2, 9))
    request: dict[str, Any] = {"game": game_name, "format": fmt}
    if fmt == "round_robin":
        request["double"] = data.draw(st.booleans())
    else:
        request["late_entry"] = data.draw(st.booleans())
        most = count if count % 2 else count - 1
        request["rounds"] = data.draw(st.integers(1, max(1, most) if fmt == "swiss" else 5))
    walk = Walk(data, given([tournament.created(request)]))
    for n in range(count):
        if data.draw(st.integers(0, 3)) == 0:
            assert walk.send("RegisterEntrant", kind="ai", level=data.draw(st.integers(1, 5)))
        else:
            assert walk.send("RegisterEntrant", name=NAMES[n])
    assert walk.send("StartTournament")
    walk.lots()
    while walk.game.state.rounds is not None and walk.game.state.round < walk.game.state.rounds:
        if not walk.send("PairRound"):
            break
        for index in range(len(walk.game.state.round_tables(walk.game.state.round))):
            walk.play_table(index)
        assert not walk.game.state.in_progress
        walk.maybe_correct()
        walk.maybe_late_entry()
    assert walk.send("CloseTournament")
    final = walk.game.state
    unplayed = sum(t.result is not None and t.result.how != "played" for t in final.tables)
    event(f"{fmt}: {final.completed} rounds, {unplayed} forfeits or corrections")
    assert tournament.is_terminal(final)
    assert refold([stored(e) for e in walk.game.history]) == final
    assert walk.game.history[-1].data["ranking"] == [line.entrant for line in standings(final)]
