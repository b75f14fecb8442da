"""Envelope helpers shared by both stores."""

from __future__ import annotations

from datetime import UTC, datetime

from record.chain import seal, verify_chain
from record.envelope import NewEvent, from_fields, to_fields
from service.clock import iso_utc, utc_now


def test_utc_now_is_timezone_aware() -> None:
    assert utc_now().tzinfo == UTC


def test_a_naive_datetime_is_taken_as_utc() -> None:
    assert iso_utc(datetime(2026, 11, 22, 10, 0)) == "2026-11-22T10:00:00.000000Z"


def test_stored_fields_decode_to_the_same_envelope() -> None:
    (sealed,) = seal(
        [NewEvent("c:0", "A", {"k": (1, 2)}, secret={"s": None}, audience=(1,))],
        0,
        "2026-11-22T10:00:00.000000Z",
        "0" * 64,
    )
    stored = {k.encode(): v.encode() for k, v in to_fields(sealed).items()}
    assert from_fields({**stored, b"position": b"0"}) == sealed
    assert sealed.data == {"k": [1, 2]}


def test_an_empty_chain_is_intact() -> None:
    assert verify_chain([]) is None


def test_an_event_stored_before_salted_digests_reads_back_and_fails_the_chain() -> None:
    (sealed,) = seal(
        [NewEvent("c:0", "CardDrawn", {}, secret={"card": "LALE"}, audience=(0,))],
        0,
        "2026-11-22T10:00:00.000000Z",
        "0" * 64,
    )
    older = {k: v for k, v in to_fields(sealed).items() if k not in ("salt", "secret_digest")}

    read = from_fields({**older, "position": "1"})

    assert (read.salt, read.secret_digest) == ("", "")
    assert verify_chain([read]) == 1
