"""Swiss pairing of a 2-player round as a maximum-weight matching."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournament.pairing import Pairing, Standing


def pair_swiss(standings: Sequence[Standing]) -> Pairing:
    """The next round's pairing; IllegalMove("no_pairing") when none avoids a rematch."""
    raise NotImplementedError
