"""The declaration of a game: everything the platform needs of one (GameModule) and its parts."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from domain.decider import Command, Event
from domain.json_schema import JsonSchema
from domain.rules_page import RulesPage
from domain.turns import SystemRequest, ToAct

S = TypeVar("S")


class Recorded(Protocol):
    """An event as the history records it; the service's envelopes have this shape."""

    @property
    def version(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> Mapping[str, Any]: ...

    @property
    def secret(self) -> Mapping[str, Any] | None: ...

    @property
    def audience(self) -> tuple[int, ...]: ...

    @property
    def actor(self) -> str: ...

    @property
    def command_id(self) -> str: ...


@dataclass(frozen=True)
class UndoHints:
    """What a game's events mean to the undo policy (domain/undo.py).

    `turn_markers`: events after which another turn begins; `round_markers`: events that
    start a round (declined takebacks are counted per round). `learners(record, seats)`:
    the seats a recorded event shows hidden information they could not hold before; undo
    never goes back across it for them.
    """

    turn_markers: frozenset[str]
    round_markers: frozenset[str]
    learners: Callable[[Recorded, int], set[int]]


@dataclass(frozen=True)
class SearchSettings:
    """How the ISMCTS player (ai/ismcts.py) searches a game; the defaults suit the island games.

    `exploration`: UCB1's constant, against win chances from 0 to 1 (a game whose moves differ
    by a few hundredths needs less). `prior_visits` virtual visits per root command worth the
    evaluation right after it, averaged over `prior_worlds` worlds. A rollout plays up to
    `rollout_commands` cheap commands (0: the leaf is evaluated as it is), `rollout_noise`
    times a fresh draw added to each command's prior, and stops when `rollout_turns` turns
    have passed. `keep_steps`: the search applies each command once per state it meets and
    looks the state after it up when it meets both again (ai/steps.py): worth it for a game
    whose `world` answers from a few kept states, a waste of memory for one drawing a new
    world each time.
    """

    exploration: float = 0.7
    prior_visits: int = 3
    prior_worlds: int = 2
    rollout_turns: int = 2
    rollout_commands: int = 16
    rollout_noise: float = 1.0
    keep_steps: bool = False


@dataclass(frozen=True)
class AIHooks(Generic[S]):
    """What the greedy and search players need beyond the rules; without them, a game still
    gets the random player.

    `world(knowledge, rng)`: a whole state drawn from what one seat knows (ai.knowledge).
    `evaluate(state, viewer)`: each seat's chance to win, from 0 to 1; with a `viewer`,
    what that seat cannot see counts unseen. `priors(state, commands)`: a cheap order of
    commands for rollouts, a value per command of a whole listing (higher first).
    `moves(state, seat)`: the commands worth searching, and `moves_key(state, seat)` the
    state's features they depend on (a cache key). `turn(state)` changes whenever a turn
    passes. `search`: how the search weighs and plays out this game (SearchSettings).
    `listing_key(state, seat)`, when given: every feature `moves` depends on besides those of
    `moves_key`, so a search lists the commands of equal keys once for all its nodes.
    `knowing_hands(state, knowledge)`, when given: a source of worlds of `knowledge` that hold
    every hand as the true `state` has it (a measure, bench.where_it_loses; never a player).
    """

    world: Callable[[Any, Any], S]
    evaluate: Callable[[S, int | None], list[float]]
    priors: Callable[[S, Sequence[Command]], list[float]]
    moves: Callable[[S, int], list[Command]]
    moves_key: Callable[[S, int], Hashable]
    turn: Callable[[S], Hashable]
    search: SearchSettings = SearchSettings()
    listing_key: Callable[[S, int], Hashable] | None = None
    knowing_hands: Callable[[S, Any], Callable[[Any], S]] | None = None


@dataclass(frozen=True)
class GameSchemas:
    """The shapes of one game's messages, for the API document (service/api/game_components.py).

    `commands`: command type -> an object schema of the body's fields besides `type`;
    `events`: event type -> the schema of its `data`, and `secrets` of its `secret` (when it
    has one); `view`: the schema of `view(state, seat)`; `options`: of the options
    `check_options` takes; `result`: of `result(state)` once it is not None. What a game
    leaves empty the document types generically (any command type, any object), so a game
    that gives nothing still plays through a client built from the document.
    """

    commands: Mapping[str, JsonSchema] = field(default_factory=dict)
    events: Mapping[str, JsonSchema] = field(default_factory=dict)
    secrets: Mapping[str, JsonSchema] = field(default_factory=dict)
    view: JsonSchema = field(default_factory=dict)
    options: JsonSchema = field(default_factory=dict)
    result: JsonSchema = field(default_factory=dict)


CommandWords = Callable[[Mapping[str, Any], Sequence[str]], str]
"""A command (its body as a client posts it) as a button says it, given the seats' names."""


@dataclass(frozen=True)
class GameWords:
    """What the pages say of a game besides its events (those are `describe`'s), from its
    describe.py: the platform keeps no table of any game's names.

    `title`: the game's name as a page heads it. `commands`: command type -> its words on the
    play page's button. `end_reasons`: the rules' end `reason` -> how the end screen says it
    ("on points"). `parts`: a command field whose items a page offers one by one (Conquest of
    Paradise's build `orders`) -> the words of one item. `explain(kind, name)`: what a thing the
    page shows does, for a player who does not know it yet, in a sentence that leaves its name to
    the page ("card", "god", "tile"; None when the game has no such thing or no words for it).
    `rules`: the game's rules page for players, each option in words (None: the game has none).
    """

    title: str
    commands: Mapping[str, CommandWords] = field(default_factory=dict)
    end_reasons: Mapping[str, str] = field(default_factory=dict)
    parts: Mapping[str, Callable[[Mapping[str, Any]], str]] = field(default_factory=dict)
    explain: Callable[[str, str], str | None] = field(default=lambda kind, name: None)
    rules: RulesPage | None = None

    def command(self, command: Mapping[str, Any], names: Sequence[str]) -> str | None:
        """The command as a button says it; None when the game gave its type no words."""
        phrase = self.commands.get(str(command.get("type")))
        return None if phrase is None else str(phrase(command, names))


@dataclass(frozen=True)
class GameModule(Generic[S]):
    """Everything the platform needs of one game, as OpenSpiel's _GAME_TYPE + register_game.

    `check_options(options)` raises IllegalMove on options the game refuses.
    `check_seated_options(options, seats)`, optional: as `check_options`, and also refuses
    options that do not fit `seats` seats (an option of another seat count); a game whose
    options all fit every seat count leaves it None. `check_options_for` asks the right one.
    `describe(events, names)` puts a batch of events (as dicts) into words.
    `command_fields` names the fields a command's body may carry besides its type.
    `board(game)` is the board data renderers draw.
    `end_event`: the type of the event with which the rules end the game (its data is
    `result(state)`); undo, tournaments, the audit and bundles read a game's end by it
    (domain/ending.py), never by a name of their own.
    `words`: its title, its commands' words and its end reasons (GameWords).
    `renderer`: the kind of board renderer that draws it and writes its notation (registered
    by kind in replays/renderers.py).
    `words`: its title, its commands' words, its end reasons, its option hints (GameWords).
    `renderer`: the kind of board renderer that draws it (registered by kind in replays/).
    `decide_with_state(state, command)`, optional: `decide`'s events and the state folding
    them gives, for a game whose `decide` computes that state anyway; `apply` uses it.
    `schemas`, optional: its commands, events, view, options and result as JSON Schema.
    `two_seat_scoring`: how a tournament of two-seat tables scores a game of it: "win_draw"
    (3:1, 2:2) or "i9" (by the margin of islands, Arabana-Ikibiti's I-9). A tournament's
    computer entrants need `ai` (the search players); a game without it takes none.
    """

    name: str
    min_seats: int
    max_seats: int
    check_options: Callable[[Mapping[str, Any]], None]
    initial_state: Callable[[Mapping[str, Any]], S]
    decide: Callable[[S, Command], list[Event]]
    evolve: Callable[[S, Event], S]
    legal_commands: Callable[[S, int], Sequence[Command]]
    view: Callable[[S, int | None], dict[str, Any]]
    is_terminal: Callable[[S], bool]
    to_act: Callable[[S], ToAct]
    pending_system: Callable[[S], SystemRequest | None]
    result: Callable[[S], Mapping[str, Any] | None]
    describe: Callable[[Sequence[Mapping[str, Any]], Sequence[str]], str]
    undo: UndoHints
    command_fields: tuple[str, ...]
    board: Callable[[str], Any]
    end_event: str
    words: GameWords
    renderer: str
    ai: AIHooks[S] | None = None
    decide_with_state: Callable[[S, Command], tuple[list[Event], S]] | None = None
    schemas: GameSchemas = field(default_factory=GameSchemas)
    check_seated_options: Callable[[Mapping[str, Any], int], None] | None = None
    two_seat_scoring: str = "win_draw"

    def apply(self, state: S, command: Command) -> tuple[list[Event], S]:
        """The events `command` causes and the state after them (IllegalMove when refused)."""
        if self.decide_with_state is not None:
            return self.decide_with_state(state, command)
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return events, state

    def check_options_for(self, options: Mapping[str, Any], seats: int) -> None:
        """IllegalMove on options the game refuses when played by `seats` seats."""
        if self.check_seated_options is None:
            self.check_options(options)
        else:
            self.check_seated_options(options, seats)

    def seat_counts(self) -> str:
        """The seats the game is played by, as said: "2 seats", "3-4 seats"."""
        return seat_counts(self.min_seats, self.max_seats)

    def created_event(self, setup: Mapping[str, Any]) -> Event:
        """The first event of every game: its setup, as the rules read it."""
        return Event("GameCreated", dict(setup))


def seat_counts(least: int, most: int) -> str:
    """A range of seat counts, as said: "2 seats", "3-4 seats"."""
    return f"{least} seats" if least == most else f"{least}-{most} seats"
