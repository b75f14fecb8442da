"""The service's dice: the random inputs the rules ask for, drawn with `secrets`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from domain.core import Command

_rng = secrets.SystemRandom()

IMMEDIATE = ("shuffle", "pick")
"""Pending system work the service does at once; "score" goes to the worker instead."""


def permutation(size: int) -> list[int]:
    order = list(range(size))
    _rng.shuffle(order)
    return order


def chance_command(pending: Mapping[str, Any]) -> Command | None:
    """The system command answering `pending` with fresh randomness, or None for other work."""
    if pending["kind"] == "shuffle":
        args = {name: permutation(size) for name, size in pending["permutations"].items()}
        return Command("ShuffleDeck", None, args)
    if pending["kind"] == "pick":
        picks = {seat: secrets.randbelow(size) for seat, size in pending["hands"].items()}
        return Command("DrawAtRandom", None, {"picks": picks})
    return None
