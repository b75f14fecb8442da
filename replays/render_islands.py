"""The island games' renderer (kind "islands"): their board in SVG and text, their status line
and their notation, registered by kind (replays/renderers.py)."""

from __future__ import annotations

from replays.notation.build import record
from replays.notation.parse import parse_islands
from replays.notation.render import render
from replays.render_svg import STYLE, islands_status, islands_svg
from replays.render_text import islands_text
from replays.renderers import ISLANDS, Renderer

RENDERER = Renderer(
    kind=ISLANDS,
    svg=islands_svg,
    text=islands_text,
    status=islands_status,
    notation=lambda events, viewer: render(record(events, viewer)),
    parse=parse_islands,
    style=STYLE,
)
