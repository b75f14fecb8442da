"""The board as SVG: a pure function of one seat's view and the board's geometry.

Islands are circles sized by their places, bridge lines are dashed when free and drawn
thick in the owner's colour when bridged, a line that would pass over a third island is
bent around it, controlled islands carry their owner's marker on the shore, ships sit in
the middle of their sea space and god stones on their island. Seat colours are the
Okabe-Ito palette, and each seat has a second cue that needs no colour vision: a pattern
inside its bridges and a shape for its markers. Every island and line is a group with a
stable hook (data-island, data-line) and a <title>; `interactive=True` makes them
focusable buttons for a page script. A legend names the seats with their colours and
scores. The same input always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from domain.games import rules_for
from domain.islands.board import Board, Island
from replays.board_paths import Circle, Curve, line_path, marker_spot, outline
from replays.renderers import Drawing, game_title, renderer_for
from replays.seat_marks import marker, num, seat_colour, seat_shape
from replays.text_fit import text_width, wrap

SCALE = 10  # board units (x 0-100, y 0-80) to pixels
PAD = 80  # room around the outermost island centres for their circles
LEGEND_W = 340
LEGEND_X0 = 20
LEGEND_TEXT_W = LEGEND_W - LEGEND_X0 - 26 - 12  # after the swatch, before the picture's edge

SEA, SAND, SHORE, FREE, PANEL = "#cfe6f2", "#f2e2b3", "#a88f52", "#6b7d89", "#fbfaf5"
HIGHLIGHT = "#ffb000"
# The second cue of a bridge besides its colour: the white pattern inside it.
SEAT_PATTERNS = ("", "10 6", "0.1 6", "12 4 0.1 4")
GOD_LABELS = {"Kanaloa": "Ka", "Kane": "Ke", "Ku": "Ku", "Lono": "Lo", "Pele": "Pe"}
NAME_LARGEST, NAME_SMALLEST = 15.0, 10.0
MARKER_SIZE = 11.0
MARKER_STROKE = 2.5  # a marker's white outline, in pixels

XMLNS = "http://www.w3.org/2000/svg"
STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#2b2b2b}"
    ".name{font-weight:bold;text-anchor:middle}"
    ".god-label{font-size:12px;font-weight:bold;text-anchor:middle;fill:#ffffff}"
    ".legend{font-size:15px}.small{font-size:13px}.title{font-size:20px;font-weight:bold}"
    "[tabindex]{cursor:pointer}[tabindex]:focus{outline:none}"
    "[tabindex]:focus-visible .focus{stroke:#000000;stroke-width:3;stroke-dasharray:none;opacity:1}"
    ".focus{opacity:0}"
)


def board_of(view: Mapping[str, Any]) -> Board:
    """The board the game of `view` is played on, as its game module hands it to renderers."""
    game = str(view["game"])
    board: Board = rules_for(game).board(game)
    return board


def render_svg(
    view: Mapping[str, Any],
    board: Board | None = None,
    *,
    caption: str = "",
    highlight_islands: Iterable[str] = (),
    highlight_lines: Iterable[Sequence[str]] = (),
    notes: Sequence[str] = (),
    standalone: bool = True,
    interactive: bool = False,
    legend: bool = True,
) -> str:
    """The SVG text of `view` on `board` (the view's own board when None), drawn by the renderer
    of the view's game (replays/renderers.py: the island games' here, Nanuuk!'s in render_hex).

    `caption` heads the legend (e.g. "version 57"); `highlight_*` outline islands and lines
    (annotations; on another kind of board, its places and lines: cells "q,r", hexes "col,row").
    `notes` are printed under the legend. `standalone=False` leaves out the XML declaration and
    namespace, for an SVG inlined in an HTML page. `interactive=True` makes each island and line
    a focusable button; `legend=False` draws the board alone.
    """
    drawing = Drawing(
        caption=caption,
        board=board,
        highlight_places=tuple(highlight_islands),
        highlight_lines=tuple(tuple(line) for line in highlight_lines),
        notes=tuple(notes),
        standalone=standalone,
        interactive=interactive,
        legend=legend,
    )
    return renderer_for(view).svg(view, drawing)


def islands_svg(view: Mapping[str, Any], drawing: Drawing) -> str:
    """The SVG of an island game's view (the islands renderer's drawing)."""
    board = drawing.board or board_of(view)
    caption, notes, legend = drawing.caption, drawing.notes, drawing.legend
    standalone, interactive = drawing.standalone, drawing.interactive
    highlight_islands, highlight_lines = drawing.highlight_places, drawing.highlight_lines
    key = _legend(view, caption, notes) if legend else Legend([], 0)
    frame = Frame.of(board, legend_height=key.height, legend_w=LEGEND_W if legend else 0)
    parts = [_open(view, frame, standalone, interactive), f"<style>{STYLE}</style>"]
    parts.append(f"<desc>{escape(_description(view))}</desc>")
    parts.append(
        f'<rect class="sea" x="0" y="0" width="{frame.board_w}" height="{frame.height}" fill="{SEA}"/>'
    )
    lit_lines = {_pair(line) for line in highlight_lines if len(line) == 2}
    paths = {(a, b): line_curve(board, frame, a, b) for a, b in board.lines}
    parts += _lines(view, board, paths, lit_lines, interactive)
    parts += _islands(view, board, frame, paths, set(highlight_islands), interactive)
    parts += _ships(view, board, frame)
    if legend:
        parts.append(
            f'<rect class="legend-panel" x="{frame.board_w}" y="0" width="{LEGEND_W}" '
            f'height="{frame.height}" fill="{PANEL}"/>'
        )
        parts += [f'<g class="legend" transform="translate({frame.board_w},0)">', *key.parts, "</g>"]
    parts.append("</svg>")
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
    legend_w: int = LEGEND_W

    @classmethod
    def of(cls, board: Board, legend_height: int, legend_w: int = LEGEND_W) -> Frame:
        xs = [i.x for i in board.islands]
        ys = [i.y for i in board.islands]
        board_w = math.ceil((max(xs) - min(xs)) * SCALE + 2 * PAD)
        board_h = math.ceil((max(ys) - min(ys)) * SCALE + 2 * PAD)
        height = max(board_h, legend_height)
        return cls(min(xs), min(ys), board_w, height, PAD + (height - board_h) / 2, legend_w)

    @property
    def width(self) -> int:
        return self.board_w + self.legend_w

    def xy(self, island: Island) -> tuple[float, float]:
        """The pixel centre of `island`."""
        return PAD + (island.x - self.left) * SCALE, self.y0 + (island.y - self.top) * SCALE

    def circle(self, island: Island) -> Circle:
        return self.xy(island), radius(island)


def radius(island: Island) -> float:
    """Circle radius in pixels: bigger islands (more places) are drawn bigger."""
    return 22.0 + 4.0 * island.places


def line_curve(board: Board, frame: Frame, a: str, b: str) -> Curve:
    """The drawn path of the line a-b: shore to shore, bent around any island in its way."""
    others = tuple(frame.circle(i) for i in board.islands if i.name not in (a, b))
    return line_path(frame.circle(board.island(a)), frame.circle(board.island(b)), others)


def name_box(island: Island, size: float) -> tuple[float, float]:
    """The baseline offset below the centre and the width a name of font `size` may take.

    The width is the circle's chord at the edge of the text's band farther from the centre,
    less a margin, so the whole name sits on the island.
    """
    r = radius(island)
    baseline = size * 0.35
    reach = max(size * 0.75 - baseline, baseline + size * 0.25)
    return baseline, 2 * math.sqrt(max(r * r - reach * reach, 0.0)) - 8


def name_size(island: Island) -> float:
    """The font size the island's name is drawn at: the largest at which it fits its circle."""
    size = NAME_LARGEST
    while size > NAME_SMALLEST and text_width(island.name, size) > name_box(island, size)[1]:
        size -= 0.5
    return size


def _pair(line: Sequence[str]) -> tuple[str, str]:
    a, b = str(line[0]), str(line[1])
    return (a, b) if a <= b else (b, a)


def _attr(value: object) -> str:
    return quoteattr(str(value))


def _d(curve: Curve) -> str:
    """The path data of `curve`: a segment when straight, else one quadratic Bézier."""
    (x1, y1), (cx, cy), (x2, y2) = curve.start, curve.control, curve.end
    if curve.straight:
        return f"M{num(x1)},{num(y1)} L{num(x2)},{num(y2)}"
    return f"M{num(x1)},{num(y1)} Q{num(cx)},{num(cy)} {num(x2)},{num(y2)}"


def _hook(label: str, interactive: bool) -> str:
    """The attributes that make a group a focusable, named button for a page script."""
    return f' tabindex="0" role="button" aria-label={_attr(label)}' if interactive else ""


# --- the board -----------------------------------------------------------------------------


def _open(view: Mapping[str, Any], frame: Frame, standalone: bool, interactive: bool) -> str:
    size = f'width="{frame.width}" height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}"'
    # A role="img" hides its children from assistive technology; buttons need a group.
    role = "group" if interactive else "img"
    label = _attr(f"{game_title(view)} board. {status_line(view)}")
    # A page may show the map alone on a narrow screen: the legend's facts are in its panel.
    head = f'class="board" {size} data-map-width="{frame.board_w}" role="{role}" aria-label={label}'
    title = f"<title>{escape(game_title(view) + ' board')}</title>"
    if standalone:
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="{XMLNS}" {head}>{title}'
    return f"<svg {head}>{title}"


def _description(view: Mapping[str, Any]) -> str:
    """The board in one paragraph of words: the text alternative of the whole picture."""
    words = [status_line(view) + "."]
    for seat in view.get("seats", []):
        who = seat_name(view, int(seat["seat"]))
        colour = f"{seat_shape(int(seat['seat']))} markers"
        words.append(
            f"{who} ({colour}): {_count(seat.get('score', 0), 'point')}; {'; '.join(seat_facts(seat))}."
        )
    words += [f"{fact}." for fact in table_facts(view)]
    return " ".join(words)


def _lines(
    view: Mapping[str, Any],
    board: Board,
    paths: Mapping[tuple[str, str], Curve],
    lit: set[tuple[str, str]],
    interactive: bool,
) -> list[str]:
    """Every line of the board, free (dashed) or bridged (the owner's colour); lit ones underlaid."""
    owners = {_pair(b["line"]): int(b["seat"]) for b in view.get("bridges", [])}
    under, over = [], []
    for a, b in board.lines:
        d = _d(paths[(a, b)])
        if (a, b) in lit:
            under.append(
                f'<path class="highlight" d="{d}" fill="none" stroke="{HIGHLIGHT}" '
                'stroke-width="22" stroke-linecap="round" opacity="0.8"/>'
            )
        seat = owners.get((a, b))
        label = f"{a}–{b}: " + ("free" if seat is None else f"bridge of {seat_name(view, seat)}")
        classes = "line free" if seat is None else "line bridge"
        classes += " lit" if (a, b) in lit else ""
        owner = "" if seat is None else f' data-seat="{seat}"'
        group = [
            f'<g class="{classes}" data-line={_attr(f"{a}-{b}")}{owner}{_hook(label, interactive)}>',
            f"<title>{escape(label)}</title>",
        ]
        if interactive:
            band = _path(*outline(paths[(a, b)], 10))
            group.append(f'<path class="hit" d="{band}" fill="transparent" stroke="none"/>')
        group.append(f'<path class="focus" d="{d}" fill="none" stroke="none" stroke-width="14"/>')
        group += _line_strokes(d, seat)
        over += [*group, "</g>"]
    return under + over


def _line_strokes(d: str, seat: int | None) -> list[str]:
    if seat is None:
        return [
            f'<path class="stroke" d="{d}" fill="none" stroke="{FREE}" stroke-width="2.5" '
            'stroke-dasharray="7 6"/>'
        ]
    strokes = [f'<path class="stroke" d="{d}" fill="none" stroke="{seat_colour(seat)}" stroke-width="9"/>']
    pattern = SEAT_PATTERNS[seat % len(SEAT_PATTERNS)]
    if pattern:
        strokes.append(
            f'<path class="cue" d="{d}" fill="none" stroke="#ffffff" stroke-width="3" '
            f'stroke-linecap="round" stroke-dasharray="{pattern}"/>'
        )
    return strokes


def _islands(
    view: Mapping[str, Any],
    board: Board,
    frame: Frame,
    paths: Mapping[tuple[str, str], Curve],
    lit: set[str],
    interactive: bool,
) -> list[str]:
    control: Mapping[str, int] = view.get("control", {})
    gods: Mapping[str, str] = view.get("gods", {})
    out = []
    for island in board.islands:
        x, y = frame.xy(island)
        r = radius(island)
        cx, cy = num(x), num(y)
        owner = control.get(island.name)
        god = gods.get(island.name)
        label = island_label(view, island, owner, god)
        seat = "" if owner is None else f' data-seat="{owner}"'
        classes = "island lit" if island.name in lit else "island"
        # The tooltip says what the god stone does as well; the button's name stays short.
        tip = label if god is None else f"{label}: {rules_for(view['game']).words.explain('god', str(god))}"
        out.append(
            f'<g class="{classes}" data-island={_attr(island.name)} data-places="{island.places}"{seat}'
            f"{_hook(label, interactive)}><title>{escape(tip)}</title>"
        )
        if island.name in lit:
            out.append(
                f'<circle class="highlight" cx="{cx}" cy="{cy}" r="{num(r + 9)}" fill="none" '
                f'stroke="{HIGHLIGHT}" stroke-width="8"/>'
            )
        out.append(f'<circle class="focus" cx="{cx}" cy="{cy}" r="{num(r + 4)}" fill="none" stroke="none"/>')
        out.append(
            f'<circle class="shore" cx="{cx}" cy="{cy}" r="{num(r)}" fill="{SAND}" stroke="{SHORE}" '
            'stroke-width="2"/>'
        )
        size = name_size(island)
        baseline, width = name_box(island, size)
        drawn = min(width, text_width(island.name, size))
        fit = ""
        if text_width(island.name, size) > width:
            # Too long even at the smallest size: squeezed to the circle, never cut.
            fit = f' textLength="{num(width)}" lengthAdjust="spacingAndGlyphs"'
        if owner is not None:
            # On the shore, clear of the name, the god stone and the lines.
            name = (x - drawn / 2, y + baseline - 0.75 * size, x + drawn / 2, y + baseline + 0.25 * size)
            avoid = [name] if god is None else [name, _stone_box(x, y + r * 0.6)]
            mx, my = marker_spot(frame.circle(island), list(paths.values()), avoid, MARKER_SIZE)
            out.append(marker(int(owner), mx, my, MARKER_SIZE, "marker", MARKER_STROKE))
        out.append(
            f'<text class="name" x="{cx}" y="{num(y + baseline)}" font-size="{num(size)}"{fit}>'
            f"{escape(island.name)}</text>"
        )
        out.append("</g>")
        if god is not None:
            # Beside the island's button, not in it: its letters are no part of the button's
            # name (axe: label-content-name-mismatch), which says the god in full.
            out += _god_stone(island.name, str(god), x, y + r * 0.6)
    return out


def island_label(view: Mapping[str, Any], island: Island, owner: int | None, god: str | None) -> str:
    """The island in words: its name, places, controller and god stone."""
    words = f"{island.name}, {_count(island.places, 'place')}"
    if owner is not None:
        words += f", controlled by {seat_name(view, int(owner))}"
    if god is not None:
        words += f", god stone {god}"
    return words


def _stone_box(x: float, y: float) -> tuple[float, float, float, float]:
    """The god stone's rectangle (left, top, right, bottom) when its label stands at x, y."""
    return x - 14, y - 10, x + 14, y + 8


def _god_stone(island: str, god: str, x: float, y: float) -> list[str]:
    label = GOD_LABELS.get(god, god[:2])
    left, top, right, bottom = _stone_box(x, y)
    return [
        f'<g class="god" data-god={_attr(god)} data-on={_attr(island)} aria-hidden="true"'
        ' pointer-events="none">',
        f'<rect x="{num(left)}" y="{num(top)}" width="{num(right - left)}" height="{num(bottom - top)}" '
        'rx="6" fill="#4a5663" stroke="#ffffff" stroke-width="1.5"/>',
        f'<text class="god-label" x="{num(x)}" y="{num(y + 4)}">{escape(label)}</text>',
        "</g>",
    ]


def _ships(view: Mapping[str, Any], board: Board, frame: Frame) -> list[str]:
    """Each ship as a small boat at the mean of its sea space's three islands, with its seat's shape."""
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
            f'<path d="{sail}" fill="#ffffff" stroke="{seat_colour(seat)}" stroke-width="2"/>'
            f"{marker(seat, x + 4, y - 10, 4.5, 'emblem', MARKER_STROKE)}</g>"
        )
    return out


def _path(*points: tuple[float, float]) -> str:
    return "M" + " L".join(f"{num(x)},{num(y)}" for x, y in points) + " Z"


# --- the legend ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Legend:
    parts: list[str]
    height: int


def seat_name(view: Mapping[str, Any], seat: int) -> str:
    """The name of `seat` in `view`, or "seat N" when the view does not list it."""
    seats = view.get("seats", [])
    return str(seats[seat]["name"]) if 0 <= seat < len(seats) else f"seat {seat}"


def round_words(view: Mapping[str, Any]) -> str:
    """ "Round 2 of 3"; before the first round (Arabana-Opodopo's choosing) "Before round 1"."""
    number = view.get("round") or 0
    if not isinstance(number, int) or number < 1:
        return "Before round 1"
    return f"Round {number}" + (f" of {view['rounds']}" if view.get("rounds") else "")


def status_line(view: Mapping[str, Any]) -> str:
    """ "Round 2 of 3 · play · Capucine to move", or how the game ended, as the renderer of the
    view's game says it."""
    return renderer_for(view).status(view)


def islands_status(view: Mapping[str, Any]) -> str:
    """ "Round 2 of 3 · play · Capucine to move", or how an island game ended."""
    result = view.get("result")
    if result:
        winner = result.get("winner")
        who = "a draw" if winner is None else f"{seat_name(view, int(winner))} wins"
        return f"Game over: {who} ({str(result.get('reason') or '').replace('_', ' ')})"
    text = f"{round_words(view)} · {view.get('phase', '')}"
    if view.get("phase") in ("play", "final"):
        text += f" · {seat_name(view, int(view.get('active', 0)))} to move"
    return text


def _legend(view: Mapping[str, Any], caption: str, notes: Sequence[str]) -> Legend:
    """The legend's parts, drawn from x=0 (the caller moves it beside the board).

    Every text is wrapped to the panel's width, so no name or fact runs off the picture.
    """
    x0, y = LEGEND_X0, 40
    out = []
    for chunk in wrap(game_title(view), LEGEND_W - 2 * x0, 20, bold=True):
        out.append(f'<text class="title" x="{x0}" y="{y}">{escape(chunk)}</text>')
        y += 26
    for text in (caption, status_line(view)):
        for chunk in wrap(text, LEGEND_W - 2 * x0, 13) if text else []:
            out.append(f'<text class="small status" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 20
    y += 10
    playing = view.get("phase") in ("play", "final") and not view.get("result")
    for seat in view.get("seats", []):
        rows, y = _seat_rows(seat, x0, y, playing and view.get("active") == seat["seat"])
        out += rows
    texts = table_facts(view)
    if view.get("gods") or any(s.get("god_stones") for s in view.get("seats", [])):
        texts.append(" ".join(f"{label}={god}" for god, label in GOD_LABELS.items()))
    for text in texts:
        for chunk in wrap(text, LEGEND_W - 2 * x0, 13):
            out.append(f'<text class="small" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 19
    y += 6
    for note in notes:
        for chunk in wrap(note, LEGEND_W - 2 * x0, 13):
            out.append(f'<text class="small note" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 18
    return Legend(out, y + 20)


def _seat_rows(seat: Mapping[str, Any], x0: int, y: int, active: bool) -> tuple[list[str], int]:
    """One seat's swatch (a bridge and a marker, as drawn on the board), name, score and facts."""
    n = int(seat["seat"])
    mark = " ◀" if active else ""
    head = f"{seat['name']} · {_count(seat.get('score', 0), 'point')}{mark}"
    d = f"M{x0},{y - 5} L{x0 + 20},{y - 5}"
    out = [
        f'<g class="seat" data-seat="{n}">',
        *_line_strokes(d, n),
        marker(n, x0 + 10, y + 13, 7, "swatch", MARKER_STROKE),
    ]
    for chunk in wrap(head, LEGEND_TEXT_W, 15):
        out.append(f'<text class="legend" x="{x0 + 26}" y="{y}">{escape(chunk)}</text>')
        y += 18
    for fact in seat_facts(seat):
        for chunk in wrap(fact, LEGEND_TEXT_W, 13):
            out.append(f'<text class="small" x="{x0 + 26}" y="{y}">{escape(chunk)}</text>')
            y += 18
    out.append("</g>")
    return out, y + 8


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
