"""P-5 victory: VP recounted each turn, claims with the cards that score shown, Severe
Deforestation against a claim, the winner and its tie-breaks (targets by player count)."""

from __future__ import annotations

from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise.cards_held import may_hold
from domain.paradise.empire import controlled, vp_halves
from domain.paradise.state import ENDED, Choice, State, put, replace
from domain.paradise.tables import CARDS, TARGETS, card_with

GAME_ENDED = "GameEnded"
"""The event with which the rules end a game (the module declares it: domain/ending.py)."""

DEFORESTATION = card_with("deforestation")


def target(state: State) -> int:
    """The VP that end the game (Q-D3), moved by the variable end (Q-A6)."""
    return TARGETS[state.seats] + state.options.end_shift


def claimants(state: State) -> list[int]:
    """Seats that reach the target counting their face-down cards too."""
    goal = 2 * target(state)
    return [seat for seat in range(state.seats) if vp_halves(state, seat, hidden_too=True) >= goal]


def automatic(state: State) -> Event | None:
    """The victory phase's next step: show the claimants' cards, offer Deforestation, end or go on."""
    claims = claimants(state) if not state.claims else list(state.claims)
    if claims and not state.claims:
        shown = {
            seat: [c for c in state.hands[seat] if CARDS[c].vp > 0 or CARDS[c].bonus_vp] for seat in claims
        }
        return Event("VictoryClaimed", {"seats": claims, "shown": {str(s): cs for s, cs in shown.items()}})
    if claims:
        for seat in range(state.seats):
            # Every seat that may hold the card is asked, holder or not.
            if (
                may_hold(state, seat, DEFORESTATION)
                and seat not in state.passed
                and any(c != seat for c in claims)
            ):
                return Event(
                    "DeforestationOffered", {"seat": seat, "targets": [c for c in claims if c != seat]}
                )
    return _decision(state)


def _decision(state: State) -> Event:
    goal = 2 * target(state)
    reached = [seat for seat in range(state.seats) if vp_halves(state, seat) >= goal]
    last = state.options.last_turn is not None and state.turn >= state.options.last_turn
    if not reached and not last:
        return Event("TurnStarted", {"turn": state.turn + 1})
    reason = "target" if reached else "last_turn"
    return Event(GAME_ENDED, ending(state, reached or list(range(state.seats)), reason))


def ending(state: State, contenders: list[int], reason: str) -> dict[str, Any]:
    """The winner among `contenders`: most VP, then most groups controlled, then most cards.

    `totals` are whole VP (a half point of an atoll rounds down) as the platform's results
    take them; `vp` keeps the halves.
    """

    def rank(seat: int) -> tuple[int, int, int]:
        cards = len(state.hands[seat]) + len(state.revealed[seat])
        return (vp_halves(state, seat, hidden_too=True), len(controlled(state, seat)), cards)

    best = max(rank(seat) for seat in contenders)
    winners = [seat for seat in contenders if rank(seat) == best]
    halves = [vp_halves(state, seat, hidden_too=True) for seat in range(state.seats)]
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "reason": reason,
        "totals": [h // 2 for h in halves],
        "vp": [h / 2 for h in halves],
        "cards": [list(state.hands[seat]) for seat in range(state.seats)],
    }


def victory_claimed(state: State, data: dict[str, Any], secret: Any) -> State:
    hands, revealed = list(state.hands), list(state.revealed)
    for seat_text, cards in data["shown"].items():
        seat = int(seat_text)
        mine = list(hands[seat])
        for card in cards:
            mine.remove(card)
        hands[seat], revealed[seat] = tuple(mine), revealed[seat] + tuple(cards)
    return replace(state, hands=tuple(hands), revealed=tuple(revealed), claims=tuple(data["seats"]))


def deforestation_offered(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, choice=Choice("deforest", data["seat"], tuple(data["targets"]) + (None,)))


def decide_deforest(state: State, command: Command) -> list[Event]:
    assert state.choice is not None
    victim = command.args.get("target")
    if victim not in state.choice.options:
        raise IllegalMove("bad_target", "play it on a claimant, or give no target to keep it", field="target")
    held = state.hands[command.seat] + state.revealed[command.seat] if command.seat is not None else ()
    if victim is not None and DEFORESTATION not in held:
        raise IllegalMove("no_such_card", f"you hold no {DEFORESTATION} to play", field="target")
    return [Event("DeforestationAnswered", {"seat": command.seat, "target": victim})]


def deforestation_answered(state: State, data: dict[str, Any], secret: Any) -> State:
    seat, victim = data["seat"], data["target"]
    state = replace(state, choice=None)
    if victim is None:
        return replace(state, passed=state.passed | {seat})
    hands, revealed = list(state.hands[seat]), list(state.revealed[seat])
    (hands if DEFORESTATION in hands else revealed).remove(DEFORESTATION)
    return replace(
        state,
        passed=state.passed | {seat},
        hands=put(state.hands, seat, tuple(hands)),
        revealed=put(state.revealed, seat, tuple(revealed)),
        spent_cards=put(state.spent_cards, seat, state.spent_cards[seat] + (DEFORESTATION,)),
        penalties=put(state.penalties, victim, state.penalties[victim] + CARDS[DEFORESTATION].penalty),
    )


def game_ended(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, phase=ENDED, result=dict(data), choice=None, due=None)


EVOLVERS = {
    "VictoryClaimed": victory_claimed,
    "DeforestationOffered": deforestation_offered,
    "DeforestationAnswered": deforestation_answered,
    GAME_ENDED: game_ended,
}
