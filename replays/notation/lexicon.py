"""The words every game's notation is written in: seat names, tags, notes, items and their
arguments, quoted or bare. Each game's grammar (parse, hex_cells, paradise_parse) reads them and
each writer (render, hex_build, paradise) writes them from here, so no grammar borrows another's
private names."""

from __future__ import annotations

import json
import re

from replays.notation.model import Item, NotationError

NAME = r'(?:"(?:[^"\\]|\\.)*"|[^\W\d][\w.\'-]*)'
"""A seat's name: a bare word or a JSON string."""
NOTE = re.compile(r"([A-Za-z][\w ]*?):(?: (.*))?")
"""A note line: its key, then its items."""
_TOKEN = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')
_TAG = re.compile(r'\[([A-Za-z]\w*) ("(?:[^"\\]|\\.)*")\]')
_ITEM = re.compile(rf"([a-z_]+)\((?:({NAME}):)?(.*)\)")
_ARG = re.compile(r'"(?:[^"\\]|\\.)*"|[^,"]+')
_BARE_NAME = re.compile(r"[^\W\d][\w.'-]*")
_BARE_ATOM = re.compile(r"[\w.'+?-]+")


def read_tags(text: str) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    """The tag pairs heading a notation text (every game's grammar starts so) and the lines after
    the blank line that ends them, each with its line number; NotationError at a head line that
    is no tag pair."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    tags: list[tuple[str, str]] = []
    number = 0
    for number, raw in enumerate(lines, start=1):
        if raw == "":
            break
        found = _TAG.fullmatch(raw)
        if found is None:
            raise NotationError(number, f'expected a tag pair [Name "value"], got {raw!r}')
        tags.append((found.group(1), unquote(found.group(2))))
    return tags, list(enumerate(lines[number:], start=number + 1))


def tokens(body: str) -> list[str]:
    """A line's tokens: split at spaces outside JSON strings."""
    return _TOKEN.findall(body)


def parse_item(token: str, number: int) -> Item:
    """One `key(who: args)` item of a note."""
    found = _ITEM.fullmatch(token)
    if found is None:
        raise NotationError(number, f"expected key(args), got {token!r}")
    who = unname(found.group(2)) if found.group(2) is not None else None
    args = tuple(unname(a) for a in _ARG.findall(found.group(3)))
    return Item(found.group(1), args, who)


def unname(value: str) -> str:
    """A name or an argument as written: a JSON string read, a bare word as it is."""
    return str(json.loads(value)) if value.startswith('"') else value


def unquote(value: str) -> str:
    return str(json.loads(value))


def named(seat_name: str) -> str:
    """A seat's name: bare when it is one plain word, else a JSON string."""
    return seat_name if _BARE_NAME.fullmatch(seat_name) else json.dumps(seat_name, ensure_ascii=False)


def atom(value: str) -> str:
    """An item's argument: bare when it is one plain word, else a JSON string."""
    return value if _BARE_ATOM.fullmatch(value) else json.dumps(value, ensure_ascii=False)


def quoted(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)
