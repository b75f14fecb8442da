"""The Nanuuk! board picture read as a player reads it: cells, water, igloos, cracks, pieces.

Every check reads the drawn SVG (path data, circles, text, attributes), never the
renderer's own helpers, so a drawing that looks wrong fails here whatever the code meant.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

from replays.render_svg import render_svg
from replays.render_text import show_text

Point = tuple[float, float]
BOARD = json.loads(resources.files("domain.nanuuk").joinpath("boards/nanuuk.json").read_text())


def a_view(**more: Any) -> dict[str, Any]:
    """A 3-seat Nanuuk! position as the rules' view gives it (docs/nanuuk.md)."""
    water = BOARD["not_in_3_player_game"]
    view = {
        "game": "nanuuk",
        "phase": "play",
        "active": 1,
        "to_act": [1],
        "result": None,
        "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Ben"}, {"seat": 2, "name": "Cid <3>"}],
        "ice": [c for c in BOARD["cells"] if c not in water],
        "water": water,
        "igloos": BOARD["igloos"],
        "cracks": [[[0, 1], [1, 0]], [[-1, 0], [0, -1]]],
        "pieces": [
            {"piece": 0, "kind": "hunter", "seat": 0, "cell": [-2, 2], "retired": False, "out": False},
            {"piece": 1, "kind": "hunter", "seat": 1, "cell": [-2, 2], "retired": False, "out": False},
            {"piece": 2, "kind": "hunter", "seat": 2, "cell": [1, 0], "retired": False, "out": False},
            {"piece": 3, "kind": "bear", "seat": None, "cell": [0, 1], "retired": False, "out": False},
        ],
        "tokens": [
            {"cell": [1, 0], "kind": "fish"},
            {"cell": [-2, 1], "kind": "whale"},
            {"cell": [-1, 0], "kind": "inuk"},
        ],
        "sheets": [
            {
                "piece": n,
                "seat": n,
                "carried": {"equipment": ["harpoon"], "animals": ["seal"] if n == 0 else [], "inuk": n == 0},
                "igloo": {
                    "equipment": ["husky", "sled", "kayak"],
                    "animals": {"fish": 0, "seal": 0, "walrus": 2 if n == 1 else 0, "whale": 0},
                    "inuit": 0,
                },
            }
            for n in range(3)
        ],
        "scores": [2, 6, 0],
        "pending": None,
    }
    return {**view, **more}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def points(d: str) -> list[Point]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def hexagons(root: ET.Element) -> dict[str, list[Point]]:
    """Each ice cell's drawn hexagon, by its data-cell."""
    found = {}
    for cell in of_class(root, "cell"):
        (ice,) = of_class(cell, "ice")
        found[cell.get("data-cell", "")] = points(ice.get("d", ""))
    return found


def inside(p: Point, polygon: list[Point]) -> bool:
    """Whether `p` lies inside the convex `polygon` (every edge turns the same way)."""
    signs = set()
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        signs.add((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0)
    return len(signs) == 1


def name(cell: list[int]) -> str:
    return f"{cell[0]},{cell[1]}"


def test_every_cell_of_ice_is_a_hexagon_and_left_out_cells_are_water() -> None:
    view = a_view()
    root = parse(render_svg(view))
    drawn = hexagons(root)
    assert set(drawn) == {name(c) for c in view["ice"]}
    assert {w.get("data-cell") for w in of_class(root, "water")} == {name(c) for c in view["water"]}
    for corners in drawn.values():
        sides = [math.dist(a, b) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)]
        assert len(corners) == 6 and max(sides) - min(sides) < 0.5
    assert {c.get("data-cell") for c in of_class(root, "igloo")} == {name(c) for c in view["igloos"]}


def test_neighbouring_cells_share_a_side_and_do_not_overlap() -> None:
    drawn = hexagons(parse(render_svg(a_view())))
    a, b = drawn["0,1"], drawn["1,0"]
    shared = [p for p in a if any(math.dist(p, q) < 0.2 for q in b)]
    assert len(shared) == 2
    centre_b = (sum(x for x, _ in b) / 6, sum(y for _, y in b) / 6)
    assert not inside(centre_b, a)


def test_a_crack_lies_on_the_side_its_two_cells_share() -> None:
    root = parse(render_svg(a_view()))
    drawn = hexagons(root)
    cracks = of_class(root, "crack")
    assert sorted(c.get("data-line") for c in cracks) == ["-1,0|0,-1", "0,1|1,0"]
    for crack in cracks:
        first, second = crack.get("data-line", "").split("|")
        (stroke,) = of_class(crack, "stroke")
        line = points(stroke.get("d", ""))
        shared = [p for p in drawn[first] if any(math.dist(p, q) < 0.2 for q in drawn[second])]
        ends = {line[0], line[-1]}
        assert all(any(math.dist(end, corner) < 0.2 for corner in shared) for end in ends)
    free = of_class(root, "free")
    assert free and all(not of_class(line, "stroke") for line in free)


def test_pieces_and_tokens_stand_inside_their_cells() -> None:
    view = a_view()
    root = parse(render_svg(view))
    drawn = hexagons(root)
    where = {p["piece"]: name(p["cell"]) for p in view["pieces"]}
    things = of_class(root, "thing")
    assert len(things) == len(view["pieces"]) + len(view["tokens"])
    for thing in things:
        circle = next(e for e in thing.iter() if e.tag.endswith("circle"))
        centre = (float(circle.get("cx", "")), float(circle.get("cy", "")))
        if thing.get("data-piece") is not None:
            assert inside(centre, drawn[where[int(thing.get("data-piece", ""))]])
    (fish,) = [t for t in things if t.get("data-kind") == "fish"]
    fish_circle = next(e for e in fish.iter() if e.tag.endswith("circle"))
    assert inside((float(fish_circle.get("cx", "")), float(fish_circle.get("cy", ""))), drawn["1,0"])
    hunters = [t for t in things if t.get("data-kind") == "hunter"]
    assert sorted(h.get("data-seat") for h in hunters) == ["0", "1", "2"]


def test_the_legend_shows_scores_and_each_player_sheet_carried_and_in_the_igloo() -> None:
    svg = render_svg(a_view())
    texts = " ".join(t.text or "" for t in parse(svg).iter() if t.tag.endswith("text"))
    assert "Ana · 2 points" in texts and "Ben · 6 points ◀" in texts and "Cid <3> · 0 points" in texts
    assert "carries: harpoon, seal, an Inuk" in texts
    assert "in the igloo: husky, sled, kayak, 2 walrus" in texts


def test_the_same_view_gives_the_same_bytes_and_interactive_cells_are_buttons() -> None:
    view = a_view()
    assert render_svg(view) == render_svg(json.loads(json.dumps(view)))
    root = parse(render_svg(view, interactive=True, standalone=False))
    cells = of_class(root, "cell")
    assert cells and all(c.get("role") == "button" and c.get("tabindex") == "0" for c in cells)
    assert all(line.get("role") == "button" for line in of_class(root, "line"))


def test_highlights_outline_the_cells_and_lines_named() -> None:
    root = parse(render_svg(a_view(), highlight_islands=["0,-1"], highlight_lines=[["1,0", "1,1"]]))
    assert [c.get("data-cell") for c in of_class(root, "cell") if "lit" in c.get("class", "")] == ["0,-1"]
    assert [line.get("data-line") for line in of_class(root, "lit") if "line" in line.get("class", "")] == [
        "1,0|1,1"
    ]


def test_a_learning_game_draws_seated_bears_and_inuit_in_their_seat_colour() -> None:
    view = a_view(
        game="nanuuk-bear-hunt",
        igloos=[],
        tokens=[],
        sheets=[],
        pieces=[
            {"piece": 0, "kind": "bear", "seat": 0, "cell": [0, 1], "retired": False, "out": False},
            {"piece": 1, "kind": "inuk", "seat": 1, "cell": [1, 1], "retired": False, "out": False},
            {"piece": 2, "kind": "inuk", "seat": 2, "cell": [2, -1], "retired": False, "out": True},
        ],
    )
    root = parse(render_svg(view))
    things = of_class(root, "thing")
    assert [(t.get("data-kind"), t.get("data-seat")) for t in things] == [("bear", "0"), ("inuk", "1")]
    assert not of_class(root, "igloo")


def test_the_end_names_the_winners() -> None:
    view = a_view(
        phase="ended", result={"winner": None, "winners": [1, 2], "totals": [0, 1, 1], "reason": "bear"}
    )
    assert "Game over: Ben and Cid <3> win (bear)" in render_svg(view).replace("&lt;", "<").replace(
        "&gt;", ">"
    )


def test_the_text_board_lists_seats_sheets_pieces_and_cracks() -> None:
    text = show_text(a_view())
    assert "1 Ben  6 points ◀" in text
    assert "carries: harpoon, seal, an Inuk" in text
    assert "-2,2 igloo  hunter of Ana, hunter of Ben" in text
    assert "1,0         fish, hunter of Cid <3>" in text
    assert "Cracks (2): -1,0|0,-1 0,1|1,0" in text


def test_a_whole_game_file_becomes_a_page_of_hex_boards_with_its_highlight_outlined() -> None:
    """The offline page of a recorded Nanuuk! game (replays html): one hex board per step."""
    import random as random_

    from ai.table import Table
    from record.chain import ZERO_HASH, seal
    from record.envelope import NewEvent
    from replays import archive
    from replays.frames import replay
    from replays.render_html import game_page

    at = "2026-11-24T02:00:00.000000Z"
    setup = {"game": "nanuuk", "seats": [{"name": "Ana"}, {"name": "Ben"}], "first_seat": 0}
    table = Table(setup, random_.Random(2))
    rng = random_.Random(2)
    batches = [("organizer", "create", list(table.events))]
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        batches.append((f"seat:{seat}", f"c{len(batches)}", table.play(rng.choice(table.legal(seat)))))
    envelopes: list[Any] = []
    for actor, command_id, events in batches:
        new = [NewEvent.recording(e, i, actor, command_id) for i, e in enumerate(events)]
        envelopes += seal(new, len(envelopes), at, envelopes[-1].hash if envelopes else ZERO_HASH)
    note = {
        "layer": "Kibitz",
        "author_kind": "guest",
        "version": 5,
        "kind": "highlight",
        "islands": ["0,-1"],
        "lines": [["1,0", "1,1"]],
        "at": at,
    }
    played = replay(archive.read(archive.export(envelopes, None, True, [note])))

    page = game_page(played)

    frames = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    assert len(frames) == len(played.steps) and all('class="board hex"' in f for f in frames)
    lit = [f for f in frames if 'class="cell lit" data-cell="0,-1"' in f]
    assert len(lit) == 1
    assert re.search(r'class="line (free|crack) lit" data-line="1,0\|1,1"', lit[0])
    last = parse(frames[-1])
    assert len(of_class(last, "crack")) == len(table.state.cracks)
