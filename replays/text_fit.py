"""How wide a label is drawn, without a font engine: a generous advance per character.

The widths (in em) are at or above DejaVu Sans's, the first font the boards ask for, and
its fallbacks are narrower; a label sized by them fits wherever the estimate says it does.
"""

from __future__ import annotations

from collections.abc import Iterator

_NARROW = {"i": 0.36, "j": 0.36, "l": 0.36, "I": 0.42, "J": 0.42, "f": 0.5, "t": 0.52, "r": 0.54}
_WIDE = {"M": 1.1, "W": 1.15, "m": 1.1, "w": 0.98}
_SPACE, _DIGIT, _PUNCT, _OTHER = 0.4, 0.72, 0.55, 1.0
_REGULAR = 0.84  # regular weight, against the bold figures above


def advance(char: str) -> float:
    """The advance of `char` in em, for bold text."""
    if char in _NARROW:
        return _NARROW[char]
    if char in _WIDE:
        return _WIDE[char]
    if char == " ":
        return _SPACE
    if char.isascii() and char.isupper():
        return 0.88
    if char.isascii() and char.islower():
        return 0.74
    if char.isdigit():
        return _DIGIT
    return _PUNCT if char.isascii() else _OTHER


def text_width(text: str, size: float, bold: bool = True) -> float:
    """The estimated drawn width of `text` at font size `size` (pixels)."""
    em = sum(advance(c) for c in text)
    return em * size * (1.0 if bold else _REGULAR)


def fit_size(text: str, width: float, largest: float, smallest: float, bold: bool = True) -> float | None:
    """The largest font size up to `largest` at which `text` fits in `width`; None below `smallest`."""
    size = min(largest, width / max(text_width(text, 1.0, bold), 1e-9))
    return size if size >= smallest else None


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """`text` broken at spaces into lines no wider than `width`; a word wider than that is split."""
    lines: list[str] = []
    for word in text.split():
        for piece in _pieces(word, width, size, bold):
            if lines and text_width(f"{lines[-1]} {piece}", size, bold) <= width:
                lines[-1] += " " + piece
            else:
                lines.append(piece)
    return lines or [""]


def _pieces(word: str, width: float, size: float, bold: bool) -> Iterator[str]:
    """`word` cut into runs that each fit `width` (only a word longer than a whole line is cut)."""
    piece = ""
    for char in word:
        if piece and text_width(piece + char, size, bold) > width:
            yield piece
            piece = ""
        piece += char
    yield piece
