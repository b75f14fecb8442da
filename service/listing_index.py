"""A listing kept as a read model: a JSON summary per entry (a game, a tournament) and sorted
sets that order the entries newest activity first, one set per filter value ("all",
"status:finished", "game:kahuna", ...).

A set's members are `<order>:<id>`, the order zero-padded, all at score 0: Redis orders them
by their bytes, so a page is one ZREVRANGEBYLEX from the last member shown (the cursor) and
costs the same whatever the listing holds. The order is the entry's newest position in its
all-events stream on one Redis (exact), or the time of its newest event in microseconds on a
cluster, whose buckets share no position (each pointer carries that time: service/append.lua).

Every key of one listing shares the hash tag `{<name>}`, so on a cluster the write script
(service/listings.lua) stays on one slot; it writes the entries with the projector's
checkpoint in the same step, and never moves an entry back to an older version.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.errors import ServiceError, Unprocessable
from service.keys import Layout

_SCRIPT = resources.files("service").joinpath("listings.lua").read_text(encoding="utf-8")
ORDER_DIGITS = 20
MEMBER = re.compile(rf"[0-9]{{{ORDER_DIGITS}}}:[^\s{{}}]+")
SCAN_BUDGET = 1000
"""A filter no set answers alone (a player's games of one status) reads at most this many of
the chosen set's entries per page: a page may then hold fewer entries than asked, and its
`next` goes on from where the reading stopped."""
CHUNK = 100
"""Entries read in one round trip while a filter is checked entry by entry."""


@dataclass(frozen=True)
class Entry:
    """One entry as the listing stores it: `sets` are the filter values it is listed under."""

    id: str
    version: int
    order: int
    summary: Mapping[str, Any]
    sets: tuple[str, ...]

    @property
    def member(self) -> str:
        return member(self.order, self.id)


@dataclass(frozen=True)
class Page:
    """Entries' summaries newest first; `cursor` reads on after the last, None at the end."""

    items: list[dict[str, Any]]
    cursor: str | None = None
    scanned: int = field(default=0, compare=False)


def member(order: int, entry_id: str) -> str:
    return f"{order:0{ORDER_DIGITS}d}:{entry_id}"


def order_of(layout: Layout, position: int, at: str) -> int:
    """What orders an entry: its newest position (one Redis) or that event's time in µs (cluster)."""
    if not layout.clustered:
        return position
    moment = datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return int(moment.timestamp()) * 1_000_000 + moment.microsecond


def kind_and_status(game: str | None, status: str | None) -> str:
    """The set that lists the entries of `game` and `status`, either or both None (any)."""
    if game is not None:
        return f"game:{game}" + (f":status:{status}" if status is not None else "")
    return f"status:{status}" if status is not None else "all"


def encode_cursor(last: str) -> str:
    return base64.urlsafe_b64encode(last.encode("utf-8")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> str:
    """The member a cursor reads on after; Unprocessable(bad_cursor) for one no page gave."""
    try:
        last = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        last = ""
    if not MEMBER.fullmatch(last):
        message = "not a cursor this listing gave: follow `next` as it is, or start without one"
        raise Unprocessable("bad_cursor", message, errors={"cursor": [message]})
    return last


class ListingIndex:
    """The keys and the reads and writes of one listing (`name`: games or tournaments)."""

    def __init__(self, client: redis.Redis | RedisCluster, name: str) -> None:
        self._redis = client
        self._prefix = f"listings:{{{name}}}"
        self._write = client.register_script(_SCRIPT)

    def key(self, part: str) -> str:
        return f"{self._prefix}:{part}"

    def set_key(self, filter_value: str) -> str:
        return self.key(f"by:{filter_value}")

    def write(
        self,
        entries: Sequence[Entry],
        removed: Iterable[str] = (),
        checkpoint: Mapping[str, int] | None = None,
    ) -> int:
        """Store `entries` (each unless a newer version is stored), drop `removed` and move the
        checkpoint forward to `checkpoint`, in one step; how many entries changed."""
        args: list[Any] = []
        set_keys: dict[str, None] = {}
        count = 0
        for entry in entries:
            keys = [self.set_key(s) for s in entry.sets]
            set_keys.update(dict.fromkeys(keys))
            summary = json.dumps(entry.summary, sort_keys=True, separators=(",", ":"))
            args += [entry.id, entry.version, entry.member, summary, len(keys), *keys]
            count += 1
        for entry_id in removed:
            args += [entry_id, 0, "", "", 0]
            count += 1
        pairs = sorted((checkpoint or {}).items())
        args += [len(pairs), *(value for pair in pairs for value in pair)]
        if count == 0 and not pairs:
            return 0
        fixed = [self.key("summaries"), self.key("entries"), self.key("checkpoint")]
        return int(self._write(keys=[*fixed, *set_keys], args=[count, *args]))

    def checkpoint(self) -> dict[str, int]:
        """The position the projector read up to in each all-events stream."""
        raw = self._redis.hgetall(self.key("checkpoint"))
        return {_text(stream): int(position) for stream, position in raw.items()}

    def versions(self, ids: Iterable[str]) -> dict[str, int]:
        """The stored version of each of `ids` that is listed."""
        wanted = list(ids)
        if not wanted:
            return {}
        raw = self._redis.hmget(self.key("entries"), wanted)
        return {i: int(json.loads(r)["version"]) for i, r in zip(wanted, raw, strict=True) if r is not None}

    def count(self, filter_value: str = "all") -> int:
        return int(self._redis.zcard(self.set_key(filter_value)))

    def clear(self) -> None:
        """Forget every entry and the checkpoint (before a rebuild)."""
        pattern = self.key("*")
        keys = [k for k in self._scan(pattern)]
        for start in range(0, len(keys), 500):
            self._redis.delete(*keys[start : start + 500])

    def _scan(self, pattern: str) -> list[Any]:
        if isinstance(self._redis, RedisCluster):
            return list(self._redis.scan_iter(match=pattern, target_nodes=RedisCluster.PRIMARIES))
        return list(self._redis.scan_iter(match=pattern))

    def page(
        self,
        filter_value: str,
        cursor: str | None,
        limit: int,
        keep: Callable[[Mapping[str, Any]], bool] | None = None,
    ) -> Page:
        """Up to `limit` summaries of the set `filter_value` after `cursor`, those `keep` takes."""
        key = self.set_key(filter_value)
        high = "+" if cursor is None else "(" + decode_cursor(cursor)
        found: list[tuple[str, dict[str, Any]]] = []
        scanned = 0
        while True:
            want = limit + 1 - len(found) if keep is None else CHUNK
            members = [_text(m) for m in self._redis.zrevrangebylex(key, high, "-", start=0, num=want)]
            if not members:
                return _page(found, limit, None, scanned)
            raw = self._redis.hmget(self.key("summaries"), [_listed_id(m) for m in members])
            scanned += len(members)
            for name, summary in zip(members, raw, strict=True):
                if summary is None:
                    continue  # removed between the two reads
                loaded = json.loads(summary)
                if keep is None or keep(loaded):
                    found.append((name, loaded))
                    if len(found) > limit:
                        return _page(found, limit, found[limit - 1][0], scanned)
            high = "(" + members[-1]
            if len(members) < want:
                return _page(found, limit, None, scanned)
            if keep is not None and scanned >= SCAN_BUDGET:
                return _page(found, limit, members[-1], scanned)


def catch_up(listing: ListingIndex, store: Any, entry_of: Callable[[str], Entry], batch: int) -> int:
    """Read the all-events streams of `store` from the listing's checkpoint, `batch` events
    of each at a time, and list afresh each id whose listed version is older than an event
    read (`entry_of` folds it; ServiceError: nothing to fold, listed nowhere); each step's
    entries are written with the checkpoint it reached. How many events were read."""
    read = 0
    while True:
        pointers = store.read_pointers(listing.checkpoint(), count=batch)
        if not pointers:
            return read
        newest: dict[str, int] = {}
        reached: dict[str, int] = {}
        for pointer in pointers:
            newest[pointer.game_id] = max(newest.get(pointer.game_id, 0), pointer.version)
            reached[pointer.stream] = max(reached.get(pointer.stream, 0), pointer.position)
        listed = listing.versions(newest)
        entries, removed = [], []
        for entry_id, version in newest.items():
            if listed.get(entry_id, 0) >= version:
                continue
            try:
                entries.append(entry_of(entry_id))
            except ServiceError:
                removed.append(entry_id)
        listing.write(entries, removed, reached)
        read += len(pointers)


def _page(found: list[tuple[str, dict[str, Any]]], limit: int, last: str | None, scanned: int) -> Page:
    items = [summary for _, summary in found[:limit]]
    return Page(items, None if last is None else encode_cursor(last), scanned)


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _listed_id(member: str) -> str:
    """The id a sorted-set member lists: what follows its ordering prefix and the first colon."""
    return member.split(":", 1)[1]
