"""Reading a JSON request body strictly: bounded nesting and numbers, text that is Unicode.

The standard parser recurses once per nesting level and reads numbers of any length, so a
body of 100,000 `[` or a 5,000-digit integer raises errors no handler expects, and a JSON
escape such as \\ud800 gives a string that cannot be encoded for the store. Each is refused
here, before a schema or the store sees the body.
"""

from __future__ import annotations

import json
import math
from typing import Any

from service.errors import BadRequest, Unprocessable

MAX_DEPTH = 32
"""No request of the API nests more than a few levels; 32 leaves ample room."""
MAX_NUMBER_DIGITS = 100
"""Every number of the API fits 18 digits; longer ones are refused before int() reads them."""


class _NumberTooLong(ValueError):
    pass


def read_json(data: bytes) -> Any:
    """The body's JSON value; BadRequest `malformed_json` or Unprocessable `invalid_request`."""
    try:
        value = json.loads(
            data.decode("utf-8"),
            parse_int=_integer,
            parse_float=_float,
            parse_constant=_constant,
        )
    except _NumberTooLong as error:
        raise Unprocessable("invalid_request", str(error), errors={"_schema": [str(error)]}) from None
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise BadRequest("malformed_json", "the request body is not valid JSON") from None
    _check_tree(value)
    return value


def _integer(text: str) -> int:
    _check_digits(text)
    return int(text)


def _float(text: str) -> float:
    _check_digits(text)
    number = float(text)
    if not math.isfinite(number):
        raise _NumberTooLong(f"the number {text[:20]}... is beyond what a float holds")
    return number


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _check_digits(text: str) -> None:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _NumberTooLong(f"a number has more than {MAX_NUMBER_DIGITS} digits")


def _check_tree(value: Any) -> None:
    """Depth and text, walked without recursion (the value may be nested up to the parser's limit)."""
    pending: list[tuple[Any, tuple[str, ...]]] = [(value, ())]
    while pending:
        item, path = pending.pop()
        if len(path) > MAX_DEPTH:
            raise BadRequest("malformed_json", f"the request body nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, dict):
            for key, member in item.items():
                _check_text(key, (*path, key))
                pending.append((member, (*path, key)))
        elif isinstance(item, list):
            pending.extend((member, (*path, str(i))) for i, member in enumerate(item))


def _check_text(text: str, path: tuple[str, ...]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        field = ".".join(p.encode("utf-8", "backslashreplace").decode()[:64] for p in path) or "_schema"
        message = "text must be valid Unicode: a lone surrogate escape (\\ud800-\\udfff) is not"
        raise Unprocessable("invalid_request", message, errors={field: [message]}) from None
