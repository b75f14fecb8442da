"""The audit page: one page that checks a game file or a bundle, and a player's receipts, in the
browser (its script is replays/audit/audit.js; docs/replays.md, "The audit page").

One source, two spellings. Served by the service, the page links its script and style sheet as
files of the service, as its Content-Security-Policy wants (no inline script). Written to disk by
`replays render`, it carries both inline, so the one file works opened from anywhere (file://
has no policy, and a file beside it could be lost or not be read by a browser that isolates
local files).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from domain.games import GAMES

ASSETS = ("audit.js", "audit.css")
MEDIA_TYPES = {"audit.js": "text/javascript; charset=utf-8", "audit.css": "text/css; charset=utf-8"}
OFFLINE_NAME = "audit.html"
"""The name `replays render` gives the page beside a rendered bundle."""
_STYLE = "<!-- style -->"
_SCRIPT = "<!-- script -->"
_ENDS = "<!-- game-ends -->"


def _with_game_ends(page: str) -> str:
    """The page with each registered game's end event as data (not a script the policy runs):
    the script reads a game's end by the event its module declares."""
    ends = json.dumps({name: module.end_event for name, module in sorted(GAMES.items())})
    ends = ends.replace("</", "<\\/")  # a name cannot end the element
    block = f'<script type="application/json" id="audit-game-ends">{ends}</script>'
    return page.replace(_ENDS, block)


def asset(name: str) -> str:
    """The text of one of ASSETS (or of the page's source, audit.html)."""
    return resources.files("replays").joinpath("audit", name).read_text(encoding="utf-8")


def served_page(script_url: str, style_url: str) -> str:
    """The page as the service sends it: script and style sheet by address."""
    page = _with_game_ends(asset("audit.html"))
    page = page.replace(_STYLE, f'<link rel="stylesheet" href="{style_url}">')
    return page.replace(_SCRIPT, f'<script src="{script_url}"></script>')


def offline_page() -> str:
    """The page as one file with its script and style inline: it needs nothing beside it."""
    script, style = asset("audit.js"), asset("audit.css")
    if "</script" in script.lower() or "</style" in style.lower():
        raise ValueError("the audit page's script or style would end its own element")
    page = _with_game_ends(asset("audit.html")).replace(_STYLE, f"<style>\n{style}</style>")
    return page.replace(_SCRIPT, f"<script>\n{script}</script>")


def offline_path(beside: Path) -> Path:
    """Where `replays render` writes the page beside the page `beside` (never over it)."""
    return beside.with_name("audit-page.html" if beside.name == OFFLINE_NAME else OFFLINE_NAME)
