"""Hidden Nim in words: its events, its commands' buttons, its title and its end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain import history_words
from domain.game_module import GameWords
from tests.families.hidden_nim.rules import PILE_DEALT, TAKE, TAKEN, WON
from tests.families.hidden_nim.rules_page import PAGE


def _clause(event: Mapping[str, Any], names: Sequence[str]) -> str:
    kind, data = event.get("type"), event.get("data") or {}
    secret = event.get("secret") or {}
    if kind == "GameCreated":
        return history_words.game_created("Hidden Nim")(history_words.speaker(names), data)
    if kind in history_words.CLAUSES:
        return history_words.CLAUSES[str(kind)](history_words.speaker(names), data)
    if kind == PILE_DEALT:
        stones = secret.get("stones")
        return "the pile is dealt" + (f": {stones} stones" if stones is not None else ", its size hidden")
    if kind == TAKEN:
        count = data.get("count")
        return f"{history_words.seat_named(names, data.get('seat'))} takes {count} stone{'s' * (count != 1)}"
    if kind == WON:
        who = history_words.seat_named(names, data.get("winner"))
        return f"{who} takes the last of {data.get('stones')} stones and wins"
    return history_words.spoken(str(kind))


def describe(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """A command's events as one sentence."""
    said = "; ".join(_clause(event, names) for event in events)
    return said[:1].upper() + said[1:] + "."


WORDS = GameWords(
    title="Hidden Nim",
    commands={TAKE: lambda c, n: f"Take {c.get('count')} stone{'s' * (c.get('count') != 1)}"},
    end_reasons={"last_stone": "by taking the last stone"},
    rules=PAGE,
)
