"""Nanuuk! events in words: one clause per event, one sentence per command.

    "Ana moves her hunter 0,-2 → 1,-2; Ana cracks the ice between 1,-1 and 2,-2"

Cells are written "q,r" (their axial coordinates); nothing is hidden, so every viewer reads
the same sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain import history_words
from domain.board_keys import cell_key, crack_key
from domain.game_module import GameWords
from domain.nanuuk import rules_page

QUIET = frozenset({"MoveEnded", "StepsEnded", "TurnEnded", "MoveSkipped"})
"""Events whose clause is left out when the command says anything else."""

Clause = Callable[[Callable[[Any], str], Mapping[str, Any]], str]


def cell(value: Any) -> str:
    """A cell as written in sentences: "q,r"."""
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]},{value[1]}"
    return "?"


def _crack(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"between {cell(value[0])} and {cell(value[1])}"
    return "?"


def _moved(who: Callable[[Any], str], d: Mapping[str, Any]) -> str:
    how = " by kayak" if d.get("kayak") else ""
    how += " with husky and sled" if d.get("sled") else ""
    return (
        f"{who(d.get('seat'))} moves piece {d.get('piece')} {cell(d.get('from'))} → {cell(d.get('to'))}{how}"
    )


def _ended(who: Callable[[Any], str], d: Mapping[str, Any]) -> str:
    winners = d.get("winners") or []
    totals = ", ".join(f"{who(s)} {t}" for s, t in enumerate(d.get("totals") or []))
    if not winners:
        headline = "nobody wins"
    elif len(winners) == 1:
        headline = f"{who(winners[0])} wins"
    else:
        headline = " and ".join(who(s) for s in winners) + " win"
    return f"game over ({str(d.get('reason', '')).replace('_', ' ')}): {headline}; {totals}"


CLAUSES: dict[str, Clause] = {
    "GameCreated": history_words.game_created("Nanuuk!"),
    "IceLaidOut": lambda who, d: (
        f"the ice is laid out: {len(d.get('tokens') or [])} tokens, {len(d.get('bears') or [])} bears"
        + (f", {len(d.get('cracks') or [])} cracks" if d.get("cracks") else "")
    ),
    "PiecePlaced": lambda who, d: (
        f"{who(d.get('seat'))} places piece {d.get('piece')} on {cell(d.get('cell'))}"
    ),
    "EquipmentUsed": lambda who, d: f"{who(d.get('seat'))} uses {' and '.join(d.get('items') or [])}",
    "PieceMoved": _moved,
    "PieceStayed": lambda who, d: f"{who(d.get('seat'))}'s bear stays on {cell(d.get('cell'))}",
    "StepsEnded": lambda who, d: f"{who(d.get('seat'))} takes no second step",
    "CrackPlaced": lambda who, d: f"{who(d.get('seat'))} cracks the ice {_crack(d.get('crack'))}",
    "InukJoined": lambda who, d: f"an Inuk joins {who(d.get('seat'))}'s hunter",
    "AnimalTaken": lambda who, d: f"{who(d.get('seat'))} takes the {d.get('animal')}",
    "AnimalLeft": lambda who, d: f"{who(d.get('seat'))} leaves the {d.get('animal')}",
    "BearSent": lambda who, d: (
        f"{who(d.get('seat'))} chases the bear to {cell(d.get('to'))}, losing the harpoon"
    ),
    "HarpoonReturned": lambda who, d: f"{who(d.get('seat'))} gets a new harpoon",
    "AnimalExchanged": lambda who, d: (
        f"{who(d.get('seat'))} trades the {d.get('animal')} for {' and '.join(d.get('equipment') or [])}"
    ),
    "AnimalBroughtIn": lambda who, d: f"{who(d.get('seat'))} brings the {d.get('animal')} into the igloo",
    "IglooVisitEnded": lambda who, d: f"{who(d.get('seat'))} leaves the igloo's stores",
    "HunterRetired": lambda who, d: f"{who(d.get('seat'))}'s hunter retires to the igloo",
    "MoveEnded": lambda who, d: f"{who(d.get('seat'))}'s move ends",
    "MoveSkipped": lambda who, d: f"{who(d.get('seat'))} has no bear to move",
    "TurnEnded": lambda who, d: f"{who(d.get('next'))} to play",
    "TurnSkipped": lambda who, d: (
        f"{who(d.get('seat'))} cannot play ({str(d.get('reason', '')).replace('_', ' ')})"
    ),
    "PieceOut": lambda who, d: f"{who(d.get('seat'))}'s piece {d.get('piece')} leaves the ice",
    "GameEnded": _ended,
}


def describe(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """One sentence for the events of one command."""

    who = history_words.speaker(names)

    clauses = []
    for event in events:
        kind, data = str(event.get("type", "")), event.get("data") or {}
        clause = CLAUSES.get(kind) or history_words.CLAUSES.get(kind)
        text = clause(who, data) if clause else history_words.spoken(kind)
        clauses.append((text, kind in QUIET))
    spoken = [text for text, quiet in clauses if not quiet] or [text for text, _ in clauses]
    sentence = "; ".join(spoken)
    return sentence[:1].upper() + sentence[1:]


# --- commands as the play page's buttons say them -------------------------------------------
# Cells are "q,r" and lines "q,r|q,r", as the board's data-cell and data-line name them.

TITLES = {
    "nanuuk": "Nanuuk!",
    "nanuuk-learning": "Nanuuk! learning game",
    "nanuuk-bear-hunt": "Nanuuk! Two Inuit hunt a bear",
    "nanuuk-bear-flight": "Nanuuk! Two Inuit flee bears",
    "nanuuk-partners": "Nanuuk! Partner game",
    "nanuuk-helper": "Nanuuk! Helper game",
}
END_REASONS = {
    "no_move_for_a_round": "on points, after a round in which no hunter moved",
    "last_left": "as the last player able to move",
    "shut_in": "as a piece was shut in",
    "bear_shut_in": "as the bear was shut in",
    "inuk_shut_in": "as an Inuk was shut in",
    "partner_shut_in": "as a partner was shut in",
}


def _step(c: Mapping[str, Any]) -> str:
    how = []
    if c.get("kayak"):
        how.append("crossing the crack by kayak")
    if c.get("sled"):
        how.append("with husky and sled" + (", one crack at the end" if c.get("one_crack") else ""))
    return f"Move piece {c.get('piece')} to {cell_key(c)}" + (f" ({'; '.join(how)})" if how else "")


COMMAND_WORDS: Mapping[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {
    "Move": lambda c, n: _step(c),
    "PlacePiece": lambda c, n: f"Place piece {c.get('piece')} on {cell_key(c)}",
    "EndMove": lambda c, n: "Stop here (no second step)",
    "Stay": lambda c, n: f"The bear {c.get('piece')} stays",
    "PlaceCrack": lambda c, n: f"Crack the line {crack_key(c)}",
    "SendBear": lambda c, n: f"Send the bear to {cell_key(c)}",
    "TakeAnimal": lambda c, n: "Take the animal",
    "LeaveAnimal": lambda c, n: "Leave the animal",
    "Exchange": lambda c, n: f"Exchange the {c.get('animal')} for equipment",
    "BringIn": lambda c, n: f"Bring the {c.get('animal')} into the igloo",
    "EndIglooVisit": lambda c, n: "Leave the igloo's dealings",
    "Retire": lambda c, n: f"Retire hunter {c.get('piece')} in the igloo",
}


def words(game: str) -> GameWords:
    """What the pages say of `game` besides its events."""
    return GameWords(
        title=TITLES[game], commands=COMMAND_WORDS, end_reasons=END_REASONS, rules=rules_page.PAGES[game]
    )
