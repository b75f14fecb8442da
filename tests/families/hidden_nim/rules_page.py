"""Hidden Nim in words for players: its rules page (/rules/hidden-nim), declared in GameWords.rules."""

from __future__ import annotations

from domain.rules_page import RulesPage, Section
from tests.families.hidden_nim.rules import LEAST, MOST_TAKEN, SIZES

PAGE = RulesPage(
    title="Hidden Nim",
    summary="Two players take stones from a pile whose size neither of them knows; whoever takes the "
    "last stone wins.",
    sections=(
        Section(
            "Setting up",
            (
                f"The pile holds {LEAST} to {LEAST + SIZES - 1} stones, drawn at random when the game "
                "begins. No player is told how many: the board shows the pile as a question mark.",
            ),
        ),
        Section(
            "Taking stones",
            (
                f"On your turn take one to {MOST_TAKEN} stones from the pile. The board counts the stones "
                "each player has taken, so you can reckon what is left only from where it could have begun.",
                "Whoever takes the last stone wins, and the pile's size is shown to everyone.",
            ),
        ),
    ),
)
