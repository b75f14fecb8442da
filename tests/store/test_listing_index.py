"""The listings' one write script: an entry moves only to a newer version, a checkpoint only
forward, and a page reads on from its cursor, on one Redis and on the cluster."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from service.listing_index import Entry, ListingIndex


def _entry(entry_id: str, version: int, order: int, status: str) -> Entry:
    summary = {"id": entry_id, "version": version, "status": status}
    return Entry(entry_id, version, order, summary, ("all", f"status:{status}"))


@pytest.fixture(params=["redis", "cluster"])
def listing(request: pytest.FixtureRequest) -> ListingIndex:
    client: redis.Redis | RedisCluster = request.getfixturevalue(
        "redis_client" if request.param == "redis" else "cluster_client"
    )
    return ListingIndex(client, "things")


def test_an_older_fold_never_moves_an_entry_back_and_the_checkpoint_only_moves_forward(
    listing: ListingIndex,
) -> None:
    listing.write([_entry("a", 5, 50, "finished")], checkpoint={"s": 50})

    written = listing.write([_entry("a", 3, 30, "ongoing")], checkpoint={"s": 30})

    assert written == 0
    assert listing.checkpoint() == {"s": 50} and listing.versions(["a", "b"]) == {"a": 5}
    assert listing.count("status:ongoing") == 0 and listing.count("status:finished") == 1
    listing.write([_entry("a", 6, 60, "ongoing")])
    assert (listing.count("status:finished"), listing.count("status:ongoing"), listing.count()) == (0, 1, 1)
    listing.write([], removed=["a"])
    assert listing.count() == 0 and listing.versions(["a"]) == {}


def test_pages_read_on_from_their_cursor_newest_first_and_a_filter_may_end_a_page_short(
    listing: ListingIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing.write([_entry(f"e{n}", 1, n, "finished" if n % 3 == 0 else "ongoing") for n in range(1, 11)])

    first = listing.page("all", None, 4)
    second = listing.page("all", first.cursor, 4)
    last = listing.page("all", second.cursor, 4)

    assert [e["id"] for e in first.items + second.items + last.items] == [f"e{n}" for n in range(10, 0, -1)]
    assert last.cursor is None
    monkeypatch.setattr("service.listing_index.SCAN_BUDGET", 2)
    monkeypatch.setattr("service.listing_index.CHUNK", 2)
    pages, cursor = [], None
    while True:
        page = listing.page("all", cursor, 3, keep=lambda e: e["status"] == "finished")
        pages.append([e["id"] for e in page.items])
        assert page.scanned <= 2
        if page.cursor is None:
            break
        cursor = page.cursor
    assert pages == [["e9"], [], ["e6"], ["e3"], [], []]
