"""What the games and the tournaments listings share: an entry made from what a service has
just folded, recorded after its appends, and a projector that catches up from the checkpoint
with what no process recorded (service.listing_index holds the keys and the script)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.keys import layout_of
from service.listing_index import Entry, ListingIndex, catch_up, order_of

log = logging.getLogger("archipelago.listings")

BATCH = 2000


class FoldedListing:
    """A listing of one kind of stream; a kind says its name, its noun, and what it lists."""

    name = ""
    noun = ""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.layout = layout_of(client)
        self.listing = ListingIndex(client, self.name)

    def ident(self, loaded: Any) -> str:
        raise NotImplementedError

    def summary(self, loaded: Any) -> dict[str, Any]:
        raise NotImplementedError

    def sets(self, summary: Mapping[str, Any]) -> tuple[str, ...]:
        raise NotImplementedError

    def entry(self, loaded: Any) -> Entry:
        newest = loaded.envelopes[-1]
        summary = self.summary(loaded)
        order = order_of(self.layout, newest.position, newest.at)
        return Entry(self.ident(loaded), loaded.version, order, summary, self.sets(summary))

    def record(self, loaded: Any) -> None:
        """List the stream as `loaded` folds it; a failure is logged and left to the projector."""
        try:
            self.listing.write([self.entry(loaded)])
        except redis.RedisError as error:
            log.warning(
                "the listing of %s %s waits for the projector: %s", self.noun, self.ident(loaded), error
            )

    def update(self, service: Any, batch: int = BATCH) -> int:
        """Catch up with the events after the checkpoint (service: the one that loads this kind);
        how many events were read."""
        return catch_up(self.listing, service.store, lambda i: self.entry(service.load(i)), batch)

    def rebuild(self, service: Any) -> int:
        """The listing afresh from every stored event; how many events were read."""
        self.listing.clear()
        return self.update(service)
