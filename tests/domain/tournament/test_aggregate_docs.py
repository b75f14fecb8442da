"""docs/tournaments.md names every command, event and refusal code of the tournament rules."""

from __future__ import annotations

import re
from pathlib import Path

from domain.tournament.decide import COMMANDS
from domain.tournament.evolve import HANDLERS

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
CODE = re.compile(r'IllegalMove\(\s*"([a-z_]+)"')


def refusal_codes() -> set[str]:
    sources = (ROOT / "domain" / "tournament").glob("*.py")
    return {code for path in sources for code in CODE.findall(path.read_text(encoding="utf-8"))}


def test_every_refusal_code_is_documented() -> None:
    codes = refusal_codes()
    assert {"round_unfinished", "reason_required", "registration_closed"} <= codes
    assert sorted(code for code in codes if f"`{code}`" not in DOC) == []


def test_every_command_and_event_is_documented() -> None:
    names = set(COMMANDS) | set(HANDLERS) | {"TournamentCreated"}
    assert sorted(name for name in names if f"| `{name}` |" not in DOC) == []
