"""Reading the notation of Conquest of Paradise (replays.notation.paradise writes it)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from replays.notation.lexicon import read_tags
from replays.notation.model import NotationError
from replays.notation.paradise import (
    HIDDEN,
    SEAT_KEYS,
    SEAT_LISTS,
    STOPS,
    ParadiseRecord,
    PhaseNote,
    Step,
    Told,
)

_PHASE = re.compile(r"T(\d+|\?) ([a-z_]+):")
_STEP = re.compile(r'(\d+)\. ("(?:[^"\\]|\\.)*"|[^:]+): (.*)')
_HEXES = re.compile(r"\d+\.\d+(?:>\d+\.\d+)*")
_LOAD = r"\d+|\d*[a-z_]+(?:&\d*[a-z_]+)*"
_STOP = re.compile(rf"@(\d+)(?:-({_LOAD}))?(?:\+({_LOAD}))?")


def parse(text: str) -> ParadiseRecord:
    """The record a Conquest of Paradise notation holds; NotationError at the first bad line."""
    tags, lines = read_tags(text)
    names = [value for key, value in tags if re.fullmatch(r"Seat\d+", key)]
    body: list[Step | PhaseNote] = []
    for number, line in lines:
        phase = _PHASE.fullmatch(line)
        if phase is not None:
            turn = phase.group(1)
            body.append(PhaseNote(int(turn) if turn.isdigit() else None, phase.group(2)))
            continue
        step = _STEP.fullmatch(line)
        if step is None:
            raise NotationError(
                number, "a step `<version>. <actor>: <events>` or a note `T<n> <phase>:` expected"
            )
        actor = step.group(2)
        actor = str(json.loads(actor)) if actor.startswith('"') else actor
        told = tuple(_told(token, names, number) for token in _tokens(step.group(3), number))
        body.append(Step(int(step.group(1)), actor, told))
    return ParadiseRecord(tuple(tags), tuple(body))


def _tokens(text: str, number: int) -> list[str]:
    """The event tokens of a step: split at the spaces outside parentheses, braces and quotes."""
    found, balanced = _split_outside(text, " ", "({[", ")}]")
    if not balanced:
        raise NotationError(number, "unbalanced brackets or quotes")
    return found


def _split_outside(text: str, separator: str, opens: str, closes: str) -> tuple[list[str], bool]:
    """The non-empty parts of `text` between the `separator`s outside brackets and quotes, and
    whether its brackets and quotes were balanced."""
    found, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(text):
        if quoted:
            quoted = char != '"' or text[i - 1] == "\\"
        elif char == '"':
            quoted = True
        elif char in opens:
            depth += 1
        elif char in closes:
            depth -= 1
        elif char == separator and depth == 0:
            found.append(text[start:i])
            start = i + 1
    found.append(text[start:])
    return [part for part in found if part], not (depth or quoted)


def _told(token: str, names: list[str], number: int) -> Told:
    kind, paren, rest = token.partition("(")
    end = _closing(rest)
    if not re.fullmatch(r"[A-Za-z]+", kind) or not paren or end < 0:
        raise NotationError(number, f"an event Type(key=value;...) expected, not {token!r}")
    data = _fields(rest[:end], names, number)
    tail = rest[end + 1 :]
    if tail and not (tail.startswith("{") and tail.endswith("}")):
        raise NotationError(number, f"a secret in braces expected after the data, not {tail!r}")
    raw = tail[1:-1] if tail else None
    secret: Mapping[str, Any] | str | None = None
    if raw is not None:
        secret = HIDDEN if raw == HIDDEN else _fields(raw, names, number)
    return Told(kind, data, secret)


def _closing(text: str) -> int:
    """Where the parenthesis opened before `text` closes (outside quotes); -1 when it does not."""
    depth, quoted = 0, False
    for i, char in enumerate(text):
        if quoted:
            quoted = char != '"' or text[i - 1] == "\\"
        elif char == '"':
            quoted = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return i if char == ")" else -1
            depth -= 1
    return -1


def _fields(text: str, names: list[str], number: int) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for part in _split_outside(text, ";", "{[", "}]")[0]:
        key, sep, value = part.partition("=")
        if not sep:
            raise NotationError(number, f"key=value expected, not {part!r}")
        fields[key] = _read(key, value, names, number)
    return fields


def _read_stops(value: str, number: int) -> list[dict[str, Any]]:
    """A move's stops (`@1-1+1` counts, `@1-colony+2band` kinds) as the event holds them."""
    stops = []
    for text in value.split(","):
        stop = _STOP.fullmatch(text)
        if stop is None:
            raise NotationError(number, f"stops: {text!r} is not @<index>-<ashore>+<aboard>")
        parts = stop.group(2, 3)
        if any(p and not p.isdigit() for p in parts):
            drop, take = ({} if not p else _kinds(p) for p in parts)
            stops.append({"at": int(stop.group(1)), "drop": drop, "take": take})
        else:
            stops.append({"at": int(stop.group(1)), "drop": int(parts[0] or 0), "take": int(parts[1] or 0)})
    return stops


def _kinds(text: str) -> dict[str, int]:
    """`2band&colony` as {"band": 2, "colony": 1}."""
    found = {}
    for part in text.split("&"):
        kind = part.lstrip("0123456789")
        found[kind] = int(part[: len(part) - len(kind)] or 1)
    return found


def _read(key: str, value: str, names: list[str], number: int) -> Any:
    if key == STOPS and value.startswith("@"):
        return _read_stops(value, number)
    if _HEXES.fullmatch(value):
        hexes = [[int(v) for v in h.split(".")] for h in value.split(">")]
        return hexes[0] if len(hexes) == 1 else hexes
    if key in SEAT_KEYS and (value in names or value.startswith('"')):
        name = str(json.loads(value)) if value.startswith('"') else value
        if name in names:
            return names.index(name)
    try:
        read = json.loads(value)
    except json.JSONDecodeError:
        raise NotationError(number, f"{key}: {value!r} is neither a hex, a name nor JSON") from None
    if key in SEAT_LISTS and isinstance(read, list):
        return [names.index(v) if v in names else v for v in read]
    return read
