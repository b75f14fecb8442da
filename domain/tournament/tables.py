"""Tables of 3 or 4 for Arabana-Opodopo, grouped by standing, seats rotated."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournament.pairing import Pairing, Standing


def group_tables(standings: Sequence[Standing], sizes: tuple[int, ...] = (4, 3)) -> Pairing:
    """The next round's tables of the allowed sizes, in seat order."""
    raise NotImplementedError
