"""Whole tournaments for the replay tests, in the rules alone: the tournament folded through
domain.tournament's decide/evolve, each table a real island game played with random legal
moves, every stream sealed with record.chain as the store would."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.actor import ORGANIZER, SYSTEM, Actor
from domain.core import Command
from domain.tournament import module as rules
from domain.tournament.state import State
from record.chain import ZERO_HASH, seal
from record.envelope import Envelope, NewEvent
from tests.replays.play import sealed_game

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
GAMES = {"kahuna": "kahuna", "ikibiti": "arabana-ikibiti"}


def at(minute: int) -> str:
    """The server time of the `minute`th append of a tournament (one a minute)."""
    return f"2026-11-22T{10 + minute // 60:02d}:{minute % 60:02d}:00.000000Z"


@dataclass
class Tournament:
    """A tournament being run: its state, its sealed stream and its games' streams."""

    state: State
    envelopes: list[Envelope]
    games: dict[str, list[Envelope]] = field(default_factory=dict)
    commands: bool = False  # whether its games record their commands, as the service's do

    def run(self, type_: str, actor: Actor = ORGANIZER, **args: Any) -> list[Envelope]:
        """The command decided, folded and appended as one sealed batch."""
        events = rules.decide(self.state, Command(type_, None, args), actor)
        for event in events:
            self.state = rules.evolve(self.state, event)
        command_id = f"t{len(self.envelopes)}"
        new = [NewEvent.recording(e, i, str(actor), command_id) for i, e in enumerate(events)]
        prev = self.envelopes[-1].hash if self.envelopes else ZERO_HASH
        sealed = seal(new, len(self.envelopes), at(len(self.envelopes)), prev)
        self.envelopes += sealed
        return sealed

    def draw_lots(self) -> None:
        due = rules.pending_system(self.state)
        assert due is not None
        self.run("DrawLots", SYSTEM, order=list(range(due.permutations["order"])))

    def play_round(self, rng: random.Random) -> None:
        """Pair the next round, open a game for each table and record each game's own end."""
        self.run("PairRound")
        for table in self.state.round_tables(self.state.round):
            game_id = f"g{table.round}-{table.index}"
            names = [entrant.name for e in table.seats if (entrant := self.state.entrant(e))]
            setup = {
                "game": self.state.settings.game,
                "seats": [{"name": n} for n in names],
                "first_seat": 0,
                "mode": "tournament",
            }
            game = sealed_game(rng, setup, self.commands)
            self.games[game_id] = game
            self.run("AssignGame", table=table.index, game_id=game_id)
            self.run("RecordResult", SYSTEM, game_id=game_id, result=game[-1].data, final_hash=game[-1].hash)

    def correct(self, game_id: str, reason: str) -> Envelope:
        """The organizer's correction of `game_id`: the result turned round (a drawn game: a win)."""
        end = dict(self.games[game_id][-1].data)
        winner = end["winner"]
        end["winner"] = 0 if winner is None else 1 - winner
        return self.run("CorrectResult", game_id=game_id, result=end, reason=reason)[0]

    @property
    def view(self) -> dict[str, Any]:
        return rules.view(self.state, None)


def created(
    game: str = "kahuna", entrants: Sequence[str] = NAMES[:4], fmt: str = "swiss", **settings: Any
) -> Tournament:
    """A tournament of `game` (a Swiss unless `fmt` says otherwise) with `entrants` registered,
    started, its lots drawn."""
    request = {"name": "Island Open", "game": GAMES.get(game, game), "format": fmt, "rounds": 2}
    event = rules.created({**request, **settings})
    first = seal([NewEvent.recording(event, 0, "organizer", "create")], 0, at(0), ZERO_HASH)
    tournament = Tournament(rules.initial_state(event.data), first)
    for name in entrants:
        tournament.run("RegisterEntrant", name=name)
    tournament.run("StartTournament")
    tournament.draw_lots()
    return tournament


def played(
    seed: int = 1,
    game: str = "kahuna",
    entrants: Sequence[str] = NAMES[:4],
    rounds: int = 2,
    fmt: str = "swiss",
    commands: bool = False,
) -> Tournament:
    """A whole tournament: every round played and its results recorded (it is not closed)."""
    rng = random.Random(seed)
    tournament = created(game, entrants, fmt, rounds=rounds)
    tournament.commands = commands
    for _ in range(rounds):
        tournament.play_round(rng)
    return tournament


# Kahuna ends chosen by hand for a 5-entrant Swiss of two rounds, table by table (winner, totals).
HAND_ENDS = (((0, (7, 3)), (None, (5, 5))), ((1, (2, 6)), (0, (9, 1))))


def hand_swiss() -> Tournament:
    """Ada, Bo, Cy, Di, Ed in a Kahuna Swiss of two rounds with the ends of HAND_ENDS.

    Round 1: Ada beats Cy 7-3, Di and Bo draw 5-5 (Di in the first seat), Ed has the bye.
    Round 2: Ada beats Ed 6-2 (Ed in the first seat), Cy beats Di 9-1, Bo has the bye (Bo and
    Di, who met, both float down from 2 points; Di meets Cy, whose colour it wants opposite).
    """
    tournament = created("kahuna", NAMES[:5], rounds=2)
    for ends in HAND_ENDS:
        tournament.run("PairRound")
        for table in tournament.state.round_tables(tournament.state.round):
            game_id = f"g{table.round}-{table.index}"
            winner, totals = ends[table.index]
            end = {"winner": winner, "totals": list(totals), "reason": "points"}
            tournament.run("AssignGame", table=table.index, game_id=game_id)
            final = f"{10 * table.round + table.index:064x}"
            tournament.run("RecordResult", SYSTEM, game_id=game_id, result=end, final_hash=final)
    return tournament
