"""Wall-clock time for envelopes; injected into the stores so tests can pin it."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def iso_utc(moment: datetime) -> str:
    """`moment` as ISO-8601 UTC with microseconds, e.g. "2026-11-22T10:00:00.000000Z".

    A naive datetime is taken to be UTC already.
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
