"""Blank text, one meaning for the rules, the service and the API document.

The document's patterns are ECMA-262 regular expressions, whose `\\s` is not Python's: Python
counts the separators U+001C-U+001F and U+0085 as whitespace, ECMA does not, and ECMA counts
U+FEFF, Python does not. A client built from the document sends a name of U+001C as text; the
service must then not strip it away as blank. So both sides use this one explicit set.
"""

from __future__ import annotations

BLANKS = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMA-262's white space and line terminators: what `\\s` matches in the document's patterns."""

NOT_BLANK = r"[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
"""The document's pattern of a text that is not all blank (the same in ECMA-262 and Python)."""


def trimmed(text: str) -> str:
    """`text` without the blanks at either end."""
    return text.strip(BLANKS)


def is_blank(text: str) -> bool:
    return not trimmed(text)
