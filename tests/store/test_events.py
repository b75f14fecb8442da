"""Envelope helpers shared by both stores."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from record import envelope as envelope_module
from record.chain import seal, verify_chain
from record.envelope import (
    HASHED_FIELDS,
    STORED_FIELDS,
    STREAM_FIELDS,
    Envelope,
    NewEvent,
    from_fields,
    to_fields,
)
from service.clock import iso_utc, utc_now

AT = "2026-11-22T10:00:00.000000Z"


def sealed_pair() -> list[Envelope]:
    """Two sealed events, the second with a secret."""
    return seal(
        [
            NewEvent("c:0", "A", {"k": [1, 2], "ü": "é"}, audience=()),
            NewEvent("c:1", "CardDrawn", {"seat": 0}, secret={"card": "LALE"}, audience=(0,)),
        ],
        0,
        AT,
        "0" * 64,
    )


def field_by_field(envelope: Envelope) -> dict[str, str]:
    """The stream fields of `envelope` as events were stored before one body held the hashed
    ones: each envelope field in its own stream field."""
    fields = {}
    for name in STORED_FIELDS:
        value = getattr(envelope, name)
        if name in ("data", "secret", "audience"):
            fields[name] = json.dumps(
                list(value) if name == "audience" else value,
                sort_keys=True,
                separators=(",", ":"),
                ensure_ascii=False,
            )
        else:
            fields[name] = str(value)
    return {**fields, "position": "1"}


def read_back(envelope: Envelope) -> Envelope:
    """`envelope` written as stream fields and read back as the client returns them (bytes)."""
    stored = {k.encode(): v.encode() for k, v in to_fields(envelope).items()}
    return from_fields({**stored, b"position": b"1"})


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
    older = {k: v for k, v in field_by_field(sealed).items() if k not in ("salt", "secret_digest")}

    read = from_fields({**older, "position": "1"})

    assert (read.salt, read.secret_digest) == ("", "")
    assert verify_chain([read]) == 1


def test_an_event_is_stored_as_the_bytes_its_hash_covers_beside_its_secret_salt_and_hash() -> None:
    for sealed in sealed_pair():
        fields = to_fields(sealed)

        assert tuple(fields) == STREAM_FIELDS
        body = {name: getattr(sealed, name) for name in HASHED_FIELDS}
        body["audience"] = list(sealed.audience)
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert fields["body"] == canonical
        assert hashlib.sha256(canonical.encode()).hexdigest() == sealed.hash
        assert json.loads(fields["secret"]) == sealed.secret
        assert (fields["salt"], fields["hash"]) == (sealed.salt, sealed.hash)


def test_an_event_stored_field_by_field_reads_to_the_same_envelope_and_chain() -> None:
    sealed = sealed_pair()
    older = [from_fields({**field_by_field(e), "position": "0"}) for e in sealed]
    assert older == sealed
    assert verify_chain(older) is None
    assert verify_chain([older[0], replace(older[1], data={"seat": 1})]) == 2


def test_checking_a_read_chain_hashes_the_stored_bytes_without_writing_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = [read_back(e) for e in sealed_pair()]

    def no_json(value: Any) -> str:
        raise AssertionError("the stored body is hashed as it is, not serialised again")

    monkeypatch.setattr(envelope_module, "canonical_json", no_json)
    assert verify_chain(read) is None
    with pytest.raises(AssertionError):
        verify_chain([replace(read[0], data={"k": [1, 2]})])


def test_a_changed_copy_of_a_read_envelope_is_hashed_from_its_fields() -> None:
    first, second = (read_back(e) for e in sealed_pair())
    changed = replace(second, data={"seat": 1})
    assert changed.body == b""
    assert verify_chain([first, changed]) == 2
    assert verify_chain([first, replace(second, hash=second.hash)]) is None


def test_a_stored_body_changed_by_one_byte_fails_the_chain() -> None:
    first, second = sealed_pair()
    stored = to_fields(second)
    changed = {**stored, "body": stored["body"].replace('"seat":0', '"seat":1'), "position": "2"}
    read = from_fields(changed)
    assert read.data == {"seat": 1}
    assert verify_chain([first, read]) == 2


@pytest.mark.parametrize(
    "edit",
    [
        {"version": "2"},
        {"schema": 1.0},
        {"unknown": 1},
        {"hash": "f" * 64},
    ],
    ids=["text version", "float schema", "unknown field", "hash inside the body"],
)
def test_a_body_that_is_not_an_envelope_does_not_read(edit: dict[str, Any]) -> None:
    (sealed,) = sealed_pair()[:1]
    fields = {**to_fields(sealed), "position": "1"}
    body = {**json.loads(fields["body"]), **edit}
    with pytest.raises((ValueError, TypeError)):
        from_fields({**fields, "body": json.dumps(body)})
