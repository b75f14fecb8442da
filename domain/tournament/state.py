"""The state of a tournament: an immutable value rebuilt by folding its events."""

from __future__ import annotations

from dataclasses import dataclass

from domain.tournament.settings import RATINGS, Settings

# "registration" takes entrants; "running" pairs and plays rounds; "closed" takes nothing.
REGISTRATION, RUNNING, CLOSED = "registration", "running", "closed"
PERSON, AI = "person", "ai"


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str
    kind: str  # person | ai
    level: int | None  # an AI entrant's strength
    joined: int  # the last round paired when the entrant registered (0: before the first)
    withdrawn: int | None = None  # the last round paired when the entrant withdrew
    # The player a person's entrant was registered as (its ratings follow it across tournaments);
    # None for a computer entrant or a person registered without a player: a one-off player.
    player: str | None = None
    # A person's public key (a JWK's members, sorted), which signs its moves; None when it gave none.
    public_key: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class Result:
    """A table's outcome, by seat: places (1 = first, equal places share), points, island points."""

    places: tuple[int, ...]
    points: tuple[float, ...]
    island_points: tuple[float, ...]
    final_hash: str | None  # the game's last hash; None for a forfeit before the game ended
    how: str  # "played", "forfeit" or "corrected"


@dataclass(frozen=True)
class Table:
    round: int
    index: int
    seats: tuple[str, ...]  # entrant ids, first seat first
    game_id: str | None = None
    result: Result | None = None


@dataclass(frozen=True)
class Bye:
    round: int
    entrant: str
    points: float
    island_points: float
    reason: str  # "pairing", "opponent_withdrawn" or "organizer"


@dataclass(frozen=True)
class State:
    settings: Settings
    phase: str = REGISTRATION
    entrants: tuple[Entrant, ...] = ()
    rounds: int | None = None  # planned; a round robin's is known at the start
    round: int = 0  # the last round paired
    completed: int = 0  # the last round whose every table has a result
    tables: tuple[Table, ...] = ()  # every round's tables, in order
    byes: tuple[Bye, ...] = ()
    lots: tuple[str, ...] = ()  # entrant ids in the order the lots put them
    starters: tuple[str, ...] = ()  # the entrants in play at the start
    ratings: tuple[tuple[str, float | None], ...] = ()  # drawn with the lots when pairing by rating

    def entrant(self, entrant_id: str) -> Entrant | None:
        return next((e for e in self.entrants if e.id == entrant_id), None)

    def active(self) -> list[Entrant]:
        """The entrants still in the tournament, in registration order."""
        return [e for e in self.entrants if e.withdrawn is None]

    def round_tables(self, round_: int) -> list[Table]:
        return [t for t in self.tables if t.round == round_]

    def table_of_game(self, game_id: str) -> Table | None:
        return next((t for t in self.tables if t.game_id == game_id), None)

    def seat_of(self, round_: int, entrant_id: str) -> Table | None:
        """The table `entrant_id` sits at in `round_`, if any."""
        return next((t for t in self.round_tables(round_) if entrant_id in t.seats), None)

    def bye_of(self, round_: int, entrant_id: str) -> Bye | None:
        return next((b for b in self.byes if b.round == round_ and b.entrant == entrant_id), None)

    @property
    def in_progress(self) -> bool:
        """A round is paired and some table of it has no result yet."""
        return self.round > self.completed

    def pairing_order(self) -> list[str]:
        """Entrant ids by pairing number: the lots' order, or by rating (highest first, the
        unrated last) then lot when the organizer pairs by rating."""
        if self.settings.pairing_numbers != RATINGS:
            return list(self.lots)
        rated = dict(self.ratings)

        def key(entrant: str) -> tuple[bool, float, int]:
            rating = rated.get(entrant)
            return rating is None, -(rating or 0.0), self.lots.index(entrant)

        return sorted(self.lots, key=key)

    def lots_due(self) -> list[str]:
        """The entrants who hold no lot yet, in registration order: every starter (a round robin
        fixes its tables from the lots), and every late entrant still in play."""
        if self.phase != RUNNING:
            return []
        due = [e for e in self.entrants if e.id in self.starters or e.withdrawn is None]
        return [e.id for e in due if e.id not in self.lots]
