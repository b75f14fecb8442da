"""The board picture read as a player reads it: lines, names, colours and text alternatives.

Every check reads the drawn SVG (path data, circles, text, attributes), never the
renderer's own helpers, so a drawing that looks wrong fails here whatever the code meant.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from domain.games import register_game, rules_for, unregister_game
from domain.islands.board import Board, Island, load_board
from replays.render_svg import LEGEND_W, render_svg
from replays.seat_marks import SEAT_COLOURS
from replays.text_fit import text_width

BOARDS = sorted(
    p.name.removesuffix(".json")
    for p in resources.files("domain.islands").joinpath("boards").iterdir()
    if p.name.endswith(".json")
)
Point = tuple[float, float]


def blank_view(game: str, **more: Any) -> dict[str, Any]:
    return {"game": game, "phase": "play", "round": 1, "rounds": 3, "active": 0, **more}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def local(e: ET.Element) -> str:
    return e.tag.rsplit("}", 1)[-1]


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def circles(root: ET.Element) -> dict[str, tuple[Point, float]]:
    """Each island's drawn circle: centre and radius, read from its shore circle."""
    found = {}
    for island in of_class(root, "island"):
        (shore,) = of_class(island, "shore")
        centre = (float(shore.get("cx", "")), float(shore.get("cy", "")))
        found[island.get("data-island", "")] = (centre, float(shore.get("r", "")))
    return found


def path_points(d: str, samples: int = 200) -> list[Point]:
    """Points along an SVG path made of M, L and Q commands (what the renderer draws)."""
    tokens = re.findall(r"[MLQ]|-?\d+(?:\.\d+)?", d)
    points: list[Point] = []
    at: Point = (0.0, 0.0)
    n = 0
    while n < len(tokens):
        op = tokens[n]
        nums = []
        n += 1
        while n < len(tokens) and tokens[n] not in "MLQ":
            nums.append(float(tokens[n]))
            n += 1
        if op == "M":
            at = (nums[0], nums[1])
            points.append(at)
        elif op == "L":
            end = (nums[0], nums[1])
            points += [lerp(at, end, k / samples) for k in range(1, samples + 1)]
            at = end
        else:
            c, end = (nums[0], nums[1]), (nums[2], nums[3])
            points += [quad(at, c, end, k / samples) for k in range(1, samples + 1)]
            at = end
    return points


def lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def quad(a: Point, c: Point, b: Point, t: float) -> Point:
    return lerp(lerp(a, c, t), lerp(c, b, t), t)


def drawn_lines(root: ET.Element) -> dict[str, list[Point]]:
    lines = {}
    for line in of_class(root, "line"):
        (stroke,) = of_class(line, "stroke")
        lines[line.get("data-line", "")] = path_points(stroke.get("d", ""))
    return lines


def intruders(svg: str) -> list[tuple[str, str, float]]:
    """(line, island, depth) for every drawn line that enters a circle it does not end at."""
    root = parse(svg)
    found = []
    islands = circles(root)
    for key, points in drawn_lines(root).items():
        ends = key.split("-")
        for name, (centre, r) in islands.items():
            if name in ends:
                continue
            depth = r - min(math.dist(p, centre) for p in points)
            if depth > 0:
                found.append((key, name, round(depth, 1)))
    return found


# --- lines -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", BOARDS)
def test_no_line_enters_the_circle_of_an_island_it_does_not_join(game: str) -> None:
    svg = render_svg(blank_view(game))

    assert intruders(svg) == []
    assert len(drawn_lines(parse(svg))) == len(load_board(game).lines)


def test_the_coco_kahu_line_bends_around_gola_instead_of_reading_as_a_gola_bridge() -> None:
    root = parse(render_svg(blank_view("kahuna", bridges=[{"line": ["COCO", "KAHU"], "seat": 0}])))

    (coco_kahu,) = [e for e in of_class(root, "line") if e.get("data-line") == "COCO-KAHU"]
    (stroke,) = of_class(coco_kahu, "stroke")
    (gola_centre, gola_r) = circles(root)["GOLA"]
    assert "Q" in stroke.get("d", "")
    assert min(math.dist(p, gola_centre) for p in path_points(stroke.get("d", ""))) > gola_r + 4


@pytest.mark.parametrize("game", BOARDS)
def test_each_line_runs_from_the_shore_of_one_end_to_the_shore_of_the_other(game: str) -> None:
    root = parse(render_svg(blank_view(game)))
    islands = circles(root)

    for key, points in drawn_lines(root).items():
        a, b = key.split("-")
        for point, (centre, r) in ((points[0], islands[a]), (points[-1], islands[b])):
            assert r - 4 <= math.dist(point, centre) <= r, (key, point)


def test_a_line_with_nothing_in_its_way_stays_straight() -> None:
    root = parse(render_svg(blank_view("kahuna")))

    (aloa_bari,) = [e for e in of_class(root, "line") if e.get("data-line") == "ALOA-BARI"]

    assert "Q" not in of_class(aloa_bari, "stroke")[0].get("d", "")


def test_a_line_over_an_island_in_the_middle_of_a_row_is_bent_around_it() -> None:
    row = Board(
        "row",
        (Island("AAA", 3, 10, 40), Island("BBB", 6, 50, 41), Island("CCC", 3, 90, 40)),
        (("AAA", "BBB"), ("AAA", "CCC"), ("BBB", "CCC")),
        (),
    )

    svg = render_svg(blank_view("kahuna"), row)

    assert intruders(svg) == []


# --- names -----------------------------------------------------------------------------------


def chord(centre: Point, r: float, y: float) -> float:
    return 2 * math.sqrt(max(r * r - (y - centre[1]) ** 2, 0.0))


def names_that_overflow(svg: str) -> list[str]:
    """Names whose text, by a generous width estimate, leaves their island's circle."""
    root = parse(svg)
    bad = []
    for island in of_class(root, "island"):
        (shore,) = of_class(island, "shore")
        centre, r = (float(shore.get("cx", "")), float(shore.get("cy", ""))), float(shore.get("r", ""))
        (name,) = of_class(island, "name")
        size, baseline = float(name.get("font-size", "")), float(name.get("y", ""))
        width = float(name.get("textLength") or text_width(name.text or "", size))
        room = min(chord(centre, r, baseline - 0.75 * size), chord(centre, r, baseline + 0.25 * size))
        if name.text != island.get("data-island") or width > room:
            bad.append(island.get("data-island", ""))
    return bad


@pytest.mark.parametrize("game", BOARDS)
def test_every_island_name_is_shown_whole_inside_its_circle(game: str) -> None:
    assert names_that_overflow(render_svg(blank_view(game))) == []


def test_a_name_too_long_for_its_island_is_squeezed_in_whole_not_cut() -> None:
    long_name = "Rarotikipapaluanuridan"
    board = Board(
        "long", (Island(long_name, 3, 10, 10), Island("Wawa", 3, 60, 10)), ((long_name, "Wawa"),), ()
    )

    svg = render_svg(blank_view("kahuna"), board)

    assert names_that_overflow(svg) == []
    (name,) = [t for t in of_class(parse(svg), "name") if t.text == long_name]
    assert name.get("lengthAdjust") == "spacingAndGlyphs"


def test_long_seat_names_and_facts_are_wrapped_inside_the_legend() -> None:
    seats = [
        {"seat": 0, "name": "Maximiliane Ottilie von Hohenzollern-Sigmaringen", "score": 11},
        {"seat": 1, "name": "B" * 60, "score": 3},
    ]
    view = blank_view("kahuna", seats=seats, face_up=["JOJO", "BARI", "FAAA", "HUNA", "KAHU", "LALE"])

    root = parse(render_svg(view))

    legend = of_class(root, "legend")[0]
    texts = [t for t in legend.iter() if local(t) == "text"]
    words = " ".join(t.text or "" for t in texts)
    assert "Maximiliane Ottilie von Hohenzollern-Sigmaringen · 11 points" in words
    assert "".join(t.text or "" for t in texts).count("B") >= 60
    for t in texts:
        size = (
            20.0 if "title" in (t.get("class") or "") else 15.0 if "legend" in (t.get("class") or "") else 13
        )
        assert float(t.get("x", "")) + text_width(t.text or "", size, bold=False) <= LEGEND_W, t.text


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
MEASURE = """
<script>
window.onload = () => {
  const bad = [];
  for (const svg of document.querySelectorAll("svg")) {
    const width = svg.viewBox.baseVal.width;
    for (const island of svg.querySelectorAll(".island")) {
      const c = island.querySelector(".shore"), t = island.querySelector(".name");
      const cx = c.cx.baseVal.value, cy = c.cy.baseVal.value, r = c.r.baseVal.value, b = t.getBBox();
      for (const [x, y] of [[b.x, b.y + b.height * 0.2], [b.x + b.width, b.y + b.height * 0.2],
                            [b.x, b.y + b.height * 0.8], [b.x + b.width, b.y + b.height * 0.8]]) {
        if (Math.hypot(x - cx, y - cy) > r) bad.push(t.textContent);
      }
    }
    for (const t of svg.querySelectorAll(".legend text")) {
      const b = t.getBBox(), ctm = t.getCTM();
      if (ctm.e + b.x + b.width > width) bad.push(t.textContent);
    }
  }
  document.getElementById("out").textContent = JSON.stringify([...new Set(bad)]);
};
</script>
"""


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on this machine")
def test_in_a_browser_every_name_sits_inside_its_island_and_the_legend_inside_the_picture(
    tmp_path: Path,
) -> None:
    seats = [{"seat": 0, "name": "Maximiliane Ottilie von Hohenzollern-Sigmaringen", "score": 11}]
    svgs = [render_svg(blank_view(game, seats=seats), standalone=False) for game in BOARDS]
    page = tmp_path / "boards.html"
    page.write_text(f"<!doctype html><meta charset=utf-8>{''.join(svgs)}<pre id=out></pre>{MEASURE}")
    command = [str(BROWSER), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()]

    dom = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout

    found = re.search(r'<pre id="out">(.*?)</pre>', dom)
    assert found is not None and json.loads(found.group(1)) == []


# --- colours and their second cue ---------------------------------------------------------------


def four_seat_view() -> dict[str, Any]:
    board = load_board("arabana-opodopo")
    return blank_view(
        "arabana-opodopo",
        seats=[{"seat": n, "name": f"P{n}", "score": 0} for n in range(4)],
        bridges=[{"line": list(board.lines[n]), "seat": n} for n in range(4)],
        control={board.names[n]: n for n in range(4)},
    )


def test_each_seat_has_its_own_colour_and_a_cue_that_needs_no_colour() -> None:
    root = parse(render_svg(four_seat_view()))

    cues, colours, shapes = {}, {}, {}
    for bridge in of_class(root, "bridge"):
        seat = bridge.get("data-seat")
        colours[seat] = of_class(bridge, "stroke")[0].get("stroke")
        cue = of_class(bridge, "cue")
        cues[seat] = cue[0].get("stroke-dasharray") if cue else "solid"
    for marker in of_class(root, "marker"):
        shapes[marker.get("data-seat")] = (local(marker), marker.get("data-shape"))
    assert len(set(colours.values())) == len(set(cues.values())) == len(set(shapes.values())) == 4
    assert set(colours.values()) <= set(SEAT_COLOURS)


def linear(hex_colour: str) -> list[float]:
    channels = [int(hex_colour[n : n + 2], 16) / 255 for n in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


# Viénot, Brettel & Mollon (1999), in linear sRGB: how the two commonest deficiencies see a colour.
DICHROMATS = {
    "protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)),
    "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)),
}


@pytest.mark.parametrize("deficiency", sorted(DICHROMATS))
def test_seat_colours_stay_apart_for_colour_blind_players(deficiency: str) -> None:
    matrix = DICHROMATS[deficiency]
    seen = [
        [sum(m * c for m, c in zip(row, linear(colour), strict=True)) for row in matrix]
        for colour in SEAT_COLOURS
    ]

    gaps = [math.dist(a, b) for n, a in enumerate(seen) for b in seen[n + 1 :]]

    assert min(gaps) > 0.1, gaps


# --- hooks and text alternatives ------------------------------------------------------------------


def test_interactive_islands_and_lines_are_named_focusable_buttons() -> None:
    root = parse(render_svg(four_seat_view(), interactive=True))

    groups = of_class(root, "island") + of_class(root, "line")
    assert len(of_class(root, "island")) == 16
    for group in groups:
        (title,) = [e for e in group if local(e) == "title"]
        assert group.get("tabindex") == "0" and group.get("role") == "button"
        assert group.get("aria-label") == title.text
    assert root.get("role") == "group" and root.get("aria-label")
    bridge = of_class(root, "bridge")[0]
    assert bridge.get("aria-label", "").endswith(f"bridge of P{bridge.get('data-seat')}")
    assert "controlled by P0" in (of_class(root, "island")[0].get("aria-label") or "")


def test_a_picture_alone_is_one_image_with_a_title_and_a_description_in_words() -> None:
    root = parse(render_svg(four_seat_view()))

    assert root.get("role") == "img" and "Arabana-Opodopo board" in (root.get("aria-label") or "")
    assert not [e for e in root.iter() if e.get("tabindex") is not None]
    (desc,) = [e for e in root if local(e) == "desc"]
    assert all(f"P{n} (" in (desc.text or "") for n in range(4))
    assert all(
        [e for e in g if local(e) == "title"] for g in of_class(root, "line") + of_class(root, "island")
    )


def test_without_a_legend_the_picture_is_the_board_alone() -> None:
    root = parse(render_svg(four_seat_view(), legend=False))

    assert of_class(root, "legend") == [] and of_class(root, "legend-panel") == []
    assert float(root.get("width", "")) == float(of_class(root, "sea")[0].get("width", ""))


def test_the_board_drawn_is_the_one_the_game_module_hands_out() -> None:
    small = Board("tiny", (Island("NORTH", 3, 10, 10), Island("SOUTH", 4, 10, 50)), (("NORTH", "SOUTH"),), ())
    register_game(replace(rules_for("kahuna"), name="tiny-islands", board=lambda game: small))
    try:
        root = parse(render_svg(blank_view("tiny-islands")))
    finally:
        unregister_game("tiny-islands")

    assert sorted(circles(root)) == ["NORTH", "SOUTH"]
    assert [e.get("data-line") for e in of_class(root, "line")] == ["NORTH-SOUTH"]


# --- markers ---------------------------------------------------------------------------------------


def marker_centre(marker: ET.Element) -> Point:
    if local(marker) == "circle":
        return float(marker.get("cx", "")), float(marker.get("cy", ""))
    if local(marker) == "rect":
        half = float(marker.get("width", "")) / 2
        return float(marker.get("x", "")) + half, float(marker.get("y", "")) + half
    xs_ys = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", marker.get("d", ""))]
    xs, ys = xs_ys[0::2], xs_ys[1::2]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def crowded_markers(svg: str, room: float) -> list[str]:
    """Islands whose marker comes within `room` of a drawn line, or covers its name or god stone."""
    root = parse(svg)
    lines = [p for points in drawn_lines(root).values() for p in points]
    bad = []
    for island in of_class(root, "island"):
        for marker in of_class(island, "marker"):
            x, y = marker_centre(marker)
            (name,) = of_class(island, "name")
            size = float(name.get("font-size", ""))
            half = float(name.get("textLength") or text_width(name.text or "", size)) / 2
            nx, ny = float(name.get("x", "")), float(name.get("y", ""))
            boxes = [(nx - half, ny - 0.75 * size, nx + half, ny + 0.25 * size)]
            for stone in (e for god in of_class(island, "god") for e in god if local(e) == "rect"):
                sx, sy = float(stone.get("x", "")), float(stone.get("y", ""))
                boxes.append(
                    (sx, sy, sx + float(stone.get("width", "")), sy + float(stone.get("height", "")))
                )
            covers = any(
                x + 11 > left and x - 11 < right and y + 11 > top and y - 11 < bottom
                for left, top, right, bottom in boxes
            )
            if covers or min(math.dist((x, y), p) for p in lines) < room:
                bad.append(island.get("data-island", ""))
    return bad


@pytest.mark.parametrize("game", BOARDS)
def test_markers_stand_clear_of_lines_names_and_god_stones(game: str) -> None:
    board = load_board(game)
    view = blank_view(
        game,
        control={name: n % 4 for n, name in enumerate(board.names)},
        gods={name: "Pele" for name in board.names[::3]},
    )

    assert crowded_markers(render_svg(view), room=11) == []


@pytest.mark.parametrize("game", BOARDS)
def test_every_interactive_line_has_a_click_area_around_its_whole_stroke(game: str) -> None:
    root = parse(render_svg(blank_view(game), interactive=True))

    for line in of_class(root, "line"):
        (hit,) = of_class(line, "hit")
        (stroke,) = of_class(line, "stroke")
        band = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", hit.get("d", ""))]
        xs, ys = band[0::2], band[1::2]
        assert max(xs) - min(xs) >= 19 and max(ys) - min(ys) >= 19, line.get("data-line")
        assert hit.get("fill") == "transparent"
        for x, y in path_points(stroke.get("d", ""), samples=20):
            assert min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
