"""Hidden Nim's renderer (kind "hidden-nim"): the stones each seat took, the pile as "?" until
the end, in SVG and text, and the game's notation. Registered by the test suite with the game."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from replays.renderers import Drawing, Renderer, game_title
from tests.families.hidden_nim.rules import TAKEN, WON

STONE = 16


def status(view: Mapping[str, Any]) -> str:
    """ "Ann to take", or who took the last stone."""
    names = [str(s.get("name")) for s in view.get("seats", [])]
    result = view.get("result")
    if result:
        return f"Game over: {names[int(result['winner'])]} took the last of {result.get('stones')} stones"
    if view.get("phase") == "dealing":
        return "The pile is being dealt"
    return f"{names[int(view.get('active', 0))]} to take"


def svg(view: Mapping[str, Any], drawing: Drawing) -> str:
    """Each seat's stones in a row, and the pile, hidden until the end."""
    seats = view.get("seats", [])
    width, height = 40 + STONE * 16, 60 + 40 * len(seats)
    xmlns = ' xmlns="http://www.w3.org/2000/svg"' if drawing.standalone else ""
    parts = [f'<svg{xmlns} viewBox="0 0 {width} {height}" role="img" aria-label="{escape(status(view))}">']
    parts.append(f"<title>{escape(game_title(view))} board</title>")
    pile = view.get("pile")
    parts.append(f'<text x="10" y="24">Pile: {"?" if pile is None else pile}</text>')
    for n, seat in enumerate(seats):
        y = 50 + 40 * n
        parts.append(f'<text x="10" y="{y + 5}">{escape(str(seat.get("name")))}</text>')
        for k in range(int((view.get("taken") or [0, 0])[n])):
            parts.append(f'<circle cx="{90 + k * STONE}" cy="{y}" r="6" fill="#777"/>')
    if drawing.legend and drawing.caption:
        parts.append(f'<text x="10" y="{height - 6}">{escape(drawing.caption)}</text>')
    return "".join(parts) + "</svg>"


def text(view: Mapping[str, Any], board: Any) -> list[str]:
    pile = view.get("pile")
    lines = [f"Pile: {'?' if pile is None else pile}"]
    taken = view.get("taken") or []
    lines += [f"{s.get('name')}: took {taken[n]}" for n, s in enumerate(view.get("seats", []))]
    return lines


@dataclass(frozen=True)
class NimRecord:
    tags: tuple[tuple[str, str], ...]
    takes: tuple[tuple[str, int], ...]


def notation(events: Sequence[Mapping[str, Any]], viewer: str | None) -> str:
    """`[Game "hidden-nim"]`, the seats, then one line per take: `3. Ann: 2`; the end's `*stones`."""
    setup = dict(events[0].get("data") or {}) if events else {}
    names = [str(s.get("name")) for s in setup.get("seats", [])]
    out = [f"[Game {json.dumps(setup.get('game', ''))}]"]
    out += [f"[Seat{n + 1} {json.dumps(name)}]" for n, name in enumerate(names)]
    if viewer is not None:
        out.append(f"[Viewer {json.dumps(viewer)}]")
    out += [f"[Result {json.dumps(_result(events, names))}]", ""]
    number = 0
    for event in events:
        data = event.get("data") or {}
        if event.get("type") == TAKEN:
            number += 1
            out.append(f"{number}. {names[int(data['seat'])]}: {data['count']}")
        elif event.get("type") == WON:
            out.append(f"end: {names[int(data['winner'])]} *{data.get('stones')}")
        elif event.get("type") in ("Undone", "Corrected"):
            out.append(f"back: {data.get('to_version')}")
    return "\n".join(out) + "\n"


def _result(events: Sequence[Mapping[str, Any]], names: list[str]) -> str:
    """The winners' names ("+" between them), "*" while in play or with no result."""
    last = events[-1] if events else {}
    data = last.get("data") or {}
    if last.get("type") == WON:
        return names[int(data["winner"])]
    if last.get("type") == "GameResigned":
        return "+".join(names[int(w)] for w in data.get("winners") or ()) or "*"
    return "*"


_TAG = re.compile(r'\[(\w+) ("(?:[^"\\]|\\.)*")\]')
_TAKE = re.compile(r"\d+\. (.+): (\d)")


def parse(source: str) -> NimRecord:
    """The record a notation text holds; ValueError naming a line it cannot read."""
    tags, takes = [], []
    for number, line in enumerate(source.splitlines(), start=1):
        tag, take = _TAG.fullmatch(line), _TAKE.fullmatch(line)
        if tag is not None:
            tags.append((tag.group(1), str(json.loads(tag.group(2)))))
        elif take is not None:
            takes.append((take.group(1), int(take.group(2))))
        elif line and not line.startswith(("end: ", "back: ")):
            raise ValueError(f"line {number}: {line!r} is not hidden nim's notation")
    return NimRecord(tuple(tags), tuple(takes))


RENDERER = Renderer(kind="hidden-nim", svg=svg, text=text, status=status, notation=notation, parse=parse)
