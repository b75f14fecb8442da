"""A game file replayed for one viewer: the view at every version, the steps in words, the notes.

The file is folded as the service folds (domain.history: an undo restores an earlier state).
A complete file (after the end, log revealed) folds as it is. A file built for one viewer
withholds the secrets that viewer may not read; it is folded with stand-ins ("?") for the
withheld cards, so every count (hands, stack, face-down discards) and everything public is
right, and the viewer's own hand, which the file never withholds from it, is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from domain.decider import DomainError, Event
from domain.game_module import GameModule
from domain.games import rules_for
from domain.history import extend_history, fold_history
from record.convert import to_event
from record.envelope import Envelope
from replays.archive import Archive, event_dicts

UNKNOWN = "?"
"""The stand-in for a card the file withholds from its viewer."""


class ReplayError(ValueError):
    """A game file that cannot be replayed as asked; `version` names the event at fault, if one is."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.version = version


@dataclass(frozen=True)
class Step:
    """One command (or system step): the versions it appended, who, and what it did in words."""

    index: int
    first_version: int
    version: int
    actor: str
    types: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class Replay:
    """A read game file with the viewer it is replayed for."""

    archive: Archive
    viewer: int | None
    rules: Any = field(repr=False)
    states: list[Any] = field(repr=False)  # index v: the state after version v

    @property
    def last_version(self) -> int:
        return len(self.archive.envelopes)

    @property
    def names(self) -> list[str]:
        return [str(name) for name in self.archive.header["seats"]]

    def view(self, version: int | None = None) -> dict[str, Any]:
        """The view at `version` (default: the last), as GET /games/{id}?at=N answers it."""
        at = self.last_version if version is None else version
        if not 1 <= at <= self.last_version:
            raise ReplayError(f"--at must be a version 1..{self.last_version}, not {at}")
        state = self.states[at]
        shown = {**self.rules.view(state, self.viewer), "version": at, "latest_version": self.last_version}
        if self.archive.complete and getattr(state, "hands", None) is not None:
            shown["hands"] = [list(hand) for hand in state.hands]  # the log is open: every hand
        return shown

    @cached_property
    def steps(self) -> list[Step]:
        """The game command by command, as the service's /replay groups it."""
        events = list(event_dicts(self.archive))
        groups: list[list[dict[str, Any]]] = []
        for envelope, event in zip(self.archive.envelopes, events, strict=True):
            if groups and envelope.command_id == groups[-1][-1]["command_id"]:
                groups[-1].append(event)
            else:
                groups.append([event])
        return [
            Step(
                index,
                group[0]["version"],
                group[-1]["version"],
                str(group[-1]["actor"]),
                tuple(str(e["type"]) for e in group),
                _describe(self.rules, group, self.names),
            )
            for index, group in enumerate(groups)
        ]

    def step_of(self, version: int) -> Step:
        """The step that appended `version` (version 0 belongs to the first step)."""
        for step in self.steps:
            if version <= step.version:
                return step
        return self.steps[-1]

    def annotations_in(self, step: Step) -> list[dict[str, Any]]:
        """The file's annotations on the versions `step` appended (version 0: the first step)."""
        low = 0 if step.index == 0 else step.first_version
        return [a for a in self.archive.annotations if low <= int(a.get("version", 0)) <= step.version]

    def annotations_at(self, version: int) -> list[dict[str, Any]]:
        return [a for a in self.archive.annotations if a.get("version") == version]


def replay(archive: Archive, seat: int | str | None = None) -> Replay:
    """`archive` folded for `seat` (number or name); a spectator when None.

    A complete file may be replayed for any seat; a redacted file only for the viewer it
    was built for.
    """
    viewer = _viewer(archive, seat)
    try:
        rules = rules_for(str(archive.header["game"]))
    except DomainError as error:
        raise ReplayError(error.message) from None
    events = [(e.version, _event(e, e.version in archive.redacted)) for e in archive.envelopes[1:]]
    decider: Any = _Masked(rules) if archive.redacted else rules
    try:
        states = fold_history(decider, archive.setup, [])
    except (DomainError, LookupError, TypeError, ValueError) as error:
        raise ReplayError(f"event 1: the rules refuse the setup: {error}", 1) from None
    for version, event in events:
        try:
            states = extend_history(decider, states, [(version, event)])
        except Exception as error:  # whatever the rules trip on, the user hears which event
            raise ReplayError(
                f"event {version}: the rules cannot fold it ({type(error).__name__}: {error})", version
            ) from None
    return Replay(archive, viewer, rules, states)


def _viewer(archive: Archive, seat: int | str | None) -> int | None:
    names = [str(name) for name in archive.header["seats"]]
    wanted = _seat_number(seat, names)
    if archive.complete:
        return wanted
    built_for = archive.header.get("redacted_for")
    if wanted is not None and wanted != built_for:
        who = "a spectator" if built_for is None else names[built_for]
        raise ReplayError(
            f"this file was exported for {who} and withholds the other secrets: it shows the game "
            "only as that viewer saw it (leave out --seat)"
        )
    return built_for if isinstance(built_for, int) else None


def _seat_number(seat: int | str | None, names: Sequence[str]) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, int) or (isinstance(seat, str) and seat.isdigit()):
        number = int(seat)
        if 0 <= number < len(names):
            return number
        raise ReplayError(f"seat {number} is not a seat of this game (0..{len(names) - 1})")
    if seat in names:
        return list(names).index(seat)
    raise ReplayError(f"no seat is named {seat!r}; the seats are {', '.join(names)}")


def _describe(rules: GameModule[Any], group: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    try:
        return rules.describe(group, names)
    except Exception:  # a description is commentary: never let it stop a replay
        return "; ".join(str(e.get("type")) for e in group)


# --- folding a file with withheld secrets ---------------------------------------------------


def _event(envelope: Envelope, redacted: bool) -> Event:
    """The event to fold: a withheld secret replaced by stand-ins of the right size."""
    event = to_event(envelope)
    if not redacted:
        return event
    stand_in = _STAND_INS.get(envelope.type)
    secret = stand_in(envelope.data) if stand_in else None
    return replace(event, secret=secret)


def _unknown_cards(key: str, count_key: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda data: {key: [UNKNOWN] * int(data.get(count_key, 0))}


_STAND_INS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "DeckShuffled": _unknown_cards("stack", "size"),
    "HandDealt": _unknown_cards("cards", "count"),
    "CardsDiscarded": _unknown_cards("cards", "count"),
    "CardDrawn": lambda data: {"card": UNKNOWN},
    "CardTaken": lambda data: {"card": UNKNOWN},
    "CardGiven": lambda data: {"card": UNKNOWN},
    "FaceUpChosen": lambda data: {"card": UNKNOWN},
}


def _taken_from_hands(event: Event) -> list[tuple[int, list[str]]]:
    """(seat, cards) that `event` takes out of hands: they must be there to fold it."""
    data, secret = event.data, event.secret or {}
    if event.type == "CardsPlayed":
        return [(data["seat"], list(data["cards"]))]
    if event.type == "CardsDiscarded":
        return [(data["seat"], list(secret.get("cards", [])))]
    if event.type == "FaceUpRevealed":
        return [(seat, [card]) for seat, card in enumerate(data["cards"])]
    if event.type == "CardTaken":
        return [(data["from"], [secret.get("card", UNKNOWN)])]
    if event.type == "CardGiven":
        return [(data["seat"], [secret.get("card", UNKNOWN)])]
    return []


def _holding(hand: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    """`hand` with stand-ins turned into `cards` it lacks (or known cards into wanted stand-ins).

    Only hands the viewer cannot see hold stand-ins, and of those only the size is shown.
    """
    rest, result = list(hand), list(hand)
    for card in cards:
        if card in rest:
            rest.remove(card)
            continue
        spare = UNKNOWN if UNKNOWN in rest else next(iter(rest), None)
        if spare is not None:
            rest.remove(spare)
            result.remove(spare)
        result.append(card)
    return tuple(sorted(result))


class _Masked:
    """The rules, folding events whose withheld cards were replaced by stand-ins."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def initial_state(self, setup: Mapping[str, Any]) -> Any:
        return self.rules.initial_state(setup)

    def evolve(self, state: Any, event: Event) -> Any:
        hands = getattr(state, "hands", None)
        taken = _taken_from_hands(event)
        if hands is not None and taken:
            fixed = list(hands)
            for seat, cards in taken:
                if 0 <= seat < len(fixed):
                    fixed[seat] = _holding(fixed[seat], cards)
            state = replace(state, hands=tuple(fixed))
        return self.rules.evolve(state, event)
