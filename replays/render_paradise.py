"""The Conquest of Paradise map as SVG: a pure function of one seat's view.

Flat-topped hexes in offset columns (odd columns half a hex lower), as the board file says.
An unexplored hex is fog (grey, hatched) until a chit or a tile shows what it holds; open
ocean is blue; an island group is green with its name, villages and owner when the viewer
may see them, and a face-down tile it has not examined is a plain tile marked "?". A stack
shows what the table shows: its top (a face-up transport, or the back of a piece) and its
height; the viewer's own stacks also list their pieces in the hex's <title>. Every hex is a
group with a stable hook (data-hex="col,row"); `interactive=True` makes it a focusable
button for the play page. The same input always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from domain.games import rules_for
from replays.notation.paradise import format as format_paradise
from replays.notation.paradise_parse import parse as parse_paradise
from replays.renderers import Drawing, Renderer, game_title

GAME = "conquest-of-paradise"
R = 34.0  # a hex's outer radius in pixels
COLUMNS, ROWS = 16, 10
MARGIN = 20
LEGEND_W = 300
FOG, OCEAN, LAND, TILE, SHORE = "#b9bec4", "#cfe6f2", "#9fd08a", "#e8d9a8", "#5d6d3e"
HIGHLIGHT = "#ffb000"
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
XMLNS = "http://www.w3.org/2000/svg"
STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#2b2b2b}"
    ".name{font-size:10px;font-weight:bold;text-anchor:middle}"
    ".count{font-size:11px;font-weight:bold;text-anchor:middle;fill:#ffffff}"
    ".legend{font-size:14px}.title{font-size:18px;font-weight:bold}"
    "[tabindex]{cursor:pointer}[tabindex]:focus{outline:none}"
    "[tabindex]:focus-visible .focus{stroke:#000000;stroke-width:3;opacity:1}.focus{opacity:0}"
)


def centre(col: int, row: int) -> tuple[float, float]:
    """The pixel centre of hex (col, row)."""
    x = MARGIN + R + col * 1.5 * R
    y = MARGIN + R + row * math.sqrt(3) * R + (math.sqrt(3) / 2 * R if col % 2 else 0.0)
    return x, y


def _corners(x: float, y: float, r: float = R) -> str:
    points = ((x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6))
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)


def _key(at: Sequence[int]) -> tuple[int, int]:
    return int(at[0]), int(at[1])


def _seat_name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats", [])
    return str(seats[seat]["name"]) if 0 <= seat < len(seats) else "independents"


def status_line(view: Mapping[str, Any]) -> str:
    """ "Turn 2 · move · Ann to act", or how the game ended."""
    result = view.get("result")
    if result:
        winners = result.get("winners") or ([result["winner"]] if result.get("winner") is not None else [])
        who = " and ".join(_seat_name(view, int(w)) for w in winners) or "nobody"
        return f"Game over: {who} won"
    acting = ", ".join(_seat_name(view, int(s)) for s in view.get("acting", []))
    text = f"Turn {view.get('turn', 0)} · {view.get('phase', '')}"
    return text + (f" · {acting} to act" if acting else "")


def render_paradise(
    view: Mapping[str, Any],
    *,
    title: str = "Conquest of Paradise",
    caption: str = "",
    highlight: Iterable[str] = (),
    standalone: bool = True,
    interactive: bool = False,
    legend: bool = True,
) -> str:
    """The map and, with `legend`, the players beside it; `highlight` names hexes "col,row"."""
    lit = set(highlight)
    width = MARGIN * 2 + R * (1.5 * (COLUMNS - 1) + 2) + (LEGEND_W if legend else 0)
    height = MARGIN * 2 + math.sqrt(3) * R * (ROWS + 0.5)
    ns = f' xmlns="{XMLNS}"' if standalone else ""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else ""
    out = [
        f'{head}<svg{ns} viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}"'
        f' data-map-width="{width - (LEGEND_W if legend else 0):.0f}"'
        # A role="img" hides its children from assistive technology; the hexes' buttons need a group.
        f' role="{"group" if interactive else "img"}"'
        f" aria-label={quoteattr(title + ': ' + status_line(view))}>",
        f"<style>{STYLE}</style>",
        '<defs><pattern id="fog" width="8" height="8" patternUnits="userSpaceOnUse">'
        '<path d="M0,8 L8,0" stroke="#8a9096" stroke-width="1"/></pattern></defs>',
    ]
    out += _hexes(view, lit, interactive)
    if legend:
        out += _legend(view, title, caption, width - LEGEND_W + 10)
    out.append("</svg>")
    return "\n".join(out)


def _hexes(view: Mapping[str, Any], lit: set[str], interactive: bool) -> list[str]:
    islands = {_key(i["hex"]): i for i in view.get("islands", [])}
    ocean = {_key(h) for h in view.get("ocean", [])}
    unknown = {_key(h) for h in view.get("unknown", [])}
    stacks: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for stack in view.get("stacks", []):
        stacks.setdefault(_key(stack["hex"]), []).append(stack)
    out = []
    for col in range(COLUMNS):
        for row in range(ROWS):
            at = (col, row)
            x, y = centre(col, row)
            island = islands.get(at)
            words, fill, inner = _ground(view, at, island, at in ocean, at in unknown, x, y)
            here = stacks.get(at, [])
            words += [_stack_words(view, s) for s in here]
            hook = f"{col},{row}"
            attrs = f' data-hex="{hook}"' + (' class="lit"' if hook in lit else "")
            if interactive:
                attrs += f' role="button" tabindex="0" aria-label={quoteattr(hook + ": " + "; ".join(words))}'
            stroke = HIGHLIGHT if hook in lit else "#ffffff"
            width = 4 if hook in lit else 1
            out.append(
                f"<g{attrs}><title>{escape(hook + ': ' + '; '.join(words))}</title>"
                f'<polygon points="{_corners(x, y)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
                + "".join(inner)
                + "".join(_stack_marks(here, x, y))
                + f'<polygon class="focus" points="{_corners(x, y, R - 3)}" fill="none"/></g>'
            )
    return out


def _ground(
    view: Mapping[str, Any],
    at: tuple[int, int],
    island: Mapping[str, Any] | None,
    ocean: bool,
    unknown: bool,
    x: float,
    y: float,
) -> tuple[list[str], str, list[str]]:
    """What the hex shows under any stack: words for its title, its fill and its drawings."""
    if island is not None and "name" in island:
        owner = island.get("owner")
        facts = f"{island['name']}, {island.get('villages', 0)} villages"
        if owner is not None:
            facts += f", held by {_seat_name(view, int(owner))}"
        explained = rules_for(str(view.get("game"))).words.explain("tile", str(island["name"]))
        if explained:
            facts += f" ({explained[0].lower() + explained[1:].rstrip('.')})"
        ring = SEAT_COLOURS[int(owner) % 4] if owner is not None and owner >= 0 else SHORE
        inner = [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.62:.1f}" fill="{LAND}"'
            f' stroke="{ring}" stroke-width="3"/>',
            f'<text class="name" x="{x:.1f}" y="{y - R * 0.35:.1f}">'
            f"{escape(str(island['name'])[:12])}</text>",
            f'<text class="name" x="{x:.1f}" y="{y + 4:.1f}">{"⌂" * int(island.get("villages", 0))}</text>',
        ]
        return [facts], OCEAN, inner
    if island is not None:
        inner = [
            f'<rect x="{x - 14:.1f}" y="{y - 14:.1f}" width="28" height="28"'
            f' fill="{TILE}" stroke="{SHORE}"/>',
            f'<text class="name" x="{x:.1f}" y="{y + 4:.1f}">?</text>',
        ]
        return ["a face-down island tile"], OCEAN, inner
    if unknown:
        return (
            ["unexplored"],
            "url(#fog)",
            [f'<polygon points="{_corners(x, y, R - 1)}" fill="{FOG}" opacity="0.55"/>'],
        )
    return (["open ocean"] if ocean else ["ocean"]), OCEAN, []


def _stack_words(view: Mapping[str, Any], stack: Mapping[str, Any]) -> str:
    who = _seat_name(view, int(stack["seat"]))
    top = "a face-up transport on top" if stack.get("face_up_transport") else "face down"
    said = f"{who}'s stack of {stack['count']}, {top}"
    pieces = stack.get("pieces")
    if pieces:
        said += " (" + ", ".join(f"{n} {kind}" for kind, n in sorted(pieces.items()) if n) + ")"
    return said


def _stack_marks(stacks: Sequence[Mapping[str, Any]], x: float, y: float) -> list[str]:
    """Each stack as a disc in its seat's colour below the hex's centre: its height, and a
    canoe's hull over it when a transport lies face up on top."""
    out = []
    for n, stack in enumerate(stacks):
        sx = x + (n - (len(stacks) - 1) / 2) * 20
        sy = y + R * 0.5
        colour = SEAT_COLOURS[int(stack["seat"]) % 4]
        out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="9" fill="{colour}" stroke="#ffffff"/>')
        out.append(f'<text class="count" x="{sx:.1f}" y="{sy + 4:.1f}">{int(stack["count"])}</text>')
        if stack.get("face_up_transport"):
            out.append(
                f'<path d="M{sx - 9:.1f},{sy - 12:.1f} L{sx + 9:.1f},{sy - 12:.1f} '
                f'L{sx + 5:.1f},{sy - 8:.1f} L{sx - 5:.1f},{sy - 8:.1f} Z" fill="#6b4b2a"/>'
            )
    return out


def _legend(view: Mapping[str, Any], title: str, caption: str, x0: float) -> list[str]:
    y = 36.0
    out = [f'<text class="title" x="{x0:.0f}" y="{y:.0f}">{escape(title)}</text>']
    for text in (caption, status_line(view)):
        if text:
            y += 22
            out.append(f'<text class="legend" x="{x0:.0f}" y="{y:.0f}">{escape(text)}</text>')
    y += 14
    for player in view.get("players", []):
        y += 24
        seat = int(player["seat"])
        out.append(
            f'<rect x="{x0:.0f}" y="{y - 12:.0f}" width="14" height="14" fill="{SEAT_COLOURS[seat % 4]}"/>'
        )
        facts = f"{player['name']}: {player['vp']:g} VP, {player['cards_held']} cards"
        out.append(f'<text class="legend" x="{x0 + 20:.0f}" y="{y:.0f}">{escape(facts)}</text>')
    y += 30
    left = f"target {view.get('target')} VP · {view.get('tiles_left', 0)} tiles left"
    out.append(f'<text class="legend" x="{x0:.0f}" y="{y:.0f}">{escape(left)}</text>')
    return out


def _svg(view: Mapping[str, Any], drawing: Drawing) -> str:
    # Its highlights name hexes ("col,row"), as its annotations do.
    return render_paradise(
        view,
        title=game_title(view),
        caption=drawing.caption,
        highlight=list(drawing.highlight_places),
        standalone=drawing.standalone,
        interactive=drawing.interactive,
        legend=drawing.legend,
    )


RENDERER = Renderer(
    kind="paradise",
    svg=_svg,
    text=lambda view, board: [],  # the heading and the status line say what the text can
    status=status_line,
    notation=format_paradise,
    parse=parse_paradise,
    style=STYLE,
)
"""Conquest of Paradise's map of hexes."""
