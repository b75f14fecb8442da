"""Account names: shown as typed, unique as normalized (Unicode NFKC, case folded), so that
"Ann", "ANN" and "Ａｎｎ" are one account."""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 32
ALLOWED = re.compile(r"^[\w][\w .\-]*$")
"""Letters and digits of any script, then also spaces, dots and dashes: a name fits in a URL
path and reads the same in every list."""


def normalized(name: str) -> str:
    """The key an account name is unique by."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def problem_with(name: str) -> str | None:
    """Why `name` cannot name an account, or None when it can."""
    shown = name.strip()
    if not shown:
        return "a name is 1-32 characters, not all blank"
    if len(shown) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters"
    if not ALLOWED.match(unicodedata.normalize("NFKC", shown)):
        return (
            "a name starts with a letter or digit and holds only letters, digits, spaces, dots, dashes and _"
        )
    return None


def normalize_shown(name: str) -> str:
    """The name as shown: as typed, less the blanks around it, in NFKC."""
    return unicodedata.normalize("NFKC", name).strip()
