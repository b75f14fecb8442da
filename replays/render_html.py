"""A whole game as one self-contained HTML page: every step's board as inline SVG, stepped
through with buttons, a slider, the arrow keys or the move list; each step described in
words, with the annotations made on its versions (highlights outlined on the board).

Nothing is fetched: the CSS and script are inline and no address appears in the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from domain.actor import ORGANIZER, SYSTEM, WORKER, Actor
from replays.frames import Replay, Step
from replays.render_svg import render_svg, status_line
from replays.renderers import game_title

Progress = Callable[[int, int], None]
"""Called with (frames done, frames in all) while a page is rendered."""


@dataclass(frozen=True)
class PageFrame:
    """One step of the page: its board (inline SVG), its words and its annotations."""

    label: str
    description: str
    svg: str
    annotations: Sequence[Mapping[str, Any]] = ()
    version: int = 0


def game_page(replay: Replay, *, start_version: int | None = None, progress: Progress | None = None) -> str:
    """The page of `replay`: one frame per step, opening at the step of `start_version`."""
    steps = replay.steps
    frames = []
    for step in steps:
        frames.append(_frame(replay, step))
        if progress is not None:
            progress(step.index + 1, len(steps))
    last = replay.view()
    start = 0 if start_version is None else replay.step_of(start_version).index
    return render_html(_title(last), frames, subtitle=status_line(last), start=start)


def _frame(replay: Replay, step: Step) -> PageFrame:
    notes = replay.annotations_in(step)
    lit = [n for n in notes if n.get("kind") == "highlight"]
    svg = render_svg(
        replay.view(step.version),
        caption=f"step {step.index + 1} of {len(replay.steps)}",
        highlight_islands=[i for n in lit for i in n.get("islands", [])],
        highlight_lines=[line for n in lit for line in n.get("lines", [])],
        standalone=False,
    )
    who = _actor(step.actor, replay.names)
    label = f"{who} plays" if who in replay.names else (who or "the game")
    return PageFrame(label, step.description, svg, notes, step.version)


def _actor(actor: str, names: Sequence[str]) -> str:
    try:
        who = Actor.parse(actor)
    except ValueError:
        return actor
    if who.seat is not None:
        return names[who.seat] if who.seat < len(names) else actor
    return {SYSTEM: "the dealer", WORKER: "scoring", ORGANIZER: "setup"}[who]


def _title(view: Mapping[str, Any]) -> str:
    names = [str(s["name"]) for s in view.get("seats", [])]
    return f"{game_title(view)}: {' vs '.join(names)}"


def annotation_text(note: Mapping[str, Any]) -> str:
    """One annotation in words: "Ana !? — text", "Ben highlights ALOA, BARI–DUDA — text"."""
    who = str(note.get("layer", "?"))
    if note.get("author_kind") == "analysis":
        who += " (analysis)"
    kind = note.get("kind")
    if kind == "mark":
        head = f"{who} {note.get('mark', '')}"
    elif kind == "highlight":
        shown = list(note.get("islands", [])) + ["–".join(line) for line in note.get("lines", [])]
        head = f"{who} highlights {', '.join(shown)}"
    else:
        head = who
    text = note.get("text")
    if not text:
        return head
    return f"{head}: {text}" if kind == "comment" else f"{head} — {text}"


# --- the page ------------------------------------------------------------------------------


def render_html(title: str, frames: Sequence[PageFrame], *, subtitle: str = "", start: int = 0) -> str:
    """The page: `frames` in order, the one at index `start` shown first."""
    if not frames:
        raise ValueError("a page needs at least one frame")
    start = max(0, min(start, len(frames) - 1))
    body = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        f'<body data-start="{start}">',
        f"<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header>",
        _controls(len(frames), start),
        '<main><div id="frames">',
        *(_frame_html(n, frame, n == start, len(frames)) for n, frame in enumerate(frames)),
        "</div>",
        _move_list(frames, start),
        "</main>",
        "<footer>Keys: ← → step, Home / End first / last. Made by the replays tool.</footer>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
    ]
    return "\n".join(body) + "\n"


def _controls(count: int, start: int) -> str:
    return (
        '<nav id="controls">'
        '<button type="button" data-go="first" title="First step (Home)">« First</button>'
        '<button type="button" data-go="prev" title="Previous step (←)">‹ Previous</button>'
        '<button type="button" data-go="next" title="Next step (→)">Next ›</button>'
        '<button type="button" data-go="last" title="Last step (End)">Last »</button>'
        f'<input id="slider" type="range" min="0" max="{count - 1}" value="{start}" aria-label="Step">'
        f'<span id="counter">{start + 1} / {count}</span>'
        "</nav>"
    )


def _frame_html(index: int, frame: PageFrame, shown: bool, count: int) -> str:
    notes = "".join(
        f'<li class="note {_kind(n)}">{escape(annotation_text(n))}</li>' for n in frame.annotations
    )
    hidden = "" if shown else " hidden"
    return (
        f'<section class="frame" id="step-{index + 1}" data-step="{index}" '
        f'data-version="{frame.version}"{hidden}>'
        f'<div class="board">{frame.svg}</div>'
        '<div class="info">'
        f'<p class="where">Step {index + 1} of {count} · {escape(frame.label)}</p>'
        f'<p class="what">{escape(frame.description)}</p>'
        + (f'<ul class="notes">{notes}</ul>' if notes else "")
        + "</div></section>"
    )


def _kind(note: Mapping[str, Any]) -> str:
    kind = str(note.get("kind", ""))
    return kind if kind in ("comment", "mark", "highlight") else "other"


def _move_list(frames: Sequence[PageFrame], start: int) -> str:
    items = []
    for n, frame in enumerate(frames):
        marks = " ".join(
            str(a["mark"]) for a in frame.annotations if a.get("kind") == "mark" and a.get("mark")
        )
        badge = f' <span class="badge">{escape(marks)}</span>' if marks else ""
        talk = (
            ' <span class="badge">✎</span>' if any(a.get("kind") != "mark" for a in frame.annotations) else ""
        )
        current = ' class="current"' if n == start else ""
        items.append(
            f'<li data-step="{n}"{current}><span class="num">{n + 1}.</span> {escape(frame.description)}'
            f"{badge}{talk}</li>"
        )
    return f'<aside><h2>Moves</h2><ol id="moves">{"".join(items)}</ol></aside>'


CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:"DejaVu Sans",Verdana,Arial,sans-serif;color:#2b2b2b;background:#f4f1e8}
header{padding:10px 18px;background:#24495e;color:#fff}
header h1{margin:0;font-size:22px}header p{margin:4px 0 0;font-size:14px;opacity:.9}
#controls{position:sticky;top:0;z-index:2;display:flex;gap:8px;align-items:center;padding:8px 18px;
background:#fbfaf5;border-bottom:1px solid #d8d2c0}
#controls button{font-size:15px;min-width:44px;padding:4px 8px;border:1px solid #a89f86;border-radius:6px;
background:#fff;cursor:pointer}
#controls button:focus-visible,#slider:focus-visible{outline:3px solid #ffb000}
#slider{flex:1;min-width:120px}
#counter{font-variant-numeric:tabular-nums;min-width:90px;text-align:right}
main{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:12px;padding:12px 18px}
.frame[hidden]{display:none}
.board svg{width:100%;height:auto;max-height:78vh;display:block;border:1px solid #d8d2c0;border-radius:6px}
.info{padding:8px 2px}
.where{margin:0;font-size:13px;color:#5d6d7e}.what{margin:6px 0;font-size:17px}
.notes{margin:6px 0;padding-left:20px}.note{margin:3px 0}
.note.mark{font-weight:bold}.note.highlight{color:#8a5a00}
aside{max-height:calc(100vh - 140px);overflow:auto;position:sticky;top:56px;background:#fbfaf5;
border:1px solid #d8d2c0;border-radius:6px;padding:4px 10px}
aside h2{font-size:16px;margin:6px 0}
#moves{list-style:none;margin:0;padding:0;font-size:13px}
#moves li{padding:3px 4px;border-radius:4px;cursor:pointer}
#moves li:hover{background:#ece6d3}#moves li.current{background:#ffe2a0}
.num{color:#5d6d7e}.badge{font-weight:bold;color:#8a5a00}
footer{padding:8px 18px 16px;font-size:12px;color:#5d6d7e}
@media (max-width:900px){main{grid-template-columns:1fr}aside{position:static;max-height:40vh}}
"""

SCRIPT = """
(function () {
  "use strict";
  var frames = document.querySelectorAll(".frame");
  var moves = document.querySelectorAll("#moves li");
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var current = -1;
  function show(n) {
    n = Math.max(0, Math.min(frames.length - 1, n));
    if (n === current) { return; }
    if (current >= 0) { frames[current].hidden = true; moves[current].classList.remove("current"); }
    frames[n].hidden = false;
    moves[n].classList.add("current");
    moves[n].scrollIntoView({block: "nearest"});
    slider.value = String(n);
    counter.textContent = (n + 1) + " / " + frames.length;
    current = n;
  }
  var go = {
    first: function () { show(0); },
    prev: function () { show(current - 1); },
    next: function () { show(current + 1); },
    last: function () { show(frames.length - 1); }
  };
  document.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () { go[button.getAttribute("data-go")](); });
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  moves.forEach(function (item) {
    item.addEventListener("click", function () { show(parseInt(item.getAttribute("data-step"), 10)); });
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "TEXTAREA" || (tag === "INPUT" && event.target.type !== "range")) { return; }
    var keys = {ArrowLeft: go.prev, ArrowRight: go.next, Home: go.first, End: go.last};
    if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
  });
  var wanted = /^#step-(\\d+)$/.exec(window.location.hash);
  frames.forEach(function (frame) { frame.hidden = true; });
  moves.forEach(function (item) { item.classList.remove("current"); });
  var start = parseInt(document.body.getAttribute("data-start"), 10) || 0;
  show(wanted ? parseInt(wanted[1], 10) - 1 : start);
})();
"""
