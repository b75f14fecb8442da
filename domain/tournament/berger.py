"""Round robin by the Berger tables of FIDE C.05 Annex 1."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournament.pairing import Pairing


def round_robin(entrants: Sequence[str], double: bool = False) -> list[Pairing]:
    """Every round of a round robin; an odd count gives one bye a round; `double` swaps seats."""
    raise NotImplementedError
