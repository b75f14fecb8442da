"""Undo and takeback, cell by cell of the policy table (design.md "Undo", docs/undo.md).

Histories are recorded as the store records them: each command's events form one batch
under its actor ("seat:N", "system", "worker", "organizer") and one command id; the
state is folded from them with domain.history, as the service folds it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from given import (
    KAHUNA,
    OPODOPO,
    Given,
    Table,
    act,
    deal,
    discard,
    draw_face_up,
    draw_stack,
    end_turn,
    given,
    random_command,
    round_ended,
    score,
    shuffle,
)
from hypothesis import given as hypothesis_given
from hypothesis import settings
from hypothesis import strategies as st

from domain import undo
from domain.decider import Command, Event, IllegalMove, fold
from domain.game_module import GameModule
from domain.games import rules_for
from domain.history import extend_history, fold_history, numbered
from domain.islands import engine
from domain.islands.state import State
from domain.turns import Pick, Shuffle
from tests.hypothesis_profiles import examples


def hints_of(records: Sequence[undo.Recorded]) -> GameModule[Any]:
    """The module of the game the records are of, as the service passes it to the undo policy."""
    return rules_for(str(records[0].data["game"]))


LATER_KAHUNA = KAHUNA.with_options(edition="thames-kosmos")  # K-9: a turn may end without a draw
GODS = OPODOPO.with_options(gods=True)
STONES = {"Rarotiki": "Ku", "Papalua": "Pele", "Ikibiti": "Lono", "Opodopo": "Kanaloa"}
HANDS = [("Lusepil", "Lusepil", "Nuridan"), ("Arabana", "Barilub", "Cocotac"),
         ("Danidad", "Elamite", "Fafnuff"), ("Garanig", "Hunisch", "Ikibiti")]  # fmt: skip


@dataclass(frozen=True)
class Log:
    """A game as the store records it, with the state after every version (index = version)."""

    records: tuple[undo.Record, ...]
    states: tuple[State, ...]

    @staticmethod
    def of(game: Given) -> Log:
        """The game so far as one batch, as if the organizer had created it so."""
        first, *rest = game.history
        empty = Log((), (engine.initial_state(first.data),) * 2)
        return empty.by("organizer", [first, *rest])

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def version(self) -> int:
        return len(self.records)

    def by(self, actor: str, events: Sequence[Event]) -> Log:
        """The log after one batch of `events` appended by `actor`."""
        command_id = f"c{self.version + 1}"
        records = [
            undo.Record(v, e.type, e.data, actor, command_id, e.secret, e.audience)
            for v, e in numbered(events, first=self.version + 1)
        ]
        if not self.records:  # GameCreated is version 1: the initial state is already there
            states = extend_history(engine, self.states, numbered(events[1:]))
        else:
            states = extend_history(engine, self.states, numbered(events, first=self.version + 1))
        return Log((*self.records, *records), tuple(states))

    def seat(self, seat: int, *commands: Command) -> Log:
        """The log after each of `commands`, one batch each, as `seat`."""
        log = self
        for command in commands:
            log = log.by(f"seat:{seat}", engine.decide(log.state, command))
        return log

    def play(self, seat: int, kind: str) -> Log:
        """The log after `seat`'s first legal command of this type."""
        return self.seat(seat, legal(self, seat, kind))

    def system(self, *commands: Command, actor: str = "system") -> Log:
        """The log after the system's `commands`, in one batch (as a scoring and its deal)."""
        events, state = [], self.state
        for command in commands:
            decided = engine.decide(state, command)
            events += decided
            state = fold(engine, state, decided)
        return self.by(actor, events)

    def policy(self, seat: int, kind: str, **args: object) -> Log:
        """The log after a seat's Undo, RequestTakeback or AnswerTakeback."""
        return self.by(
            f"seat:{seat}", undo.decide(self.records, Command(kind, seat, args), hints_of(self.records))
        )

    def refuses(self, seat: int, kind: str, **args: object) -> str:
        with pytest.raises(IllegalMove) as refusal:
            undo.decide(self.records, Command(kind, seat, args), hints_of(self.records))
        return refusal.value.code

    def play_out(self) -> Log:
        """Every seat draws (discarding when full) until the round ends."""
        log = self
        while log.state.phase in ("play", "final"):
            seat = log.state.active
            if log.state.phase == "final":
                log = log.seat(seat, end_turn(seat))
            elif len(log.state.hands[seat]) >= log.state.hand_limit(seat):
                log = log.seat(seat, discard(seat, log.state.hands[seat][0]))
            elif log.state.stack:
                log = log.seat(seat, draw_stack(seat))
            else:
                log = log.seat(seat, draw_face_up(seat, log.state.face_up[0]))
        return log

    def finish_round(self) -> Log:
        """The round played out, then its scoring and the next deal (one batch, as the worker's)."""
        log = self.play_out()
        due = engine.pending_system(fold(engine, log.state, engine.decide(log.state, score(log.state.round))))
        assert isinstance(due, Shuffle)
        order = {name: list(range(size)) for name, size in due.permutations.items()}
        return log.system(score(log.state.round), Command("ShuffleDeck", None, order), actor="worker")


def legal(log: Log, seat: int, kind: str) -> Command:
    return next(c for c in engine.legal_commands(log.state, seat) if c.type == kind)


def undone(log: Log) -> dict[str, object]:
    last = log.records[-1]
    assert last.type == "Undone"
    return dict(last.data)


def kahuna(table: Table = LATER_KAHUNA, stack: Sequence[str] = ()) -> Log:
    """Kahuna dealt, seat 0 to play, nothing done yet this turn."""
    return Log.of(given(deal(table, [("ALOA", "BARI", "COCO"), ("DUDA", "ELAI", "FAAA")],
                             ("GOLA", "HUNA", "IFFI"), stack)))  # fmt: skip


def gods_round_two(*stones: str) -> Log:
    """Four seats in round 2 of Opodopo with the gods; seat 0 to play, holding `stones`."""
    game = given(deal(GODS, HANDS, ("Krapink",) * 3 + ("Mosedam",), gods=STONES))
    game = game.plus(round_ended(1)).next_round()
    home = {god: island for island, god in STONES.items()}
    return Log.of(game.plus(*(Event("GodTaken", {"seat": 0, "island": home[g], "god": g}) for g in stones)))


# --- casual: one's own actions in the current turn are free ----------------------------------


def test_casual_own_actions_of_the_turn_are_undone_step_by_step() -> None:
    start = kahuna()
    one = start.play(0, "PlaceBridge")
    two = one.play(0, "PlaceBridge")

    back = two.policy(0, "Undo")
    assert undone(back) == {"to_version": one.version, "requested_by": 0, "approved_by": []}
    assert back.state == one.state
    again = back.policy(0, "Undo")
    assert undone(again)["to_version"] == start.version
    assert again.state == start.state
    assert again.refuses(0, "Undo") == "nothing_to_undo"


def test_casual_own_actions_are_undone_back_to_the_start_of_the_turn() -> None:
    start = kahuna()
    played = start.play(0, "PlaceBridge").play(0, "PlaceBridge").play(0, "PlaceBridge")

    back = played.policy(0, "Undo", scope="turn")

    assert undone(back) == {"to_version": start.version, "requested_by": 0, "approved_by": []}
    assert back.state == start.state


def test_an_undone_command_is_no_longer_the_last_one_and_play_goes_on_from_the_old_state() -> None:
    start = kahuna()
    one = start.play(0, "PlaceBridge")
    back = one.play(0, "PlaceBridge").policy(0, "Undo")
    replayed = back.play(0, "PlaceBridge")  # the same placement again

    assert replayed.policy(0, "Undo").state == one.state
    assert replayed.policy(0, "Undo").policy(0, "Undo").state == start.state


def test_undo_takes_back_only_ones_own_actions_of_the_current_turn() -> None:
    start = kahuna()
    assert start.refuses(1, "Undo") == "nothing_to_undo"
    placed = start.play(0, "PlaceBridge")
    assert placed.refuses(1, "Undo") == "not_your_actions"
    ended = placed.play(0, "SkipDraw")  # seat 0's turn is over: seat 1's has begun
    assert ended.refuses(0, "Undo") == "nothing_to_undo"
    assert ended.play(1, "PlaceBridge").refuses(0, "Undo", scope="turn") == "not_your_actions"


def test_every_seat_chooses_its_face_up_card_at_once_and_may_undo_it_until_another_chooses() -> None:
    game = given([GODS.created()]).then(shuffle(range(48), gods=range(16)))
    start = Log.of(game)
    chose = start.play(0, "ChooseFaceUp")

    assert chose.policy(0, "Undo").state == start.state  # FaceUpChosen is seat 0's own secret
    assert chose.play(1, "ChooseFaceUp").refuses(0, "Undo") == "not_your_actions"


# --- casual: earlier turns are taken back by a request the others accept ----------------------


def two_turns() -> tuple[Log, Log]:
    """Seat 0 placed and passed (K-9), seat 1 placed: seat 0's whole turn is an earlier turn."""
    start = kahuna()
    return start, start.play(0, "PlaceBridge").play(0, "SkipDraw").play(1, "PlaceBridge")


def test_casual_takeback_of_an_earlier_turn_is_carried_out_when_the_others_accept() -> None:
    start, now = two_turns()
    asked = now.policy(0, "RequestTakeback", to_version=start.version)
    assert asked.records[-1].data == {"seat": 0, "to_version": start.version}
    assert asked.state == now.state
    pending = undo.pending_takeback(asked.records)
    assert pending == undo.Takeback(0, start.version, asked.version, ())
    assert pending.waiting_for(2) == [1]

    accepted = asked.policy(1, "AnswerTakeback", accept=True)

    assert [r.type for r in accepted.records[-2:]] == ["TakebackAnswered", "Undone"]
    assert accepted.records[-2].data == {"seat": 1, "accept": True}
    assert undone(accepted) == {"to_version": start.version, "requested_by": 0, "approved_by": [1]}
    assert accepted.state == start.state
    assert undo.pending_takeback(accepted.records) is None


def test_a_declined_takeback_changes_nothing() -> None:
    start, now = two_turns()
    asked = now.policy(0, "RequestTakeback", to_version=start.version)

    declined = asked.policy(1, "AnswerTakeback", accept=False)

    assert [(r.type, dict(r.data)) for r in declined.records[-2:]] == [
        ("TakebackAnswered", {"seat": 1, "accept": False}),
        ("TakebackDeclined", {"seat": 0, "to_version": start.version, "by": 1}),
    ]
    assert declined.state == now.state
    assert undo.pending_takeback(declined.records) is None
    assert declined.refuses(1, "AnswerTakeback", accept=True) == "no_takeback_pending"


def test_a_takeback_lapses_when_the_game_moves_on() -> None:
    start, now = two_turns()
    asked = now.policy(0, "RequestTakeback", to_version=start.version)

    moved_on = asked.play(1, "PlaceBridge")

    assert undo.pending_takeback(moved_on.records) is None
    assert moved_on.refuses(1, "AnswerTakeback", accept=True) == "no_takeback_pending"
    # A lapse is no decline: the seat may ask again at once.
    assert moved_on.policy(0, "RequestTakeback", to_version=start.version).records[-1].type == (
        "TakebackRequested"
    )


def test_one_takeback_at_a_time_answered_by_the_others_only_once() -> None:
    start, now = two_turns()
    asked = now.policy(0, "RequestTakeback", to_version=start.version)
    assert asked.refuses(1, "RequestTakeback", to_version=start.version) == "takeback_pending"
    assert asked.refuses(0, "RequestTakeback", to_version=start.version) == "takeback_pending"
    assert asked.refuses(0, "AnswerTakeback", accept=True) == "own_takeback"
    assert now.refuses(1, "AnswerTakeback", accept=True) == "no_takeback_pending"


def test_with_more_seats_every_other_seat_must_accept() -> None:
    start = gods_round_two()
    placed = start.play(0, "PlaceBridge")
    asked = placed.policy(0, "RequestTakeback", to_version=start.version)

    one = asked.policy(2, "AnswerTakeback", accept=True)
    assert one.records[-1].type == "TakebackAnswered"
    assert one.state == placed.state
    assert undo.pending_takeback(one.records) == undo.Takeback(0, start.version, asked.version, (2,))
    assert one.refuses(2, "AnswerTakeback", accept=False) == "already_answered"
    two = one.policy(3, "AnswerTakeback", accept=True)
    three = two.policy(1, "AnswerTakeback", accept=True)

    assert undone(three) == {"to_version": start.version, "requested_by": 0, "approved_by": [1, 2, 3]}
    assert three.state == start.state
    assert two.policy(1, "AnswerTakeback", accept=False).state == placed.state


def test_two_declined_takebacks_in_a_round_bar_a_seat_from_asking_until_the_next_round() -> None:
    start, now = two_turns()
    log = now
    for _ in range(undo.MAX_DECLINES):
        log = log.policy(0, "RequestTakeback", to_version=start.version)
        log = log.policy(1, "AnswerTakeback", accept=False)

    assert log.refuses(0, "RequestTakeback", to_version=start.version) == "takeback_rate_limited"
    # The limit is the seat's own: the other seat may still ask.
    assert log.policy(1, "RequestTakeback", to_version=start.version).records[-1].type == (
        "TakebackRequested"
    )
    next_round = log.finish_round()
    assert next_round.state.round == 2
    turn_start = next_round.version
    passed = next_round.play(next_round.state.active, "SkipDraw")
    assert passed.policy(0, "RequestTakeback", to_version=turn_start).records[-1].type == (
        "TakebackRequested"
    )


# --- never across an action that revealed hidden information to the requester -------------


def test_a_takeback_across_ones_own_draw_from_the_stack_is_refused() -> None:
    start = kahuna(KAHUNA, stack=("KAHU",))
    drew = start.play(0, "PlaceBridge").seat(0, draw_stack(0))

    assert drew.refuses(0, "RequestTakeback", to_version=start.version) == "undo_across_reveal"
    # Seat 1 saw no card of that draw: it may ask to go back across it.
    assert drew.policy(1, "RequestTakeback", to_version=start.version).records[-1].type == (
        "TakebackRequested"
    )


def test_a_takeback_across_a_face_up_refill_is_refused_to_everyone() -> None:
    start = kahuna(KAHUNA)
    drew = start.play(0, "PlaceBridge").seat(0, draw_face_up(0, "GOLA"))
    assert drew.records[-2].type == "FaceUpRefilled"

    for seat in (0, 1):
        assert drew.refuses(seat, "RequestTakeback", to_version=start.version) == "undo_across_reveal"


def with_computers(log: Log, computers: Sequence[int]) -> Log:
    """`log` with the `computers` seats played by the computer (the rules never look)."""
    created = log.records[0]
    seats = [
        {**seat, "ai": "greedy"} if n in computers else seat for n, seat in enumerate(created.data["seats"])
    ]
    first = replace(created, data={**created.data, "seats": seats})
    return replace(log, records=(first, *log.records[1:]))


def against_the_computer(mode: str = "casual", computers: Sequence[int] = (1,)) -> Log:
    """Kahuna as kahuna(KAHUNA), with the `computers` seats played by the computer."""
    history = deal(KAHUNA, [("ALOA", "BARI", "COCO"), ("DUDA", "ELAI", "FAAA")], ("GOLA", "HUNA", "IFFI"))
    history[0] = Event("GameCreated", {**history[0].data, "mode": mode})
    return with_computers(Log.of(given(history)), computers)


def test_practice_against_the_computer_takes_ones_own_moves_back_across_reveals() -> None:
    start = against_the_computer()
    mine = start.play(0, "PlaceBridge").seat(0, draw_face_up(0, "GOLA"))
    replied = mine.play(1, "PlaceBridge").seat(1, draw_face_up(1, "HUNA"))
    assert replied.records[-2].type == "FaceUpRefilled"
    assert undo.takeback_across_reveal(replied.records, 0)

    asked = replied.policy(0, "RequestTakeback", to_version=start.version)
    assert asked.records[-1].type == "TakebackRequested"


def test_practice_against_the_computer_undoes_ones_own_look_with_ku_at_once() -> None:
    start = with_computers(gods_round_two("Ku"), (1, 2, 3))
    looked = start.seat(0, act("UseKu", 0, target=2))

    assert looked.policy(0, "Undo").state == start.state


def test_a_takeback_across_a_reveal_stays_refused_with_another_person_or_in_a_tournament() -> None:
    for log, code in (
        (against_the_computer(computers=()), "undo_across_reveal"),
        (against_the_computer("tournament"), "undo_not_allowed_in_tournament"),
    ):
        moved = log.play(0, "PlaceBridge").seat(0, draw_face_up(0, "GOLA"))
        assert moved.refuses(0, "RequestTakeback", to_version=log.version) == code
        assert not undo.takeback_across_reveal(moved.records, 0)
    # The computer's seat, whose other seat is a person, gets no such licence.
    assert not undo.takeback_across_reveal(against_the_computer().records, 1)


def test_undo_across_ku_looking_at_a_hand_is_refused() -> None:
    start = gods_round_two("Ku")
    looked = start.seat(0, act("UseKu", 0, target=2))
    assert looked.refuses(0, "Undo") == "undo_across_reveal"

    took = looked.seat(0, act("TakeCard", 0, card="Elamite"))
    # The card taken was chosen from the hand already seen: taking another instead reveals nothing.
    assert took.policy(0, "Undo").state == looked.state
    assert took.refuses(0, "Undo", scope="turn") == "undo_across_reveal"
    # The hand shown was seat 2's, which learnt which card it lost.
    assert took.refuses(2, "RequestTakeback", to_version=looked.version) == "undo_across_reveal"


def test_undo_across_pele_drawing_at_random_is_refused() -> None:
    start = gods_round_two("Pele")
    asked = start.seat(0, act("UsePele", 0))
    due = engine.pending_system(asked.state)
    assert isinstance(due, Pick)
    drawn = asked.system(Command("DrawAtRandom", None, {"picks": {s: 0 for s in due.hands}}))
    assert drawn.refuses(0, "Undo") == "undo_across_reveal"

    gave = drawn.play(0, "GiveCards")
    # The cards given were the giver's own: giving others instead reveals nothing to the giver.
    assert gave.policy(0, "Undo").state == drawn.state
    assert gave.refuses(0, "Undo", scope="turn") == "undo_across_reveal"
    for victim in (1, 2, 3):
        assert gave.refuses(victim, "RequestTakeback", to_version=start.version) == "undo_across_reveal"


def test_learners_of_each_kind_of_event() -> None:
    def learn(
        type_: str, data: dict[str, object], audience: tuple[int, ...] = (), secret: bool = True
    ) -> set[int]:
        record = undo.Record(9, type_, data, "seat:0", "c", {"x": 1} if secret else None, audience)
        return rules_for("arabana-opodopo").undo.learners(record, 4)

    assert learn("FaceUpRefilled", {"card": "X"}, secret=False) == {0, 1, 2, 3}
    assert learn("HandDealt", {"seat": 1}, (1,)) == {0, 1, 2, 3}
    assert learn("CardDrawn", {"seat": 1, "source": "stack"}, (1,)) == {1}
    assert learn("CardDrawn", {"seat": 1, "source": "face_up"}, secret=False) == set()
    assert learn("CardsDiscarded", {"seat": 1}, (1,)) == set()
    assert learn("HandShown", {"seat": 0, "target": 2}, (0, 2)) == {0}
    assert learn("ChoiceRequired", {"seat": 0, "target": 2}, (0, 2)) == {0}
    assert learn("CardTaken", {"seat": 0, "from": 2, "how": "ku"}, (0, 2)) == {2}
    assert learn("CardTaken", {"seat": 0, "from": 2, "how": "pele"}, (0, 2)) == {0, 2}
    assert learn("CardGiven", {"seat": 0, "to": 3}, (0, 3)) == {3}
    assert learn("SomethingSecretLater", {}, (1, 3)) == {1, 3}
    assert learn("BridgePlaced", {"seat": 0}, secret=False) == set()


# --- where a game may go back to ------------------------------------------------------------


def test_only_back_to_a_command_boundary_still_in_play() -> None:
    start, now = two_turns()
    mid_deal = 2  # GameCreated and the first deal are one batch
    mid_command = start.version + 1  # seat 0's PlaceBridge: CardsPlayed, BridgePlaced
    assert now.records[mid_command - 1].type == "CardsPlayed"
    for target in (0, mid_deal, mid_command, now.version, now.version + 5):
        assert now.refuses(0, "RequestTakeback", to_version=target) == "bad_undo_target", target
    back = now.policy(0, "RequestTakeback", to_version=start.version).policy(1, "AnswerTakeback", accept=True)
    assert back.refuses(1, "RequestTakeback", to_version=now.version - 1) == "bad_undo_target"  # undone


def test_the_undo_commands_are_read_strictly() -> None:
    start, now = two_turns()
    assert now.refuses(1, "Undo", scope="everything") == "bad_command"
    assert now.refuses(0, "RequestTakeback") == "bad_command"
    assert now.refuses(0, "RequestTakeback", to_version="3") == "bad_command"
    assert now.refuses(0, "RequestTakeback", to_version=True) == "bad_command"
    assert now.refuses(1, "AnswerTakeback", accept="yes") == "bad_command"
    with pytest.raises(IllegalMove) as refusal:
        undo.decide(now.records, Command("Undo", None, {}), hints_of(now.records))
    assert refusal.value.code == "unknown_command"


def test_after_the_end_nothing_is_taken_back() -> None:
    log = kahuna(KAHUNA)
    while log.state.round < 3:
        log = log.finish_round()
    turn_start = log.version
    log = log.play(log.state.active, "PlaceBridge")
    ended = log.play_out().system(score(3), actor="worker")
    assert ended.records[-1].type == "GameEnded"
    assert ended.refuses(0, "Undo") == "game_ended"
    assert ended.refuses(1, "RequestTakeback", to_version=turn_start) == "game_ended"


def test_takeback_events_leave_the_game_state_alone() -> None:
    start, now = two_turns()
    log = now.policy(0, "RequestTakeback", to_version=start.version)
    log = log.policy(1, "AnswerTakeback", accept=False)
    for record in log.records[now.version :]:
        event = Event(record.type, record.data)
        assert engine.evolve(now.state, event) == now.state
    assert log.state == now.state


# --- tournament: nothing taken back; the organizer corrects, with a reason -------------------


def tournament() -> tuple[Log, Log]:
    """As two_turns, in a tournament game."""
    history = deal(
        LATER_KAHUNA, [("ALOA", "BARI", "COCO"), ("DUDA", "ELAI", "FAAA")], ("GOLA", "HUNA", "IFFI")
    )
    history[0] = Event("GameCreated", {**history[0].data, "mode": "tournament"})
    start = Log.of(given(history))
    assert start.state.mode == "tournament"
    return start, start.play(0, "PlaceBridge").play(0, "SkipDraw").play(1, "PlaceBridge")


def test_tournament_games_refuse_every_undo_and_takeback() -> None:
    start, now = tournament()
    assert now.refuses(1, "Undo") == "undo_not_allowed_in_tournament"
    assert now.refuses(0, "RequestTakeback", to_version=start.version) == "undo_not_allowed_in_tournament"
    assert now.refuses(1, "AnswerTakeback", accept=True) == "undo_not_allowed_in_tournament"


def test_the_organizer_corrects_a_tournament_game_with_a_reason() -> None:
    start, now = tournament()

    events = undo.correct(
        now.records, start.version, "  seat 0 misplaced a bridge ", "Ada", hints_of(now.records)
    )

    assert [(e.type, dict(e.data)) for e in events] == [
        (
            "Corrected",
            {"to_version": start.version, "reason": "seat 0 misplaced a bridge", "organizer": "Ada"},
        )
    ]
    assert now.by("organizer", events).state == start.state


def test_a_correction_needs_a_reason_a_boundary_and_no_reveal_and_only_in_tournaments() -> None:
    start, now = tournament()

    def code(records: Sequence[undo.Recorded], to_version: int, reason: str = "a misclick") -> str:
        with pytest.raises(IllegalMove) as refusal:
            undo.correct(records, to_version, reason, "Ada", hints_of(records))
        return refusal.value.code

    assert code(now.records, start.version, reason=" ") == "reason_required"
    assert code(now.records, start.version + 1) == "bad_undo_target"
    drew = now.seat(1, draw_stack(1))
    assert code(drew.records, start.version) == "undo_across_reveal"  # seat 1 saw its card
    assert code(two_turns()[1].records, start.version) == "correction_only_in_tournament"


# --- folding an Undone gives exactly the state after to_version --------------------------


def recorded_game(seed: int, table: Table) -> tuple[list[undo.Record], list[State]]:
    """A random game as recorded (creation and first deal in one batch), with the plain folds."""
    rnd = random.Random(seed)
    game = table.created(first_seat=rnd.randrange(table.seats))
    state = engine.initial_state(game.data)
    batches: list[tuple[str, list[Event]]] = [("organizer", [game])]
    while not engine.is_terminal(state):
        command = random_command(rnd, state)
        events = engine.decide(state, command)
        state = fold(engine, state, events)
        actor = "system" if command.seat is None else f"seat:{command.seat}"
        actor = "worker" if command.type == "ScoreRound" else actor
        if len(batches) == 1:
            batches[0][1].extend(events)  # the first deal is appended with GameCreated
        else:
            batches.append((actor, events))
    records: list[undo.Record] = []
    for n, (actor, events) in enumerate(batches):
        records += [
            undo.Record(v, e.type, e.data, actor, f"c{n}", e.secret, e.audience)
            for v, e in numbered(events, first=len(records) + 1)
        ]
    plain = [engine.initial_state(game.data)] * 2
    for record in records[1:]:
        plain.append(
            engine.evolve(plain[-1], Event(record.type, record.data, record.secret, record.audience))
        )
    return records, plain


def events_of(records: Sequence[undo.Record]) -> list[tuple[int, Event]]:
    return [(r.version, Event(r.type, r.data, r.secret, r.audience)) for r in records[1:]]


TABLES = [KAHUNA, LATER_KAHUNA, OPODOPO.with_options(seats=3), GODS]


@settings(max_examples=examples(share=16))
@hypothesis_given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(TABLES))
def test_undone_to_any_command_boundary_folds_to_the_state_after_it(seed: int, table: Table) -> None:
    records, plain = recorded_game(seed, table)
    states = fold_history(engine, records[0].data, events_of(records))
    assert states == plain
    boundaries = [g[-1].version for g in undo.batches(records)]
    now = len(records)
    for v in boundaries[:-1]:
        rewound = extend_history(engine, states, [(now + 1, undo.undone(v, 0))])
        assert rewound[-1] == plain[v]
        if v % 7 == 0:  # folding the whole history with the Undone from scratch agrees
            history = [*events_of(records), (now + 1, undo.undone(v, 0))]
            assert fold_history(engine, records[0].data, history)[-1] == plain[v]


@settings(max_examples=examples(share=16))
@hypothesis_given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(TABLES))
def test_random_play_with_undos_and_takebacks_refolds_to_what_was_seen(seed: int, table: Table) -> None:
    """Random games where seats now and then undo or have a takeback accepted, and play on.

    Each state seen while playing is remembered by version; refolding the whole history
    gives the same ones, every rewind lands on a state a seat acts in (never in a command
    nor in the system's deal), and the rules keep accepting commands from there.
    """
    rnd = random.Random(seed)
    log = Log.of(given([table.created(first_seat=0)]))
    seen = list(log.states)
    rewinds = 0
    for _ in range(400):
        if engine.is_terminal(log.state):
            break
        log = _random_step(rnd, log)
        seen.extend(log.states[len(seen) :])
        last = log.records[-1]
        if last.type == "Undone":
            rewinds += 1
            target = int(last.data["to_version"])
            assert log.state == seen[target]
            assert engine.pending_system(log.state) is None
            assert target in [g[-1].version for g in undo.batches(log.records)]
    assert fold_history(engine, log.records[0].data, events_of(log.records)) == seen


def _random_step(rnd: random.Random, log: Log) -> Log:
    """One random legal command; sometimes an undo, or a takeback that the others accept."""
    pending = engine.pending_system(log.state)
    if pending is not None:
        command = random_command(rnd, log.state)
        return log.system(command, actor="worker" if command.type == "ScoreRound" else "system")
    seats = range(log.state.seats)
    roll = rnd.random()
    if roll < 0.15:
        seat = rnd.choice(seats)
        try:
            return log.policy(seat, "Undo", scope=rnd.choice(undo.SCOPES))
        except IllegalMove:
            pass
    elif roll < 0.25:
        seat = rnd.choice(seats)
        points = undo.undo_points(undo.live(log.records))[-6:] or [0]
        try:
            log = log.policy(seat, "RequestTakeback", to_version=rnd.choice(points))
        except IllegalMove:
            pass
        else:
            for other in seats:
                if other != seat:
                    log = log.policy(other, "AnswerTakeback", accept=True)
            return log
    return log.seat(*_seat_command(rnd, log.state))


def _seat_command(rnd: random.Random, state: State) -> tuple[int, Command]:
    command = random_command(rnd, state)
    assert command.seat is not None
    return command.seat, command
