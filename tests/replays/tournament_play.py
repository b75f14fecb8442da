"""Whole tournaments for the replay tests, in the rules alone: the tournament folded through
domain.tournament's decide/evolve, each table a real island game played with random legal
moves, every stream sealed with record.chain as the store would."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.actor import ORGANIZER, SYSTEM, Actor
from domain.decider import Command
from domain.tournament import module as rules
from domain.tournament.state import State
from record.chain import ZERO_HASH, seal
from record.envelope import Envelope, NewEvent
from record.seat_keys import public_key, signed_text
from tests.replays.play import sealed_game
from tests.seat_signing import SeatKey

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
    # Signed moves: whose hand signs each entrant's commands (by name). The keys its entrants
    # registered are in the stream; a forger signs with keys of its own, or with none.
    signers: dict[str, SeatKey | None] = field(default_factory=dict)
    # The keys put in the games' seats, by name, where not those the entrants registered.
    seat_keys: dict[str, SeatKey] = field(default_factory=dict)

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
            entrants = [entrant for e in table.seats if (entrant := self.state.entrant(e))]
            names = [entrant.name for entrant in entrants]
            seats = [{"name": e.name, **self._seat_key(e.name, e.public_key)} for e in entrants]
            setup = {"game": self.state.settings.game, "seats": seats, "first_seat": 0, "mode": "tournament"}
            game = sealed_game(rng, setup, self.commands, self._signing(names) if self.signers else None)
            self.games[game_id] = game
            self.run("AssignGame", table=table.index, game_id=game_id)
            self.run("RecordResult", SYSTEM, game_id=game_id, result=game[-1].data, final_hash=game[-1].hash)

    def _seat_key(self, name: str, registered: Any) -> dict[str, Any]:
        if name in self.seat_keys:
            return {"public_key": public_key(self.seat_keys[name].jwk)}
        return {} if registered is None else {"public_key": dict(registered)}

    def _signing(self, names: Sequence[str]) -> Callable[[int, Command], str | None]:
        def sign(version: int, command: Command) -> str | None:
            signer = self.signers.get(names[command.seat or 0])
            return None if signer is None else signer.sign_text(signed_text("g", version, command))

        return sign

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
    game: str = "kahuna",
    entrants: Sequence[str] = NAMES[:4],
    fmt: str = "swiss",
    keys: Mapping[str, SeatKey] | None = None,
    **settings: Any,
) -> Tournament:
    """A tournament of `game` (a Swiss unless `fmt` says otherwise) with `entrants` registered,
    started, its lots drawn."""
    request = {"name": "Island Open", "game": GAMES.get(game, game), "format": fmt, "rounds": 2}
    event = rules.created({**request, **settings})
    first = seal([NewEvent.recording(event, 0, "organizer", "create")], 0, at(0), ZERO_HASH)
    tournament = Tournament(rules.initial_state(event.data), first)
    for name in entrants:
        key = {} if keys is None else {"public_key": public_key(keys[name].jwk)}
        tournament.run("RegisterEntrant", name=name, **key)
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
    keys: Mapping[str, SeatKey] | None = None,
    signers: Mapping[str, SeatKey | None] | None = None,
    seat_keys: Mapping[str, SeatKey] | None = None,
) -> Tournament:
    """A whole tournament: every round played and its results recorded (it is not closed). With
    `keys`, its moves are signed (signed_moves): each entrant registers its key, and `signers`
    (the entrants' own keys unless given) sign their commands."""
    rng = random.Random(seed)
    signed = {} if keys is None else {"signed_moves": True}
    tournament = created(game, entrants, fmt, keys=keys, rounds=rounds, **signed)
    tournament.commands = commands
    tournament.signers = dict(keys if signers is None else signers) if keys is not None else {}
    tournament.seat_keys = dict(seat_keys or {})
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
