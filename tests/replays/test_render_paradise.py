"""The Conquest of Paradise map as SVG: fog on unexplored hexes, a face-down tile as "?" to
whoever has not examined it, stacks by their visible top, highlights, the same bytes each time."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from domain.games import rules_for
from domain.turns import Seats
from replays.render_svg import render_svg

GAME = rules_for("conquest-of-paradise")


def played(steps: int, seed: int = 5) -> object:
    rng = random.Random(seed)
    state = GAME.initial_state({"game": GAME.name, "seats": [{"name": n} for n in ("Ann", "Ben", "Cai")]})
    for _ in range(steps):
        request = GAME.pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            acting = GAME.to_act(state)
            assert isinstance(acting, Seats)
            command = rng.choice(list(GAME.legal_commands(state, acting.seats[0])))
        _, state = GAME.apply(state, command)
    return state


def labels(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-hex="(\d+,\d+)"><title>([^<]*)</title>', svg))


def test_the_map_is_well_formed_svg_and_the_same_bytes_each_time() -> None:
    view = GAME.view(played(60), 0)
    svg = render_svg(view, caption="version 60")
    ET.fromstring(svg.split("\n", 1)[1])
    assert svg == render_svg(view, caption="version 60")
    assert len(labels(svg)) == 160 and "version 60" in svg


def test_unexplored_hexes_are_fog_and_unexamined_tiles_nameless() -> None:
    state = played(80)
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        said = labels(render_svg(view))
        for col, row in view["unknown"]:
            assert said[f"{col},{row}"].endswith("unexplored")
        for island in view["islands"]:
            key = f"{island['hex'][0]},{island['hex'][1]}"
            assert (island.get("name", "a face-down island tile")) in said[key]
            if "name" not in island:
                assert "?" in render_svg(view)


def test_a_stack_shows_its_height_and_a_face_up_transport_on_top() -> None:
    view = GAME.view(played(60), None)
    stack = dict(view["stacks"][0])
    stack["face_up_transport"] = True
    shown = {**view, "stacks": [stack]}
    key = f"{stack['hex'][0]},{stack['hex'][1]}"
    said = labels(render_svg(shown))[key]
    assert f"stack of {stack['count']}, a face-up transport on top" in said
    hidden = {**view, "stacks": [{**stack, "face_up_transport": False}]}
    assert "face down" in labels(render_svg(hidden))[key]


def test_a_highlighted_hex_is_outlined() -> None:
    view = GAME.view(played(10), None)
    plain, lit = render_svg(view), render_svg(view, highlight_islands=["5,6"])
    assert plain != lit and 'data-hex="5,6"' in lit
    hex_56 = lit.split('data-hex="5,6"')[1].split("</g>")[0]
    assert "#ffb000" in hex_56 and "#ffb000" not in plain
