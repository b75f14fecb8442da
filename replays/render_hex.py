"""The Nanuuk! board as SVG: a pure function of one seat's view and the board's cells.

Ice cells are pale hexagons, cells left out for the seat count and everything around the
ice are water; igloo cells carry a dome; a crack is a dark zig-zag along the side of two
cells. Pieces stand on their cells: a hunter is a disc of its seat's colour with the seat's
shape inside (the second cue of replays.seat_marks), a bear a white disc with "B", an Inuk
a brown disc with "I", animals a labelled token (fish F, seal S, walrus W, whale Wh).
Every cell and line is a group with a stable hook (data-cell "q,r", data-line "q,r|q,r")
and a <title>; `interactive=True` makes them focusable buttons for a page script. A legend
names the seats with their colours, scores and player sheets (carried / in the igloo). The
same input always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from replays.hex_geometry import (
    Cell,
    Line,
    Point,
    bounds,
    cell_name,
    centre,
    corners,
    line_key,
    line_name,
    lines_of,
    side,
)
from replays.notation.hex_build import format as format_hex
from replays.notation.hex_cells import parse as parse_hex
from replays.renderers import Drawing, Renderer, game_title
from replays.seat_marks import marker, num, seat_colour, seat_shape
from replays.text_fit import wrap

SIZE = 40.0  # a hexagon's radius in pixels
PAD = 36  # water around the ice
LEGEND_W = 340
LEGEND_X0 = 20
LEGEND_TEXT_W = LEGEND_W - LEGEND_X0 - 26 - 12

WATER, ICE, ICE_EDGE, IGLOO, CRACK, PANEL = "#9cc8e0", "#f4f9fc", "#b9ccd8", "#dfe8ee", "#27313a", "#fbfaf5"
HIGHLIGHT = "#ffb000"
MARKER_STROKE = 2.0  # a marker's white outline, in pixels

XMLNS = "http://www.w3.org/2000/svg"
# The colours of the pieces' labels, as classes: a page's Content-Security-Policy admits the
# <style> block below (by its hash) but no style attribute.
INKS = {"ink": "#2b2b2b", "ink-dark": "#1b1b1b", "ink-light": "#ffffff"}
STYLE = (
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#2b2b2b}"
    ".token-label{font-size:13px;font-weight:bold;text-anchor:middle}"
    ".coord{font-size:9px;text-anchor:middle;fill:#7b8c97}"
    ".legend{font-size:15px}.small{font-size:13px}.title{font-size:20px;font-weight:bold}"
    "[tabindex]{cursor:pointer}[tabindex]:focus{outline:none}"
    "[tabindex]:focus-visible .focus{stroke:#000000;stroke-width:3;opacity:1}"
    ".focus{opacity:0}"
    # A click on a piece is a click on its cell: the page script listens on the cells.
    ".thing,.coord{pointer-events:none}"
    + "".join(f".{name}{{fill:{colour}}}" for name, colour in INKS.items())
)


@dataclass(frozen=True)
class HexBoard:
    """The cells a game is drawn on: ice, igloos, and the board's other cells (water)."""

    ice: tuple[Cell, ...]
    igloos: tuple[Cell, ...]
    water: tuple[Cell, ...]

    @property
    def lines(self) -> list[Line]:
        return lines_of(self.ice)

    @property
    def every_cell(self) -> tuple[Cell, ...]:
        return self.ice + self.water


def _cell(value: Sequence[Any]) -> Cell:
    return int(value[0]), int(value[1])


@dataclass(frozen=True)
class Frame:
    """Where the board sits in the picture: fitted to its cells, the legend to its right."""

    origin: Point
    board_w: int
    height: int
    legend_w: int

    @classmethod
    def of(cls, board: HexBoard, legend_height: int, legend_w: int) -> Frame:
        left, top, right, bottom = bounds(board.every_cell, SIZE)
        board_w, board_h = int(right - left + 2 * PAD + 0.999), int(bottom - top + 2 * PAD + 0.999)
        height = max(board_h, legend_height)
        return cls((PAD - left, PAD - top + (height - board_h) / 2), board_w, height, legend_w)

    @property
    def width(self) -> int:
        return self.board_w + self.legend_w

    def xy(self, cell: Cell) -> Point:
        x, y = centre(cell, SIZE)
        return x + self.origin[0], y + self.origin[1]


def _attr(value: object) -> str:
    return quoteattr(str(value))


def _path(points: Sequence[Point], closed: bool = True) -> str:
    return "M" + " L".join(f"{num(x)},{num(y)}" for x, y in points) + (" Z" if closed else "")


def _hook(label: str, interactive: bool) -> str:
    return f' tabindex="0" role="button" aria-label={_attr(label)}' if interactive else ""


def seat_name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats", [])
    return str(seats[seat]["name"]) if 0 <= seat < len(seats) else f"seat {seat}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def view_board(view: Mapping[str, Any]) -> HexBoard:
    """The board as the view has it: its ice, its igloos, and its water (left-out cells)."""
    ice = tuple(sorted(_cell(c) for c in view.get("ice") or []))
    return HexBoard(
        ice=ice,
        igloos=tuple(sorted(_cell(c) for c in view.get("igloos") or [])),
        water=tuple(sorted(_cell(c) for c in view.get("water") or [])),
    )


def parse_cell(text: Any) -> Cell | None:
    """A cell named "q,r" (or [q, r]); None when it names none."""
    try:
        if isinstance(text, str):
            q, r = text.split(",")
            return int(q), int(r)
        return _cell(text)
    except (ValueError, TypeError, IndexError):
        return None


def render_hex_view(
    view: Mapping[str, Any],
    *,
    title: str,
    status: str,
    caption: str = "",
    highlight_cells: Iterable[Any] = (),
    highlight_lines: Iterable[Sequence[Any]] = (),
    notes: Sequence[str] = (),
    standalone: bool = True,
    interactive: bool = False,
    legend: bool = True,
) -> str:
    """`render_hex` on the view's own board, highlights given as cell names or [q, r]."""
    cells = [c for c in (parse_cell(x) for x in highlight_cells) if c is not None]
    lines = []
    for pair in highlight_lines:
        ends = [parse_cell(x) for x in pair]
        if len(ends) == 2 and ends[0] is not None and ends[1] is not None:
            lines.append((ends[0], ends[1]))
    return render_hex(
        view,
        view_board(view),
        title=title,
        status=status,
        caption=caption,
        highlight_cells=cells,
        highlight_lines=lines,
        notes=notes,
        standalone=standalone,
        interactive=interactive,
        legend=legend,
    )


def hex_status(view: Mapping[str, Any]) -> str:
    """ "play · Ana to move", or how the game ended: who won, or a draw."""
    result = view.get("result")
    if result:
        winners = result.get("winners") or ([] if result.get("winner") is None else [result["winner"]])
        if not winners:
            who = "a draw"
        else:
            names = " and ".join(seat_name(view, int(w)) for w in winners)
            who = f"{names} {'wins' if len(winners) == 1 else 'win'}"
        reason = str(result.get("reason") or "").replace("_", " ")
        return f"Game over: {who}" + (f" ({reason})" if reason else "")
    text = str(view.get("phase", ""))
    if view.get("phase") in ("placing", "play"):
        text += f" · {seat_name(view, int(view.get('active', 0)))} to move"
    return text


# --- the board -----------------------------------------------------------------------------


def render_hex(
    view: Mapping[str, Any],
    board: HexBoard,
    *,
    title: str,
    status: str,
    caption: str = "",
    highlight_cells: Iterable[Cell] = (),
    highlight_lines: Iterable[Line] = (),
    notes: Sequence[str] = (),
    standalone: bool = True,
    interactive: bool = False,
    legend: bool = True,
) -> str:
    """The SVG text of `view` on `board`; the arguments are replays.render_svg.render_svg's."""
    pieces = Pieces.of(view)
    key = _legend(view, title, status, caption, notes) if legend else ([], 0)
    frame = Frame.of(board, legend_height=key[1], legend_w=LEGEND_W if legend else 0)
    size = f'width="{frame.width}" height="{frame.height}" viewBox="0 0 {frame.width} {frame.height}"'
    role = "group" if interactive else "img"
    # A page may show the map alone on a narrow screen: the legend's facts are in its panel.
    head = (
        f'class="board hex" {size} data-map-width="{frame.board_w}" role="{role}"'
        f" aria-label={_attr(f'{title} board. {status}')}"
    )
    svg_title = f"<title>{escape(title + ' board')}</title>"
    opening = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="{XMLNS}" {head}>{svg_title}'
        if standalone
        else f"<svg {head}>{svg_title}"
    )
    parts = [opening, f"<style>{STYLE}</style>", f"<desc>{escape(_description(view, pieces, status))}</desc>"]
    parts.append(
        f'<rect class="sea" x="0" y="0" width="{frame.board_w}" height="{frame.height}" fill="{WATER}"/>'
    )
    lit_cells, lit_lines = set(highlight_cells), {line_key(*line) for line in highlight_lines}
    parts += _cells(view, board, frame, pieces, lit_cells, interactive)
    parts += _lines(board, frame, pieces.cracks, lit_lines, interactive)
    parts += _tokens(view, frame, pieces)
    if legend:
        parts.append(
            f'<rect class="legend-panel" x="{frame.board_w}" y="0" width="{LEGEND_W}" '
            f'height="{frame.height}" fill="{PANEL}"/>'
        )
        parts += [f'<g class="legend" transform="translate({frame.board_w},0)">', *key[0], "</g>"]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@dataclass(frozen=True)
class Thing:
    """One drawn thing on a cell: a piece (hunter, bear, inuk; with its seat when it has one)
    or a token (an animal or an Inuk lying on the ice)."""

    kind: str
    seat: int | None = None
    piece: int | None = None
    retired: bool = False


@dataclass(frozen=True)
class Pieces:
    """What stands on the ice, read from a view: per cell its things, tokens first; the cracks."""

    on: Mapping[Cell, tuple[Thing, ...]]
    cracks: frozenset[Line]

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Pieces:
        on: dict[Cell, list[Thing]] = {}
        for token in view.get("tokens") or []:
            on.setdefault(_cell(token["cell"]), []).append(Thing(str(token["kind"])))
        for piece in view.get("pieces") or []:
            if piece.get("cell") is None or piece.get("out"):
                continue
            seat = piece.get("seat")
            thing = Thing(
                str(piece["kind"]),
                None if seat is None else int(seat),
                int(piece["piece"]),
                bool(piece.get("retired")),
            )
            on.setdefault(_cell(piece["cell"]), []).append(thing)
        cracks = frozenset(line_key(_cell(a), _cell(b)) for a, b in view.get("cracks") or [])
        return cls({c: tuple(things) for c, things in on.items()}, cracks)


def thing_words(view: Mapping[str, Any], thing: Thing) -> str:
    """A piece or token in words: "hunter of Ana", "bear", "Inuk of Ben", "fish"."""
    name = "Inuk" if thing.kind == "inuk" else thing.kind
    words = name if thing.seat is None else f"{name} of {seat_name(view, thing.seat)}"
    return words + (" (retired)" if thing.retired else "")


def cell_label(view: Mapping[str, Any], cell: Cell, pieces: Pieces, igloo: bool) -> str:
    """The cell in words: where it is, an igloo or ice, and what stands on it."""
    words = [f"cell {cell_name(cell)}", "igloo" if igloo else "ice"]
    words += [thing_words(view, thing) for thing in pieces.on.get(cell, ())]
    return ", ".join(words)


def _cells(
    view: Mapping[str, Any],
    board: HexBoard,
    frame: Frame,
    pieces: Pieces,
    lit: set[Cell],
    interactive: bool,
) -> list[str]:
    out = []
    for cell in board.water:
        out.append(
            f'<path class="water" data-cell="{cell_name(cell)}" '
            f'd="{_path(corners(cell, SIZE, frame.origin))}" '
            f'fill="{WATER}" stroke="#ffffff" stroke-opacity="0.35" stroke-width="1"/>'
        )
    igloos = set(board.igloos)
    for cell in board.ice:
        igloo = cell in igloos
        label = cell_label(view, cell, pieces, igloo)
        d = _path(corners(cell, SIZE, frame.origin))
        classes = "cell igloo" if igloo else "cell"
        classes += " lit" if cell in lit else ""
        out.append(
            f'<g class="{classes}" data-cell="{cell_name(cell)}"{_hook(label, interactive)}>'
            f"<title>{escape(label)}</title>"
        )
        out.append(f'<path class="focus" d="{d}" fill="none" stroke="none"/>')
        out.append(
            f'<path class="ice" d="{d}" fill="{IGLOO if igloo else ICE}" stroke="{ICE_EDGE}" '
            'stroke-width="1.5"/>'
        )
        if cell in lit:
            inner = _path(corners(cell, SIZE - 5, frame.origin))
            out.append(
                f'<path class="highlight" d="{inner}" fill="none" stroke="{HIGHLIGHT}" stroke-width="5"/>'
            )
        x, y = frame.xy(cell)
        if igloo:
            out += _igloo(x, y)
        out.append(f'<text class="coord" x="{num(x)}" y="{num(y + SIZE * 0.78)}">{cell_name(cell)}</text>')
        out.append("</g>")
    return out


def _igloo(x: float, y: float) -> list[str]:
    """A snow dome with its door, drawn behind whatever stands in the igloo."""
    r = SIZE * 0.62
    dome = f"M{num(x - r)},{num(y + r * 0.45)} A{num(r)},{num(r)} 0 0 1 {num(x + r)},{num(y + r * 0.45)} Z"
    base, top = num(y + r * 0.45), num(y + r * 0.1)
    door = f"M{num(x - 7)},{base} L{num(x - 7)},{top} A7,7 0 0 1 {num(x + 7)},{top} L{num(x + 7)},{base} Z"
    return [
        f'<path class="dome" d="{dome}" fill="#ffffff" stroke="#7b8c97" stroke-width="1.5"/>',
        f'<path class="door" d="{door}" fill="#7b8c97"/>',
    ]


def _zigzag(a: Point, b: Point, teeth: int = 5, depth: float = 4.0) -> list[Point]:
    """Points of a crack from `a` to `b`: a zig-zag across the side, the same every time."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1.0
    nx, ny = -(by - ay) / length, (bx - ax) / length
    points = [a]
    for k in range(1, teeth):
        t = k / teeth
        sign = 1 if k % 2 else -1
        points.append((ax + (bx - ax) * t + nx * depth * sign, ay + (by - ay) * t + ny * depth * sign))
    points.append(b)
    return points


def _lines(
    board: HexBoard, frame: Frame, cracks: frozenset[Line], lit: set[Line], interactive: bool
) -> list[str]:
    """Every line of ice: free ones invisible but for their hook, cracks as dark zig-zags."""
    out = []
    for line in board.lines:
        a, b = side(line, SIZE, frame.origin)
        cracked = line in cracks
        label = f"line {cell_name(line[0])}–{cell_name(line[1])}: " + ("cracked" if cracked else "free")
        classes = "line crack" if cracked else "line free"
        classes += " lit" if line in lit else ""
        out.append(f'<g class="{classes}" data-line="{line_name(line)}"{_hook(label, interactive)}>')
        out.append(f"<title>{escape(label)}</title>")
        edge = _path([a, b], closed=False)
        if line in lit:
            out.append(
                f'<path class="highlight" d="{edge}" fill="none" stroke="{HIGHLIGHT}" stroke-width="12" '
                'stroke-linecap="round" opacity="0.85"/>'
            )
        if interactive:
            out.append(
                f'<path class="hit" d="{edge}" fill="none" stroke="transparent" stroke-width="14" '
                'stroke-linecap="round"/>'
            )
        out.append(f'<path class="focus" d="{edge}" fill="none" stroke="none" stroke-width="10"/>')
        if cracked:
            out.append(
                f'<path class="stroke" d="{_path(_zigzag(a, b), closed=False)}" fill="none" stroke="{CRACK}" '
                'stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>'
            )
        out.append("</g>")
    return out


def _tokens(view: Mapping[str, Any], frame: Frame, pieces: Pieces) -> list[str]:
    """Each cell's things side by side in its middle (an igloo may hold several hunters)."""
    out = []
    for cell, things in sorted(pieces.on.items()):
        x, y = frame.xy(cell)
        spread = 26.0 if len(things) <= 2 else 52.0 / (len(things) - 1)
        first = x - spread * (len(things) - 1) / 2
        for n, thing in enumerate(things):
            out += _thing(view, thing, first + spread * n, y)
    return out


TOKEN_LOOKS = {
    "bear": ("B", "#ffffff", "ink"),
    "inuk": ("I", "#8d5524", "ink-light"),
    "fish": ("F", "#7fb3d5", "ink-dark"),
    "seal": ("S", "#b5b5b5", "ink-dark"),
    "walrus": ("W", "#8a6a4f", "ink-light"),
    "whale": ("Wh", "#34495e", "ink-light"),
}
"""Label, fill and ink (a class of INKS) of each piece or token that is not a hunter."""


def _thing(view: Mapping[str, Any], thing: Thing, x: float, y: float) -> list[str]:
    label = escape(thing_words(view, thing))
    hook = f' data-piece="{thing.piece}"' if thing.piece is not None else ""
    seat = f' data-seat="{thing.seat}"' if thing.seat is not None else ""
    head = f'<g class="thing {thing.kind}" data-kind="{thing.kind}"{hook}{seat}><title>{label}</title>'
    if thing.kind == "hunter":
        n = thing.seat or 0
        dash = ' stroke-dasharray="3 2"' if thing.retired else ""
        return [
            head,
            f'<circle cx="{num(x)}" cy="{num(y)}" r="12" fill="#ffffff" stroke="{seat_colour(n)}" '
            f'stroke-width="3"{dash}/>',
            marker(n, x, y, 6.5, "emblem", MARKER_STROKE),
            "</g>",
        ]
    text, fill, ink = TOKEN_LOOKS.get(thing.kind, (thing.kind[:2].title(), "#cccccc", "ink-dark"))
    # A piece a seat moves (the learning games' bears and Inuit) wears that seat's colour.
    ring = "#2b2b2b" if thing.seat is None else seat_colour(thing.seat)
    width = "1.5" if thing.seat is None else "3.5"
    out = [
        head,
        f'<circle cx="{num(x)}" cy="{num(y)}" r="12" fill="{fill}" stroke="{ring}" stroke-width="{width}"/>',
        f'<text class="token-label {ink}" x="{num(x)}" y="{num(y + 4.5)}">{text}</text>',
    ]
    if thing.seat is not None:
        out.append(marker(thing.seat, x + 11, y - 11, 4.5, "emblem", MARKER_STROKE))
    return [*out, "</g>"]


# --- words and legend ---------------------------------------------------------------------------


def sheets_of(view: Mapping[str, Any], seat: int) -> list[Mapping[str, Any]]:
    return [sheet for sheet in view.get("sheets") or [] if sheet.get("seat") == seat]


def score_of(view: Mapping[str, Any], seat: int) -> int:
    scores = view.get("scores") or []
    return int(scores[seat]) if 0 <= seat < len(scores) else 0


def sheet_facts(sheet: Mapping[str, Any]) -> list[str]:
    """One hunter's player sheet as two short lines: what it carries, what is in its igloo."""
    carried = sheet.get("carried") or {}
    things = list(carried.get("equipment", [])) + list(carried.get("animals", []))
    if carried.get("inuk"):
        things.append("an Inuk")
    igloo = sheet.get("igloo") or {}
    inside = list(igloo.get("equipment", []))
    inside += [f"{n} {kind}" for kind, n in (igloo.get("animals") or {}).items() if n]
    if igloo.get("inuit"):
        inside.append(_count(int(igloo["inuit"]), "Inuk").replace("Inuks", "Inuit"))
    return [f"carries: {', '.join(things) or 'nothing'}", f"in the igloo: {', '.join(inside) or 'nothing'}"]


def seat_facts(view: Mapping[str, Any], seat: int) -> list[str]:
    """A seat's sheets (one per hunter) and its pieces' state, as short lines."""
    facts = []
    sheets = sheets_of(view, seat)
    for sheet in sheets:
        prefix = f"hunter {sheet.get('piece')}: " if len(sheets) > 1 else ""
        facts += [prefix + fact for fact in sheet_facts(sheet)]
    for piece in view.get("pieces") or []:
        if piece.get("seat") != seat:
            continue
        if piece.get("retired"):
            facts.append(f"{piece['kind']} {piece['piece']} retired in an igloo")
        if piece.get("out"):
            facts.append(f"{piece['kind']} {piece['piece']} is out")
    return facts


def _description(view: Mapping[str, Any], pieces: Pieces, status: str) -> str:
    words = [status + "."]
    for seat in view.get("seats", []):
        n = int(seat["seat"])
        facts = "; ".join([_count(score_of(view, n), "point"), *seat_facts(view, n)])
        words.append(f"{seat_name(view, n)} ({seat_shape(n)} marker): {facts}.")
    words.append(f"{_count(len(pieces.cracks), 'crack')} on the ice.")
    return " ".join(words)


def _legend(
    view: Mapping[str, Any], title: str, status: str, caption: str, notes: Sequence[str]
) -> tuple[list[str], int]:
    x0, y = LEGEND_X0, 40
    out = []
    for chunk in wrap(title, LEGEND_W - 2 * x0, 20, bold=True):
        out.append(f'<text class="title" x="{x0}" y="{y}">{escape(chunk)}</text>')
        y += 26
    for text in (caption, status):
        for chunk in wrap(text, LEGEND_W - 2 * x0, 13) if text else []:
            out.append(f'<text class="small status" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 20
    y += 10
    for seat in view.get("seats", []):
        n = int(seat["seat"])
        mark = " ◀" if view.get("active") == n and not view.get("result") else ""
        out += [f'<g class="seat" data-seat="{n}">', marker(n, x0 + 10, y - 5, 7, "swatch", MARKER_STROKE)]
        head = f"{seat['name']} · {_count(score_of(view, n), 'point')}{mark}"
        for chunk in wrap(head, LEGEND_TEXT_W, 15):
            out.append(f'<text class="legend" x="{x0 + 26}" y="{y}">{escape(chunk)}</text>')
            y += 18
        for fact in seat_facts(view, n):
            for chunk in wrap(fact, LEGEND_TEXT_W, 13):
                out.append(f'<text class="small" x="{x0 + 26}" y="{y}">{escape(chunk)}</text>')
                y += 18
        out.append("</g>")
        y += 8
    key = "F fish 1 · S seal 2 · W walrus 3 · Wh whale 4 · B bear · I Inuk"
    if not view.get("tokens") and not view.get("sheets"):
        key = "B bear · I Inuk · the ring's colour: the seat that moves it"
    for chunk in wrap(key, LEGEND_W - 2 * x0, 13):
        out.append(f'<text class="small key" x="{x0}" y="{y}">{escape(chunk)}</text>')
        y += 19
    y += 6
    for note in notes:
        for chunk in wrap(note, LEGEND_W - 2 * x0, 13):
            out.append(f'<text class="small note" x="{x0}" y="{y}">{escape(chunk)}</text>')
            y += 18
    return out, y + 20


def hex_text(view: Mapping[str, Any]) -> list[str]:
    """The board in lines of text: each seat with its score and sheets, each occupied cell
    with what stands on it, and the cracks."""
    pieces = Pieces.of(view)
    out = ["Seats"]
    for seat in view.get("seats", []):
        n = int(seat["seat"])
        mover = " ◀" if view.get("active") == n and not view.get("result") else ""
        out.append(f"  {n} {seat['name']}  {_count(score_of(view, n), 'point')}{mover}")
        out += [f"      {fact}" for fact in seat_facts(view, n)]
    board = view_board(view)
    igloos = set(board.igloos)
    out += ["", f"Cells ({len(board.ice)} of ice, {len(board.igloos)} igloos, {len(board.water)} water)"]
    for cell in board.ice:
        things = pieces.on.get(cell, ())
        if things or cell in igloos:
            where = f"{cell_name(cell)}{' igloo' if cell in igloos else ''}"
            out.append(f"  {where:<11} " + (", ".join(thing_words(view, t) for t in things) or "-"))
    cracks = sorted(pieces.cracks)
    out += ["", f"Cracks ({len(cracks)}): " + (" ".join(line_name(c) for c in cracks) or "none")]
    return out


def _svg(view: Mapping[str, Any], drawing: Drawing) -> str:
    return render_hex_view(
        view,
        title=game_title(view),
        status=hex_status(view),
        caption=drawing.caption,
        highlight_cells=drawing.highlight_places,
        highlight_lines=drawing.highlight_lines,
        notes=drawing.notes,
        standalone=drawing.standalone,
        interactive=drawing.interactive,
        legend=drawing.legend,
    )


RENDERER = Renderer(
    kind="hex",
    svg=_svg,
    text=lambda view, board: hex_text(view),
    status=hex_status,
    notation=format_hex,
    parse=parse_hex,
    style=STYLE,
)
"""The games on hexagonal cells (Nanuuk!): highlights name cells "q,r" and lines (two cells)."""
