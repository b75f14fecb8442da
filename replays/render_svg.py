"""The board as SVG: a pure function of one seat's view and the board's geometry.

Islands are circles sized by their places, bridge lines are dashed when free and drawn
in the owner's colour when bridged, controlled islands carry their owner's marker, ships
sit in the middle of their sea space and god stones on their island. A legend names the
seats with their colours and scores. The same input always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from domain.islands.board import Board, Island, load_board

SCALE = 10  # board units (x 0-100, y 0-80) to pixels
PAD = 80  # room around the outermost island centres for their circles
LEGEND_W = 340

SEA, SAND, SHORE, FREE, PANEL = "#cfe6f2", "#f2e2b3", "#a88f52", "#7b8d99", "#fbfaf5"
HIGHLIGHT = "#ffb000"
SEAT_COLOURS = ("#c0392b", "#1f4e9c", "#1e8449", "#8e44ad")
GOD_LABELS = {"Kanaloa": "Ka", "Kane": "Ke", "Ku": "Ku", "Lono": "Lo", "Pele": "Pe"}
GAME_TITLES = {"kahuna": "Kahuna", "arabana-ikibiti": "Arabana-Ikibiti", "arabana-opodopo": "Arabana-Opodopo"}

XMLNS = "http://www.w3.org/2000/svg"
STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#2b2b2b}"
    ".name{font-weight:bold;text-anchor:middle}"
    ".god-label{font-size:12px;font-weight:bold;text-anchor:middle}"
    ".legend{font-size:15px}.small{font-size:13px}.title{font-size:20px;font-weight:bold}"
)


def seat_colour(seat: int) -> str:
    """The colour of `seat`'s bridges, markers and ships."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def board_of(view: Mapping[str, Any]) -> Board:
    """The board the game of `view` is played on (the board files are named after the games)."""
    return load_board(str(view["game"]))


def render_svg(
    view: Mapping[str, Any],
    board: Board | None = None,
    *,
    caption: str = "",
    highlight_islands: Iterable[str] = (),
    highlight_lines: Iterable[Sequence[str]] = (),
    notes: Sequence[str] = (),
    standalone: bool = True,
) -> str:
    """The SVG text of `view` on `board` (the view's own board when None).

    `caption` heads the legend (e.g. "version 57"); `highlight_*` outline islands and lines
    (annotations); `notes` are printed under the legend. `standalone=False` leaves out the
    XML declaration and namespace, for an SVG inlined in an HTML page.
    """
    board = board or board_of(view)
    legend = _legend(view, caption, notes)
    frame = Frame.of(board, legend_height=legend.height)
    parts = [_open(frame, standalone), f"<style>{STYLE}</style>"]
    parts.append(
        f'<rect class="sea" x="0" y="0" width="{frame.board_w}" height="{frame.height}" fill="{SEA}"/>'
    )
    parts += _lines(view, board, frame, {_pair(line) for line in highlight_lines if len(line) == 2})
    parts += _islands(view, board, frame, set(highlight_islands))
    parts += _ships(view, board, frame)
    parts.append(
        f'<rect class="legend-panel" x="{frame.board_w}" y="0" width="{LEGEND_W}" '
        f'height="{frame.height}" fill="{PANEL}"/>'
    )
    parts += [f'<g transform="translate({frame.board_w},0)">', *legend.parts, "</g>", "</svg>"]
    return "\n".join(parts) + "\n"


# --- geometry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """Where the board sits in the picture: fitted to its islands, the legend to its right."""

    left: float  # the smallest island x and y, in board units
    top: float
    board_w: int
    height: int
    y0: float  # pixel y of `top`: the board is centred when the legend is the taller

    @classmethod
    def of(cls, board: Board, legend_height: int) -> Frame:
        xs = [i.x for i in board.islands]
        ys = [i.y for i in board.islands]
        board_w = math.ceil((max(xs) - min(xs)) * SCALE + 2 * PAD)
        board_h = math.ceil((max(ys) - min(ys)) * SCALE + 2 * PAD)
        height = max(board_h, legend_height)
        return cls(min(xs), min(ys), board_w, height, PAD + (height - board_h) / 2)

    @property
    def width(self) -> int:
        return self.board_w + LEGEND_W

    def xy(self, island: Island) -> tuple[float, float]:
        """The pixel centre of `island`."""
        return PAD + (island.x - self.left) * SCALE, self.y0 + (island.y - self.top) * SCALE


def radius(island: Island) -> float:
    """Circle radius in pixels: bigger islands (more places) are drawn bigger."""
    return 20.0 + 4.0 * island.places


def _num(value: float) -> str:
    """A coordinate with at most one decimal, never "-0": stable text for stable bytes."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pair(line: Sequence[str]) -> tuple[str, str]:
    a, b = str(line[0]), str(line[1])
    return (a, b) if a <= b else (b, a)


def _attr(value: object) -> str:
    return quoteattr(str(value))


# --- the board -----------------------------------------------------------------------------


def _open(frame: Frame, standalone: bool) -> str:
    size = f'width="{frame.width}" height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}"'
    if standalone:
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="{XMLNS}" {size} role="img">'
    return f'<svg class="board" {size} role="img">'


def _lines(view: Mapping[str, Any], board: Board, frame: Frame, lit: set[tuple[str, str]]) -> list[str]:
    """Every line of the board, free (dashed) or bridged (the owner's colour); lit ones underlaid."""
    owners = {_pair(b["line"]): b["seat"] for b in view.get("bridges", [])}
    under, over = [], []
    for a, b in board.lines:
        x1, y1, x2, y2 = _trimmed(frame, board.island(a), board.island(b))
        ends = f'x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"'
        key = _attr(f"{a}-{b}")
        if (a, b) in lit:
            under.append(
                f'<line class="highlight" data-line={key} {ends} stroke="{HIGHLIGHT}" '
                'stroke-width="22" stroke-linecap="round" opacity="0.8"/>'
            )
        seat = owners.get((a, b))
        if seat is None:
            over.append(
                f'<line class="line free" data-line={key} {ends} stroke="{FREE}" '
                'stroke-width="2.5" stroke-dasharray="7 6"/>'
            )
        else:
            title = escape(f"{a}-{b}: {seat_name(view, seat)}")
            over.append(
                f'<line class="line bridge" data-line={key} data-seat="{seat}" {ends} '
                f'stroke="{seat_colour(seat)}" stroke-width="9"><title>{title}</title></line>'
            )
    return under + over


def _trimmed(frame: Frame, a: Island, b: Island) -> tuple[float, float, float, float]:
    """The segment between the two circles' edges, so bridges do not cross the islands."""
    (x1, y1), (x2, y2) = frame.xy(a), frame.xy(b)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    ra, rb = radius(a) - 2, radius(b) - 2
    return x1 + ux * ra, y1 + uy * ra, x2 - ux * rb, y2 - uy * rb


def _islands(view: Mapping[str, Any], board: Board, frame: Frame, lit: set[str]) -> list[str]:
    control: Mapping[str, int] = view.get("control", {})
    gods: Mapping[str, str] = view.get("gods", {})
    out = []
    for island in board.islands:
        x, y = frame.xy(island)
        r = radius(island)
        cx, cy = _num(x), _num(y)
        out.append(f'<g class="island" data-island={_attr(island.name)} data-places="{island.places}">')
        if island.name in lit:
            out.append(
                f'<circle class="highlight" cx="{cx}" cy="{cy}" r="{_num(r + 9)}" fill="none" '
                f'stroke="{HIGHLIGHT}" stroke-width="8"/>'
            )
        out.append(
            f'<circle cx="{cx}" cy="{cy}" r="{_num(r)}" fill="{SAND}" stroke="{SHORE}" stroke-width="2"/>'
        )
        owner = control.get(island.name)
        if owner is not None:
            title = escape(f"{island.name}: {seat_name(view, owner)}")
            out.append(
                f'<circle class="marker" data-seat="{owner}" cx="{cx}" cy="{_num(y - r * 0.5)}" r="11" '
                f'fill="{seat_colour(owner)}" stroke="#ffffff" stroke-width="2.5">'
                f"<title>{title}</title></circle>"
            )
        size = min(15.0, (2 * r - 8) / (0.64 * len(island.name)))
        out.append(
            f'<text class="name" x="{cx}" y="{_num(y + 5)}" font-size="{_num(size)}">'
            f"{escape(island.name)}</text>"
        )
        god = gods.get(island.name)
        if god is not None:
            out += _god_stone(str(god), x, y + r * 0.55)
        out.append("</g>")
    return out


def _god_stone(god: str, x: float, y: float) -> list[str]:
    label = GOD_LABELS.get(god, god[:2])
    return [
        f'<g class="god" data-god={_attr(god)}><title>{escape(god)}</title>',
        f'<rect x="{_num(x - 14)}" y="{_num(y - 10)}" width="28" height="18" rx="6" '
        'fill="#5d6d7e" stroke="#ffffff" stroke-width="1.5"/>',
        f'<text class="god-label" x="{_num(x)}" y="{_num(y + 4)}" style="fill:#ffffff">'
        f"{escape(label)}</text>",
        "</g>",
    ]


def _ships(view: Mapping[str, Any], board: Board, frame: Frame) -> list[str]:
    """Each ship as a small boat at the mean of its sea space's three islands."""
    out = []
    for ship in view.get("ships", []):
        corners = [frame.xy(board.island(name)) for name in ship["sea"]]
        x = sum(c[0] for c in corners) / len(corners)
        y = sum(c[1] for c in corners) / len(corners)
        seat = int(ship["seat"])
        hull = _path((x - 20, y), (x + 20, y), (x + 13, y + 11), (x - 13, y + 11))
        sail = _path((x - 1, y - 3), (x - 1, y - 26), (x + 15, y - 5))
        label = escape(f"ship of {seat_name(view, seat)}: {'-'.join(ship['sea'])}")
        out.append(
            f'<g class="ship" data-seat="{seat}" data-sea={_attr("-".join(ship["sea"]))}>'
            f"<title>{label}</title>"
            f'<path d="{hull}" fill="{seat_colour(seat)}" stroke="#ffffff" stroke-width="2"/>'
            f'<path d="{sail}" fill="#ffffff" stroke="{seat_colour(seat)}" stroke-width="2"/></g>'
        )
    return out


def _path(*points: tuple[float, float]) -> str:
    return "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in points) + " Z"


# --- the legend ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Legend:
    parts: list[str]
    height: int


def seat_name(view: Mapping[str, Any], seat: int) -> str:
    """The name of `seat` in `view`, or "seat N" when the view does not list it."""
    seats = view.get("seats", [])
    return str(seats[seat]["name"]) if 0 <= seat < len(seats) else f"seat {seat}"


def game_title(view: Mapping[str, Any]) -> str:
    game = str(view.get("game", ""))
    return GAME_TITLES.get(game, game)


def status_line(view: Mapping[str, Any]) -> str:
    """ "Round 2 of 3 · play · Capucine to move", or how the game ended."""
    result = view.get("result")
    if result:
        winner = result.get("winner")
        who = "a draw" if winner is None else f"{seat_name(view, int(winner))} wins"
        return f"Game over: {who} ({result.get('reason', '')})"
    text = f"Round {view.get('round', 0)} of {view.get('rounds', '?')} · {view.get('phase', '')}"
    if view.get("phase") in ("play", "final"):
        text += f" · {seat_name(view, int(view.get('active', 0)))} to move"
    return text


def _legend(view: Mapping[str, Any], caption: str, notes: Sequence[str]) -> Legend:
    """The legend's parts, drawn from x=0 (the caller moves it beside the board)."""
    x0, y = 20, 40
    out = [f'<text class="title" x="{x0}" y="{y}">{escape(game_title(view))}</text>']
    y += 26
    for text in (caption, status_line(view)):
        if text:
            out.append(f'<text class="small status" x="{x0}" y="{y}">{escape(text)}</text>')
            y += 20
    y += 10
    playing = view.get("phase") in ("play", "final") and not view.get("result")
    for seat in view.get("seats", []):
        facts = seat_facts(seat)
        out += _seat_rows(seat, facts, x0, y, playing and view.get("active") == seat["seat"])
        y += 26 + 18 * len(facts)
    texts = table_facts(view)
    if view.get("gods") or any(s.get("god_stones") for s in view.get("seats", [])):
        texts.append(" ".join(f"{label}={god}" for god, label in GOD_LABELS.items()))
    for text in texts:
        for chunk in _wrap(text, 44):
            out.append(f'<text class="small" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 19
    y += 6
    for note in notes:
        for chunk in _wrap(note, 44):
            out.append(f'<text class="small note" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 18
    return Legend(out, y + 20)


def _seat_rows(seat: Mapping[str, Any], facts: list[str], x0: int, y: int, active: bool) -> list[str]:
    mark = " ◀" if active else ""
    out = [
        f'<g class="seat" data-seat="{seat["seat"]}">',
        f'<rect x="{x0}" y="{y - 14}" width="18" height="18" rx="3" '
        f'fill="{seat_colour(int(seat["seat"]))}"/>',
        f'<text class="legend" x="{x0 + 26}" y="{y}">{escape(str(seat["name"]))} · '
        f"{_count(seat.get('score', 0), 'point')}{mark}</text>",
    ]
    for n, fact in enumerate(facts, start=1):
        out.append(f'<text class="small" x="{x0 + 26}" y="{y + 18 * n}">{escape(fact)}</text>')
    out.append("</g>")
    return out


def seat_facts(seat: Mapping[str, Any]) -> list[str]:
    """One seat's material as short lines: stock, cards, islands, ships, god stones."""
    stock = _count(seat.get("bridges_in_stock", 0), "bridge")
    cards = _count(seat.get("hand_count", 0), "card")
    facts = [f"{stock} in stock · {cards} · {_count(len(seat.get('islands', [])), 'island')}"]
    extra = []
    if "ships_in_stock" in seat:
        extra.append(f"{_count(seat['ships_in_stock'], 'ship')} in stock")
    if seat.get("free_bridges"):
        extra.append(f"{_count(seat['free_bridges'], 'free bridge')} to place")
    if seat.get("god_stones"):
        extra.append("gods: " + ", ".join(seat["god_stones"]))
    if extra:
        facts.append(" · ".join(extra))
    return facts


def table_facts(view: Mapping[str, Any]) -> list[str]:
    """The cards on the table, who is looking, and the choices the game waits for."""
    facts = [
        "Face up: " + (", ".join(view.get("face_up", [])) or "none"),
        f"Stack: {view.get('stack_count', 0)} · discards: {len(view.get('discard', []))} face up,"
        f" {view.get('hidden_discards', 0)} face down",
    ]
    viewer = view.get("viewer")
    if viewer is None:
        facts.append("Seen by: a spectator")
    else:
        facts.append(f"Seen by: {seat_name(view, int(viewer))}")
        facts.append("Hand: " + (", ".join(view.get("hand", [])) or "empty"))
    for seat, hand in enumerate(view.get("hands") or []):
        if seat != viewer:
            facts.append(f"{seat_name(view, seat)}'s hand: " + (", ".join(hand) or "empty"))
    for pending in view.get("pending", []):
        facts.append(f"Waiting: {pending.get('kind')} by {seat_name(view, int(pending.get('seat', 0)))}")
    return facts


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _wrap(text: str, width: int) -> list[str]:
    """`text` broken into lines of at most about `width` characters, at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
