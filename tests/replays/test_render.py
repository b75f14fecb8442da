"""Rendering a game file: the board as SVG, the whole game as one HTML page, the board as text.

Random whole games of all three island games (sealed as the store would hold them) are
exported, replayed for a viewer and drawn; the drawings are checked against the board files
and the views, never against stored pictures.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from domain.islands.board import load_board
from record.envelope import Envelope
from replays import archive
from replays.frames import UNKNOWN, Replay, ReplayError, replay
from replays.render_html import game_page
from replays.render_svg import GOD_LABELS, render_svg
from replays.render_text import show_text
from tests.replays.play import sealed_game, setup_of

# One variant of each game, with ships and god stones drawn too.
GAMES = {"kahuna": "kahuna", "arabana-ikibiti": "ikibiti-ships", "arabana-opodopo": "opodopo-gods"}
AT = "2026-11-22T10:05:00.000000Z"


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> list[Envelope]:
    return sealed_game(random.Random(11), setup_of(GAMES[request.param]))


def island_names(game: list[Envelope]) -> list[str]:
    return list(load_board(game[0].data["game"]).names)


def notes_for(game: list[Envelope]) -> list[dict[str, Any]]:
    """A comment, a mark and a highlight (an island and a line) on versions of `game`."""
    board = load_board(game[0].data["game"])
    return [
        {
            "layer": "Kibitz",
            "author_kind": "guest",
            "version": 12,
            "kind": "comment",
            "text": "A <bold> & odd move",
            "at": AT,
        },
        {"layer": "Kibitz", "author_kind": "guest", "version": 30, "kind": "mark", "mark": "!?", "at": AT},
        {
            "layer": "engine",
            "author_kind": "analysis",
            "version": 30,
            "kind": "highlight",
            "islands": [board.names[0]],
            "lines": [list(board.lines[-1])],
            "at": AT,
        },
    ]


def replayed(game: list[Envelope], viewer: int | None = None, revealed: bool = True, **kw: Any) -> Replay:
    content = archive.export(game, viewer, revealed, notes_for(game) if revealed else [])
    return replay(archive.read(content), **kw)


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag.endswith("svg")
    return root


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


# --- the board as SVG ------------------------------------------------------------------------


def test_the_svg_parses_and_shows_every_island_and_every_bridge_place(game: list[Envelope]) -> None:
    played = replayed(game)
    board = load_board(game[0].data["game"])
    for version in (2, played.last_version // 2, played.last_version):
        view = played.view(version)

        root = parse_svg(render_svg(view, board))

        texts = {t.text for t in root.iter() if t.tag.endswith("text")}
        assert set(board.names) <= texts
        lines = of_class(root, "line")
        assert sorted(e.get("data-line") for e in lines) == sorted(f"{a}-{b}" for a, b in board.lines)
        bridged = {e.get("data-line"): int(e.get("data-seat", -1)) for e in of_class(root, "bridge")}
        assert bridged == {"-".join(sorted(b["line"])): b["seat"] for b in view["bridges"]}
        assert all(
            "stroke-dasharray" in stroke.attrib
            for e in of_class(root, "free")
            for stroke in of_class(e, "stroke")
        )


def test_markers_ships_and_god_stones_stand_where_the_view_has_them(game: list[Envelope]) -> None:
    played = replayed(game)
    seen: dict[str, int] = {"marker": 0, "ship": 0, "god": 0}
    for version in range(2, played.last_version + 1, 7):
        view = played.view(version)
        root = parse_svg(render_svg(view))

        markers = {}
        for island in of_class(root, "island"):
            for marker in of_class(island, "marker"):
                markers[island.get("data-island")] = int(marker.get("data-seat", -1))
        assert markers == view["control"]
        ships = sorted((e.get("data-sea"), int(e.get("data-seat", -1))) for e in of_class(root, "ship"))
        assert ships == sorted(("-".join(s["sea"]), s["seat"]) for s in view.get("ships", []))
        gods = {god.get("data-on"): god.get("data-god") for god in of_class(root, "god")}
        assert gods == view.get("gods", {})
        for name, found in (("marker", markers), ("ship", ships), ("god", gods)):
            seen[name] += len(found)
    game_name = game[0].data["game"]
    assert seen["marker"] > 0
    assert (seen["ship"] > 0) == (game_name == "arabana-ikibiti")
    assert (seen["god"] > 0) == (game_name == "arabana-opodopo")


def test_the_legend_names_each_seat_with_its_score_and_the_round(game: list[Envelope]) -> None:
    view = replayed(game).view()
    root = parse_svg(render_svg(view, caption="version 9"))

    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for seat in view["seats"]:
        assert f"{seat['name']} · {seat['score']} points" in text
    assert "version 9" in text and "Game over" in text
    if "gods" in view:
        assert all(label in text for label in GOD_LABELS.values())


def test_the_same_view_always_gives_the_same_bytes(game: list[Envelope]) -> None:
    view = replayed(game).view(40)

    assert render_svg(view) == render_svg(dict(view)) == render_svg(replayed(game).view(40))


def test_highlights_are_outlined_and_text_is_escaped() -> None:
    setup = {**setup_of("kahuna"), "seats": [{"name": 'Ana <"&>'}, {"name": "Ben & Co"}]}
    view = replay(archive.read(archive.export(sealed_game(random.Random(3), setup), None, True))).view(30)

    svg = render_svg(
        view, highlight_islands=["LALE"], highlight_lines=[["KAHU", "COCO"]], notes=["<script>x</script> & y"]
    )

    root = parse_svg(svg)
    assert [e.get("data-line") for e in of_class(root, "lit") if e.get("data-line")] == ["COCO-KAHU"]
    assert len([e for e in of_class(root, "highlight") if e.tag.endswith("path")]) == 1
    lit = [i.get("data-island") for i in of_class(root, "island") if of_class(i, "highlight")]
    assert lit == ["LALE"]
    texts = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    assert 'Ana <"&>' in texts and "<script>x</script> & y" in texts
    assert "<script>" not in svg


def test_an_svg_for_inlining_has_no_declaration_and_no_namespace_address(game: list[Envelope]) -> None:
    svg = render_svg(replayed(game).view(), standalone=False)

    assert svg.startswith("<svg ") and "http" not in svg
    parse_svg(svg)


# --- the views a file gives ---------------------------------------------------------------------


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_a_redacted_file_gives_the_viewer_exactly_the_views_the_complete_file_does(
    game: list[Envelope], viewer: int | None
) -> None:
    complete = replayed(game)
    redacted = replayed(game, viewer, revealed=False)

    assert redacted.viewer == viewer and not redacted.archive.complete
    for version in range(1, complete.last_version + 1):
        expected = complete.rules.view(complete.states[version], viewer)
        shown = redacted.view(version)
        assert {k: v for k, v in shown.items() if k not in ("version", "latest_version")} == expected
        assert UNKNOWN not in expected.get("hand", [])


def test_a_complete_file_shows_every_hand_and_may_be_viewed_as_any_seat(game: list[Envelope]) -> None:
    played = replayed(game, seat="Ben")

    view = played.view(20)

    assert view["viewer"] == 1 and "hand" in view
    assert [len(hand) for hand in view["hands"]] == [s["hand_count"] for s in view["seats"]]


def test_a_redacted_file_is_shown_only_to_its_own_viewer(game: list[Envelope]) -> None:
    with pytest.raises(ReplayError, match="exported for Ana"):
        replayed(game, 0, revealed=False, seat=1)


def test_the_steps_are_the_commands_of_the_game_described_in_words(game: list[Envelope]) -> None:
    played = replayed(game)

    steps = played.steps

    assert len(steps) == len({e.command_id for e in game})
    assert [v for s in steps for v in range(s.first_version, s.version + 1)] == list(range(1, len(game) + 1))
    assert all(step.description for step in steps)
    assert any(re.search(r"\bplays\b", step.description) for step in steps)


# --- the whole game as HTML -------------------------------------------------------------------


def frames_of(page: str) -> list[str]:
    return re.findall(r'<section class="frame".*?</section>', page, flags=re.S)


def test_the_page_has_one_frame_per_step_and_nothing_from_elsewhere(game: list[Envelope]) -> None:
    played = replayed(game)
    done: list[tuple[int, int]] = []

    page = game_page(played, progress=lambda n, total: done.append((n, total)))

    frames = frames_of(page)
    assert len(frames) == len(played.steps) and done[-1] == (len(played.steps), len(played.steps))
    assert page.count("<svg ") == len(frames)
    for frame in frames[:: max(1, len(frames) // 12)]:
        svg = re.search(r"<svg .*?</svg>", frame, flags=re.S)
        assert svg is not None
        root = parse_svg(svg.group(0))
        assert set(island_names(game)) <= {t.text for t in root.iter() if t.tag.endswith("text")}
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, flags=re.I)
    assert "http://" not in page and "https://" not in page
    assert "<script src" not in page and "<link" not in page
    for word in ("first", "prev", "next", "last", 'id="slider"', "ArrowLeft", "ArrowRight"):
        assert word in page


def test_each_step_shows_its_words_and_the_annotations_on_its_versions(game: list[Envelope]) -> None:
    played = replayed(game)

    frames = frames_of(game_page(played))

    for step, frame in zip(played.steps, frames, strict=True):
        assert f'data-version="{step.version}"' in frame
        assert step.description.replace("&", "&amp;").replace("<", "&lt;") in frame.replace("&#x27;", "'")
    commented = frames[played.step_of(12).index]
    assert "Kibitz: A &lt;bold&gt; &amp; odd move" in commented
    marked = frames[played.step_of(30).index]
    assert "Kibitz !?" in marked and "engine (analysis) highlights" in marked
    assert marked.count('class="highlight"') == 2
    others = [
        f for n, f in enumerate(frames) if n not in (played.step_of(12).index, played.step_of(30).index)
    ]
    assert not any('class="highlight"' in f or 'class="notes"' in f for f in others)


def test_the_page_opens_at_the_step_of_the_version_asked_for(game: list[Envelope]) -> None:
    played = replayed(game)

    page = game_page(played, start_version=30)

    shown = [f for f in frames_of(page) if " hidden>" not in f.split(">", 1)[0] + ">"]
    assert len(shown) == 1 and f'data-step="{played.step_of(30).index}"' in shown[0]


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on this machine")
def test_a_browser_runs_the_page_and_opens_the_step_named_in_the_address(tmp_path: Path) -> None:
    played = replayed(sealed_game(random.Random(11), setup_of("kahuna")))
    page = tmp_path / "game.html"
    page.write_text(game_page(played), encoding="utf-8")
    command = [
        str(BROWSER),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--dump-dom",
        page.as_uri() + "#step-5",
    ]

    dom = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout

    assert f'<span id="counter">5 / {len(played.steps)}</span>' in dom
    shown = re.findall(r'<section class="frame" id="step-(\d+)"[^>]*?data-version="\d+">', dom)
    assert shown == ["5"]
    assert '<li data-step="4" class="current">' in dom


# --- the board as text ------------------------------------------------------------------------


def test_the_text_board_lists_islands_bridges_seats_and_the_viewers_hand(game: list[Envelope]) -> None:
    played = replayed(game, seat=0)
    view = played.view(played.last_version // 2)

    text = show_text(view)

    assert all(name in text for name in island_names(game))
    assert all(seat["name"] in text for seat in view["seats"])
    assert f"{len(view['bridges'])} of {len(load_board(view['game']).lines)} bridge places taken" in text
    assert f"Your hand (Ana): {', '.join(view['hand']) or 'empty'}" in text
    for ship in view.get("ships", []):
        assert "-".join(ship["sea"]) in text


def test_one_point_is_a_point_in_the_legend_and_the_text_board(game: list[Envelope]) -> None:
    view = replayed(game).view()
    view = {**view, "seats": [{**seat, "score": 1} for seat in view["seats"]]}

    svg_text = " ".join(t.text or "" for t in parse_svg(render_svg(view)).iter() if t.tag.endswith("text"))
    board_text = show_text(view)

    assert "1 points" not in svg_text and "1 points" not in board_text
    assert f"{view['seats'][0]['name']} · 1 point" in svg_text
    assert re.search(r"\b1 point\b", board_text)
