"""A seat's marker is drawn by one function for the island and the hex boards: the same shape
and colour per seat, each board with its own outline width (2.5 on the islands, 2 on the ice)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from domain.games import rules_for
from replays import render_hex, render_svg
from replays.render_svg import render_svg as draw
from replays.seat_marks import SEAT_COLOURS, SEAT_SHAPES, marker

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("seat", range(4))
def test_a_marker_differs_between_two_outline_widths_only_in_its_stroke_width(seat: int) -> None:
    thin, thick = marker(seat, 10.25, -3, 7, "swatch", 2), marker(seat, 10.25, -3, 7, "swatch", 2.5)
    assert 'stroke-width="2"' in thin and 'stroke-width="2.5"' in thick
    assert thin.replace('stroke-width="2"', 'stroke-width="2.5"') == thick
    shape = ET.fromstring(f'<svg xmlns="{SVG[1:-1]}">{thin}</svg>')[0]
    assert shape.get("data-shape") == SEAT_SHAPES[seat] and shape.get("fill") == SEAT_COLOURS[seat]
    assert shape.tag == SVG + {"circle": "circle", "square": "rect"}.get(SEAT_SHAPES[seat], "path")


def _view(game: str, seats: int) -> dict[str, Any]:
    rules = rules_for(game)
    state = rules.initial_state({"game": game, "seats": [{"name": f"P{n}"} for n in range(seats)]})
    return rules.view(state, None)


@pytest.mark.parametrize(("game", "seats", "width"), [("kahuna", 2, "2.5"), ("nanuuk", 4, "2")])
def test_each_board_outlines_its_seat_markers_with_its_own_width(game: str, seats: int, width: str) -> None:
    root = ET.fromstring(draw(_view(game, seats)))
    swatches = [e for e in root.iter() if e.get("class") == "swatch"]
    assert sorted(int(e.get("data-seat", -1)) for e in swatches) == list(range(seats))
    assert {e.get("stroke-width") for e in swatches} == {width}


def test_neither_renderer_keeps_a_marker_of_its_own() -> None:
    assert not hasattr(render_svg, "_marker")
    assert render_hex.marker is marker
