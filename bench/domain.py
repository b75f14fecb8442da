"""Random self-play in the rules alone: how many whole games (and commands) per second.

Every registered game (`domain.games.GAMES`) is played with its default setup:
2 seats, or 3, or 4 when the game refuses fewer. Further setups (other seat
counts, options) are listed in `EXTRA_SETUPS`. A game is played by one seeded
`random.Random`: whenever `pending_system` asks, the system's command is given
as the service would (ShuffleDeck with random permutations, DrawAtRandom with
random picks, ScoreRound); otherwise a uniformly
random command of `legal_commands` is applied, until `is_terminal`. A command is
applied as the searches apply it, by the game module's `apply`: its events and
the state they lead to, which a game with `decide_with_state` (the island games)
hands back from `decide` instead of evolving the events again. Everything in
that loop is timed: legal_commands, decide and the state after it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.common import Figure, say
from domain.decider import Command, Event, IllegalMove
from domain.games import GAMES

SEAT_COUNTS = (2, 3, 4)
"""Tried in this order for a game's default setup."""

MAX_COMMANDS_PER_GAME = 100_000
"""A random game that has not ended after this many commands is a bug, not a long game."""


@dataclass(frozen=True)
class Setup:
    """One way to set up a game for the benchmark."""

    game: str
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game} {self.seats}p" + (f" [{opts}]" if opts else "")

    def to_setup(self) -> dict[str, Any]:
        """The `GameCreated` data the rules start from."""
        setup: dict[str, Any] = {
            "game": self.game,
            "seats": [{"name": f"P{n + 1}"} for n in range(self.seats)],
            "first_seat": 0,
        }
        if self.options:
            setup["options"] = dict(self.options)
        return setup


EXTRA_SETUPS: list[Setup] = [
    # Setups beyond each game's default; one the rules refuse is reported as skipped.
    Setup("arabana-ikibiti", 2, {"seafarers": True}),
    Setup("arabana-opodopo", 3, {"gods": True}),
    Setup("arabana-opodopo", 4),
    Setup("arabana-opodopo", 4, {"gods": True}),
    Setup("kahuna", 2, {"edition": "thames-kosmos"}),
    Setup("nanuuk", 3),
    Setup("nanuuk", 4),
    Setup("nanuuk", 2, {"two_hunters": True}),
]


def default_setups(games: Mapping[str, Any] = GAMES) -> tuple[list[Setup], list[str]]:
    """Each game with the fewest seats (2, 3 or 4) it accepts; and why any game was left out."""
    setups, skipped = [], []
    for name in sorted(games):
        for seats in SEAT_COUNTS:
            setup = Setup(name, seats)
            try:
                games[name].initial_state(setup.to_setup())
            except IllegalMove:
                continue
            setups.append(setup)
            break
        else:
            skipped.append(f"{name}: refuses {'/'.join(map(str, SEAT_COUNTS))} seats")
    return setups, skipped


def all_setups(extra: Iterable[Setup] = ()) -> tuple[list[Setup], list[str]]:
    """The default setups plus `EXTRA_SETUPS` and `extra` the rules accept; and the refused."""
    setups, skipped = default_setups()
    for setup in [*EXTRA_SETUPS, *extra]:
        rules = GAMES.get(setup.game)
        if rules is None:
            skipped.append(f"{setup.label}: not a registered game")
            continue
        try:
            rules.initial_state(setup.to_setup())
        except IllegalMove as refusal:
            skipped.append(f"{setup.label}: {refusal.code} ({refusal.message})")
            continue
        if setup not in setups:
            setups.append(setup)
    return setups, skipped


@dataclass
class Played:
    """What one or more games took."""

    games: int = 0
    commands: int = 0  # seat commands and system commands, each one decide()
    system_commands: int = 0
    events: int = 0
    # By the state's `round` when the command came (0 before the first): commands, seconds.
    # A command that costs more late in a game than early shows here.
    rounds: dict[int, tuple[int, float]] = field(default_factory=dict)

    def add(self, other: Played) -> None:
        self.games += other.games
        self.commands += other.commands
        self.system_commands += other.system_commands
        self.events += other.events
        for round_, (commands, seconds) in other.rounds.items():
            self.count(round_, commands, seconds)

    def count(self, round_: int, commands: int, seconds: float) -> None:
        before = self.rounds.get(round_, (0, 0.0))
        self.rounds[round_] = (before[0] + commands, before[1] + seconds)

    def per_second(self, round_: int) -> float:
        commands, seconds = self.rounds[round_]
        return commands / seconds


Recorder = Callable[[Command, list[Event]], None]


def play_game(
    rules: Any,
    setup: Mapping[str, Any],
    rng: random.Random,
    record: Recorder | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Played:
    """Play one game to its end with random legal commands; `record` sees every decision.

    Each round is timed as one span, from its first command to the next round's first:
    reading the clock around every command cost as much as a tenth of a command.
    """
    state = rules.initial_state(setup)
    seats = range(len(setup["seats"]))
    played = Played(games=1)
    round_, commands, started = getattr(state, "round", 0), 0, clock()
    while not rules.is_terminal(state):
        now = getattr(state, "round", 0)
        if now != round_:
            ended = clock()
            played.count(round_, commands, ended - started)
            round_, commands, started = now, 0, ended
        if played.commands >= MAX_COMMANDS_PER_GAME:
            raise RuntimeError(f"{setup['game']}: no end after {played.commands} commands")
        pending = rules.pending_system(state)
        if pending is not None:
            command = pending.answer(rng)
            played.system_commands += 1
        else:
            command = _random_legal(rules, state, seats, rng)
        events, state = rules.apply(state, command)
        played.commands += 1
        commands += 1
        played.events += len(events)
        if record is not None:
            record(command, events)
    if commands:
        played.count(round_, commands, clock() - started)
    return played


def _random_legal(rules: Any, state: Any, seats: range, rng: random.Random) -> Command:
    for seat in seats:
        legal = rules.legal_commands(state, seat)
        if not isinstance(legal, Sequence):
            legal = list(legal)
        if legal:
            return rng.choice(legal)
    raise RuntimeError("no seat has a legal command, yet the game neither ended nor waits")


@dataclass(frozen=True)
class Timing:
    """How long to measure: warm-up games first, then games until both minimums are met."""

    warmup_games: int
    seconds: float
    min_games: int


FULL = Timing(warmup_games=5, seconds=5.0, min_games=20)
QUICK = Timing(warmup_games=0, seconds=0.1, min_games=1)


@dataclass(frozen=True)
class SetupResult:
    setup: Setup
    played: Played
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.played.games / self.seconds

    @property
    def commands_per_second(self) -> float:
        return self.played.commands / self.seconds


def bench_setup(setup: Setup, timing: Timing, seed: int) -> SetupResult:
    """Warm up, then play games of `setup` for `timing`; only the measured games count."""
    rules = GAMES[setup.game]
    data = setup.to_setup()
    rng = random.Random(seed)
    for _ in range(timing.warmup_games):
        play_game(rules, data, rng)
    played = Played()
    start = time.perf_counter()
    elapsed = 0.0
    while played.games < timing.min_games or elapsed < timing.seconds:
        played.add(play_game(rules, data, rng))
        elapsed = time.perf_counter() - start
    return SetupResult(setup, played, elapsed)


def run(
    quick: bool = False,
    seed: int = 1,
    seconds: float | None = None,
    setups: Sequence[Setup] | None = None,
    games: Sequence[str] | None = None,
) -> list[Figure]:
    """Benchmark every setup (only those of `games` when given); print how, return the figures."""
    timing = QUICK if quick else FULL
    if seconds is not None:
        timing = Timing(timing.warmup_games, seconds, timing.min_games)
    skipped: list[str] = []
    if setups is None:
        setups, skipped = all_setups()
    if games is not None:
        setups = [setup for setup in setups if setup.game in games]
        skipped = [reason for reason in skipped if reason.split(":")[0].split(" ")[0] in games]
    say("== domain: random self-play in the rules alone (no I/O) ==")
    say(
        f"   per setup: {timing.warmup_games} warm-up game(s) not counted, then whole games "
        f"until >= {timing.seconds:g} s and >= {timing.min_games} game(s); "
        f"random.Random({seed}); a command = one decide() (seat's or system's)"
    )
    for reason in skipped:
        say(f"   skipped {reason}")
    figures = []
    for setup in setups:
        result = bench_setup(setup, timing, seed)
        p = result.played
        say(
            f"   {setup.label}: {p.games} games, {p.commands} commands "
            f"({p.system_commands} system), {p.events} events in {result.seconds:.2f} s -> "
            f"{result.games_per_second:.1f} games/s, {result.commands_per_second:,.0f} commands/s, "
            f"{p.commands / p.games:.0f} commands/game"
        )
        figures += [
            Figure("domain", f"{setup.label}: games", result.games_per_second, "games/s"),
            Figure("domain", f"{setup.label}: commands", result.commands_per_second, "commands/s"),
        ]
        played_rounds = sorted(r for r in p.rounds if r > 0)
        if played_rounds:
            first, last = p.per_second(played_rounds[0]), p.per_second(played_rounds[-1])
            say(
                f"      round {played_rounds[0]}: {first:,.0f} commands/s, round {played_rounds[-1]}: "
                f"{last:,.0f} commands/s (last/first {last / first:.2f}; timed per round)"
            )
            figures += [
                Figure("domain", f"{setup.label}: first round", first, "commands/s"),
                Figure("domain", f"{setup.label}: last round", last, "commands/s"),
            ]
    return figures
