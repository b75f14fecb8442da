"""A game's audit as the store holds it: every hash and link of its chain, the deal, and the
referee replay of its recorded commands; read from the store, never from the fold cache."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from record.deal import DealReport, check_deal
from record.referee import Refereed, referee
from service.errors import ChainBroken, ChainTruncated, GameNotFound
from service.loaded import Loaded
from service.loading import Loader, checked, first_bad


@dataclass(frozen=True)
class Verified:
    """The stored chain's check: `first_bad` is None when every hash and link holds; and the
    referee replay of the stored commands (None when the chain breaks: nothing to vouch for).

    `vouched` is set when the stream lost its tail: the last version the store's head vouches
    for; `first_bad` is then the first missing one.
    """

    game_id: str
    version: int
    first_bad: int | None
    vouched: int | None = None
    deal: DealReport | None = None  # None when the chain breaks or lost its tail: no deal to check
    refereed: Refereed | None = None


def deal_as_shown(loaded: Loaded) -> DealReport:
    """The deal's check as anyone may make it: the seed counts only once the log is revealed."""
    envelopes = loaded.envelopes
    if not loaded.revealed:
        envelopes = [dataclasses.replace(envelopes[0], secret=None), *envelopes[1:]]
    return check_deal(envelopes)


def verify(loader: Loader, game_id: str) -> Verified:
    """The hash chain of every stored event; a game found broken leaves the cache."""
    store = loader.store
    try:
        envelopes = store.read(game_id)
    except ChainTruncated as cut:
        loader.forget(game_id)
        stored = cut.stored_version
        return Verified(
            game_id,
            stored,
            first_bad(store.read(game_id, upto=stored)) or stored + 1,
            cut.vouched_version,
        )
    except ChainBroken as error:
        loader.forget(game_id)
        return Verified(game_id, store.version(game_id), error.version)
    if not envelopes:
        raise GameNotFound(game_id)
    broken = first_bad(envelopes)
    if broken is not None:
        loader.forget(game_id)
        return Verified(game_id, envelopes[-1].version, broken)
    refereed = referee(envelopes)
    try:
        deal: DealReport | None = deal_as_shown(checked(game_id, envelopes))
    except Exception:  # noqa: BLE001 - a forged record the rules cannot fold: the referee names where
        if refereed.ok:
            raise
        deal = None
    return Verified(game_id, envelopes[-1].version, None, deal=deal, refereed=refereed)
