"""A game as loaded: its events, the state folded from those the chain vouches for, and what is
read off them (the end, the result, a takeback waiting for its answers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain import resign, undo
from domain.ending import GAME_RESIGNED, platform_end
from record.envelope import Envelope
from service.record_marks import Keys, Marks


@dataclass(frozen=True)
class Loaded:
    """A game folded up to `version`, with the events that led there.

    When the stored chain breaks at `broken`, `envelopes` still holds every stored event
    (they are the evidence) but `state` folds only the ones before the break: a changed
    event must not move the game, nor open its secrets by faking its end.
    """

    game_id: str
    rules: Any
    state: Any
    envelopes: list[Envelope]
    broken: int | None = None
    # What requests read off the whole record (service.record_marks): given when the marks
    # of a shorter prefix of `envelopes` are at hand, else read on first use.
    given_marks: Marks | None = field(default=None, compare=False, repr=False)

    @property
    def marks(self) -> Marks:
        """The marks of all of `envelopes`, read once per Loaded (from `given_marks` onwards)."""
        marks = self.given_marks
        if marks is None or marks.count > len(self.envelopes):
            marks = Marks()
        if marks.count != len(self.envelopes):
            marks = marks.after(self.envelopes[marks.count :])
            object.__setattr__(self, "given_marks", marks)  # a cache of what the fields hold
        return marks

    @property
    def platform_ended(self) -> Envelope | None:
        """The forfeit, resignation or abort that ended the game, or None (domain.ending)."""
        if self.broken is not None:
            return platform_end(self.trusted)
        return self.marks.platform_end

    @property
    def seat_keys(self) -> Keys:
        """Each seat's key (record.seat_keys.seat_keys of the whole record); read, never change."""
        return self.marks.keys

    def written_by(self, command_id: str) -> list[Envelope]:
        """The events `command_id` wrote, in order (none when it wrote none)."""
        return self.marks.written_by(self.envelopes, command_id)

    @property
    def version(self) -> int:
        return len(self.envelopes)

    @property
    def trusted(self) -> list[Envelope]:
        """The events the state was folded from: all of them, or those before the break."""
        return self.envelopes if self.broken is None else self.envelopes[: self.broken - 1]

    @property
    def setup(self) -> dict[str, Any]:
        return self.envelopes[0].data

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by a forfeit, a resignation or an abort
        (domain/ending.py)."""
        return bool(self.rules.is_terminal(self.state)) or self.platform_ended is not None

    @property
    def ended_with_result(self) -> bool:
        """Whether the game ended by its rules or by a resignation: a result a tournament records
        (a forfeit brought its own, an abort has none)."""
        end = self.platform_ended
        return bool(self.rules.is_terminal(self.state)) if end is None else end.type == GAME_RESIGNED

    @property
    def result(self) -> Any:
        """The game's result once it has one: the rules' own, or a resignation's; else None."""
        end = self.platform_ended
        if end is not None:
            return resign.result(end)
        return self.rules.result(self.state) if self.over else None

    @property
    def revealed(self) -> bool:
        """After the end the whole log is open, unless the game was created otherwise."""
        return self.over and bool(self.setup.get("reveal_after_end", True))

    @property
    def takeback(self) -> undo.Takeback | None:
        """The takeback request waiting for its answers, if any (lapsed ones are not)."""
        return undo.pending_takeback(self.trusted)


def takeback_view(loaded: Loaded) -> dict[str, Any] | None:
    """The pending takeback as every viewer may see it (it is public), or None."""
    pending = loaded.takeback
    if pending is None:
        return None
    return {
        "requested_by": pending.seat,
        "to_version": pending.to_version,
        "version": pending.version,
        "accepted_by": list(pending.accepted),
        "waiting_for": pending.waiting_for(len(loaded.setup["seats"])),
    }


def takeback_answers(loaded: Loaded, seat: int) -> list[dict[str, Any]]:
    """The AnswerTakeback commands `seat` may send now: both answers while its answer is due."""
    pending = loaded.takeback
    if pending is None or seat not in pending.waiting_for(len(loaded.setup["seats"])):
        return []
    return [{"type": undo.ANSWER_TAKEBACK, "accept": answer} for answer in (True, False)]
