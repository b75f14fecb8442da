"""A new game: its setup checked and put in its recorded form, GameCreated and the first deal
appended as one batch, and one token per seat that a person plays."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.decider import IllegalMove
from domain.game_module import GameModule
from domain.games import rules_for
from record.draws import FIRST_SEAT_DRAW, SCHEME, DrawStream, commitment, creator_entropy
from record.open_seats import OPEN_NAME
from record.seat_keys import INVALID_KEY, public_key
from service.chance import Deal, Dice, committed
from service.game_commands import ORGANIZER, Step, batch
from service.game_parts import GameParts
from service.game_system import system_steps


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    tokens: list[str | None]  # None for a computer seat and an open one
    organizer_token: str | None = field(default=None, repr=False)


def create(
    service: GameParts,
    setup: Mapping[str, Any],
    client: str | None = None,
    game_id: str | None = None,
    capped: bool = True,
) -> Created:
    """A new game (GameService.create)."""
    rules = rules_for(setup["game"])
    recorded, deal = recorded_setup(rules, setup, service.dice)
    state = rules.initial_state(recorded)
    _check_computers(rules, recorded["seats"])
    game_id = game_id or secrets.token_hex(8)
    # The seed is GameCreated's secret for no seat: hidden like any secret until the end.
    created = committed(rules.created_event(recorded), deal.seed, deal.data)
    steps: list[Step] = [(None, [created]), *system_steps(service.dice, rules, state, deal, (), 2)]
    if service.ai is not None and capped:
        service.ai.admit(game_id, recorded, client)
    # Tokens only once the game exists: a refused append (or an id that is taken)
    # must leave no key behind, nor overwrite another game's tokens.
    events = batch(steps, ORGANIZER, f"create-{game_id}")
    service.store.append(game_id, 0, events)
    issued = service.tokens.issue(game_id, len(recorded["seats"]))
    # A computer seat's token is never handed out: the service alone plays that seat.
    # Nor an open seat's: its token is made when someone takes it (take_seat).
    tokens = [
        None if seat.get("ai") or seat.get("open") else t
        for seat, t in zip(recorded["seats"], issued, strict=True)
    ]
    organizer = service.tokens.issue_organizer(game_id) if recorded.get("mode") == "tournament" else None
    if service.move_clock is not None:
        service.move_clock.watch(game_id, recorded)
    service.appended(game_id)
    return Created(game_id, len(events), tokens, organizer)


def recorded_setup(rules: Any, setup: Mapping[str, Any], dice: Dice) -> tuple[dict[str, Any], Deal]:
    """`setup` as GameCreated records it (the first seat drawn when not given, the seats in their
    recorded form), and the game's deal; IllegalMove for options or seats it refuses."""
    rules.check_options_for(setup.get("options") or {}, len(setup["seats"]))
    recorded = dict(setup)
    deal = new_deal(dice, recorded.pop("entropy", None))
    if recorded.get("first_seat") is None:
        lot = DrawStream(deal.seed, creator_entropy(deal.data), FIRST_SEAT_DRAW)
        recorded["first_seat"] = lot.below(max(1, len(recorded["seats"])))
    recorded["seats"] = _keyed(_opened(recorded["seats"]))
    if recorded.get("mode") == "tournament" and any(seat.get("open") for seat in recorded["seats"]):
        # A tournament seats its own entrants: no seat of its games waits for a passer-by.
        raise IllegalMove("open_seat_in_tournament", "a tournament game has no open seat", "seats")
    return recorded, deal


def new_deal(dice: Dice, entropy: str | None) -> Deal:
    """A fresh seed and its public commitment, with the creator's entropy when given."""
    seed = dice.fresh_seed()
    data: dict[str, Any] = {"scheme": SCHEME, "commitment": commitment(seed)}
    if entropy is not None:
        data["entropy"] = entropy
    return Deal(seed, data)


def _keyed(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`seats` with each public_key in its recorded form (record.seat_keys); IllegalMove (422,
    naming the seat) for one that is no P-256 or Ed25519 public JWK, or that is given to a
    computer seat (which signs nothing)."""
    keyed = []
    for n, seat in enumerate(seats):
        seat = dict(seat)
        if seat.get("public_key") is not None:
            if seat.get("ai"):
                raise IllegalMove(
                    "key_for_computer",
                    "a computer seat signs nothing: no public_key",
                    f"seats.{n}.public_key",
                )
            try:
                seat["public_key"] = public_key(seat["public_key"])
            except ValueError as error:
                raise IllegalMove(INVALID_KEY, str(error), f"seats.{n}.public_key") from None
        keyed.append(seat)
    return keyed


def _opened(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`seats` with each open seat in its recorded form (no name yet); IllegalMove (422, naming
    the seat) for a seat with neither a name nor open, or an open one given a name, a computer
    or a key: whoever takes it brings those."""
    opened = []
    for n, seat in enumerate(seats):
        seat = dict(seat)
        if seat.get("open"):
            # The recorded form (a rematch of a game whose seat nobody took) names it "".
            given = {k for k in seat if k != "name" or seat[k] != OPEN_NAME}
            extra = sorted(given & {"name", "ai", "level", "public_key"})
            if extra:
                raise IllegalMove(
                    "open_seat_with_player",
                    f"an open seat has no {extra[0]}: who takes it brings one",
                    f"seats.{n}.{extra[0]}",
                )
            seat = {"name": OPEN_NAME, "open": True}
        else:
            seat.pop("open", None)
            if "name" not in seat:
                raise IllegalMove("name_required", "a seat that is not open has a name", f"seats.{n}.name")
        opened.append(seat)
    return opened


def _check_computers(rules: GameModule[Any], seats: Sequence[Mapping[str, Any]]) -> None:
    """IllegalMove (422, naming the seat) for a computer that needs the game's AI hooks
    (an evaluation to search with) when the game declares none: only the random one plays it."""
    if rules.ai is not None:
        return
    for n, seat in enumerate(seats):
        kind = seat.get("ai")
        if kind is not None and kind != "random":
            raise IllegalMove(
                "computer_not_available",
                f"{rules.name} is played by the random computer only, not {kind}",
                f"seats.{n}.ai",
            )
