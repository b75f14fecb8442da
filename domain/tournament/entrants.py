"""Who plays: registering, withdrawing, starting and the lots; who may send which command."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import domain.tournament.events as ev
from domain.actor import Actor
from domain.decider import Event, IllegalMove
from domain.games import rules_for
from domain.text import is_blank, trimmed
from domain.tournament.schedule import round_robin_rounds
from domain.tournament.settings import RATINGS, ROUND_ROBIN, SWISS
from domain.tournament.state import AI, PERSON, REGISTRATION, RUNNING, Entrant, State

AI_LEVELS = (1, 2, 3, 4, 5)  # the computer players' levels (ai.policies.LEVELS)
MAX_ENTRANTS = 256
MAX_NAME = 60
STAFF = ("organizer", "system", "worker")  # the organizer and the service acting for it
PLAYER_ID = re.compile(r"^p[0-9a-f]{16}$")
"""A player's id: the service draws it (POST /players) and checks the player's token before
it passes the id in RegisterEntrant; a client never names a player itself."""


def entrant_id(number: int) -> str:
    """Entrant ids are "e1", "e2", ... in registration order; an entrant acts as Actor seat n."""
    return f"e{number}"


def entrant_of(actor: Actor) -> str | None:
    return entrant_id(actor.seat) if actor.seat is not None else None


def require(actor: Actor, kinds: tuple[str, ...], code: str) -> None:
    if actor.kind not in kinds:
        raise IllegalMove(code, f"{actor} may not send this; only {', '.join(kinds)}")


def register(state: State, actor: Actor, args: Mapping[str, Any]) -> list[Event]:
    """EntrantRegistered: a person by name, or an AI seat by level; late only where allowed."""
    if state.phase == RUNNING and not state.settings.late_entry:
        raise IllegalMove("registration_closed", "the tournament has started and takes no late entries")
    if len(state.entrants) >= MAX_ENTRANTS:
        raise IllegalMove("too_many_entrants", f"a tournament takes at most {MAX_ENTRANTS} entrants")
    kind = args.get("kind", PERSON)
    new_id = entrant_id(len(state.entrants) + 1)
    if kind == PERSON:
        name, level = _name(args.get("name")), None
    elif kind == AI:
        if rules_for(state.settings.game).ai is None:
            raise IllegalMove(
                "no_computer_player",
                f"{state.settings.game} gives the computer players no hooks to search with: "
                "its tournaments take persons only",
                "kind",
            )
        level = args.get("level")
        if level not in AI_LEVELS or isinstance(level, bool):
            raise IllegalMove("bad_level", f"an AI entrant's level is one of {list(AI_LEVELS)}", "level")
        name = _name(args["name"]) if args.get("name") is not None else f"AI level {level} ({new_id})"
    else:
        raise IllegalMove("bad_entrant_kind", f"kind must be {PERSON!r} or {AI!r}", "kind")
    taken = {e.name.casefold() for e in state.active()}
    if name.casefold() in taken:
        raise IllegalMove("name_taken", f"an entrant named {name!r} is registered already", "name")
    player = _player(state, kind, args.get("player"))
    key = _public_key(state, kind, args.get("public_key"))
    entrant = Entrant(new_id, name, kind, level, state.round, player=player, public_key=key)
    return [ev.entrant_registered(entrant, _entropy(args.get("entropy")))]


ENTROPY = re.compile(r"(?:[0-9a-f]{2}){16,64}")
"""An entrant's own randomness for the lots: 16 to 64 bytes as lowercase hex, as a seat's."""


def _entropy(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or ENTROPY.fullmatch(value) is None:
        raise IllegalMove("invalid_entropy", "entropy is 16 to 64 bytes as lowercase hex", "entropy")
    return value


def _public_key(state: State, kind: str, value: Any) -> tuple[tuple[str, str], ...] | None:
    """A person's public key as its members; compulsory for persons when moves are signed. Its
    curve and point are the service's to check (record.seat_keys) before the command comes here."""
    if value is None:
        if kind == PERSON and state.settings.signed_moves:
            raise IllegalMove(
                "key_required", "this tournament's moves are signed: register with a public_key", "public_key"
            )
        return None
    if kind != PERSON:
        raise IllegalMove("key_for_computer", "a computer entrant signs nothing: no public_key", "public_key")
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise IllegalMove("invalid_key", "a public key is a JWK: an object of strings", "public_key")
    return tuple(sorted(value.items()))


def _player(state: State, kind: str, value: Any) -> str | None:
    """The player a person registers as, None for a one-off; one entrant per player in play,
    so that no player ever meets itself at a table."""
    if value is None:
        return None
    if kind != PERSON:
        raise IllegalMove(
            "computer_holds_no_player", "a computer entrant is rated on its own, not as a player"
        )
    if not isinstance(value, str) or not PLAYER_ID.match(value):
        raise IllegalMove("bad_player", "player must be a player id as POST /players gives", "player")
    if any(e.player == value for e in state.active()):
        raise IllegalMove("player_registered", "this player has an entrant in this tournament already")
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or is_blank(value) or len(trimmed(value)) > MAX_NAME:
        raise IllegalMove("bad_name", f"name must be a text of 1 to {MAX_NAME} characters", "name")
    return trimmed(value)


def withdrawn(state: State, actor: Actor, args: Mapping[str, Any]) -> tuple[Entrant, Event]:
    """EntrantWithdrawn, by the organizer or the entrant itself; the caller forfeits its game."""
    entrant = known(state, args.get("entrant"))
    own = entrant_of(actor)
    if own is not None and own != entrant.id:
        raise IllegalMove("not_your_entrant", "an entrant withdraws only itself")
    if entrant.withdrawn is not None:
        raise IllegalMove("already_withdrawn", f"{entrant.id} has withdrawn already", "entrant")
    return entrant, ev.entrant_withdrawn(entrant.id, state.round, str(actor))


def known(state: State, value: Any) -> Entrant:
    entrant = state.entrant(value) if isinstance(value, str) else None
    if entrant is None:
        raise IllegalMove("unknown_entrant", f"no entrant {value!r} in this tournament", "entrant")
    return entrant


def start(state: State) -> list[Event]:
    """TournamentStarted with the entrants in play and the rounds planned; the lots are due next."""
    if state.phase != REGISTRATION:
        raise IllegalMove("already_started", "the tournament has started already")
    players = [e.id for e in state.active()]
    settings = state.settings
    least = min(settings.table_sizes)
    if len(players) < least:
        raise IllegalMove("too_few_entrants", f"a {settings.format} needs at least {least} entrants")
    most = round_robin_rounds(len(players), settings.double)
    if settings.format == ROUND_ROBIN:
        rounds = most
    else:
        rounds = settings.rounds or 0
        # Late entrants may yet come and make more rounds possible.
        if settings.format == SWISS and rounds > most and not settings.late_entry:
            raise IllegalMove(
                "too_many_rounds", f"{len(players)} entrants play at most {most} Swiss rounds without rematch"
            )
    return [ev.tournament_started(players, rounds)]


def draw_lots(state: State, args: Mapping[str, Any]) -> list[Event]:
    """LotsDrawn: `order` is the service's permutation of the entrants still without a lot."""
    due = state.lots_due()
    if not due:
        raise IllegalMove("lots_not_due", "every entrant in play holds a lot")
    order: Any = args.get("order")
    if not _permutation(order, len(due)):
        raise IllegalMove("bad_lots", f"order must be a permutation of 0..{len(due) - 1}", "order")
    return [ev.lots_drawn([due[i] for i in order], _ratings(state, args.get("ratings"), due))]


def _ratings(state: State, ratings: Any, due: list[str]) -> dict[str, float | None] | None:
    """Each due entrant's rating when the Swiss pairs by rating (None: unrated); else None."""
    if state.settings.pairing_numbers != RATINGS:
        if ratings is not None:
            raise IllegalMove("ratings_not_asked", "this tournament numbers its entrants by lot", "ratings")
        return None
    if not isinstance(ratings, Mapping) or set(ratings) != set(due):
        raise IllegalMove("bad_ratings", f"ratings gives a rating (or null) for each of {due}", "ratings")
    for value in ratings.values():
        if value is not None and (not isinstance(value, int | float) or isinstance(value, bool)):
            raise IllegalMove("bad_ratings", "a rating is a number or null", "ratings")
    return {e: None if ratings[e] is None else float(ratings[e]) for e in due}


def _permutation(order: Any, size: int) -> bool:
    if not isinstance(order, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in order):
        return False
    return sorted(order) == list(range(size))
