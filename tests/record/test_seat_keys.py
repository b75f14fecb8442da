"""A seat's key and signatures (record.seat_keys): the JWKs WebCrypto exports, the text a seat
signs, and the checks the service and the referee replay make of each signature."""

from __future__ import annotations

import pytest

from domain.decider import Command, IllegalMove
from record.canonical import canonical_json
from record.envelope import Envelope
from record.receipts import b64url
from record.seat_keys import KEY_EVENT, key_events, public_key, signature_fault, signed_text
from tests.seat_signing import SeatKey


@pytest.mark.parametrize("curve", ["P-256", "Ed25519"])
def test_a_webcrypto_public_jwk_is_recorded_by_its_required_members_only(curve: str) -> None:
    key = SeatKey(curve)
    recorded = public_key(key.jwk)
    members = {"kty", "crv", "x", "y"} if curve == "P-256" else {"kty", "crv", "x"}
    assert set(recorded) == members
    assert {name: key.jwk[name] for name in members} == recorded


def test_a_jwk_holding_the_private_key_is_refused_so_no_one_records_a_secret() -> None:
    key = SeatKey("Ed25519")
    private = b64url(key.private.private_bytes_raw())
    with pytest.raises(ValueError, match="private"):
        public_key({**key.jwk, "d": private})


def test_a_point_off_the_curve_is_refused() -> None:
    jwk = SeatKey().jwk
    y = bytearray(b"\x00" * 31 + b"\x07")
    with pytest.raises(ValueError):
        public_key({**jwk, "y": b64url(bytes(y))})


@pytest.mark.parametrize(
    "jwk",
    [
        {"kty": "RSA", "n": "AQAB", "e": "AQAB"},
        {"kty": "EC", "crv": "P-384", "x": "A" * 43, "y": "A" * 43},
        {"kty": "OKP", "crv": "Ed25519", "x": "AAAA"},
        {"kty": "OKP", "crv": "P-256", "x": "A" * 43},
        "not a key",
    ],
)
def test_other_keys_are_refused(jwk: object) -> None:
    with pytest.raises(ValueError):
        public_key(jwk)


def test_a_seat_signs_the_game_the_version_it_expects_and_the_command_as_recorded() -> None:
    command = Command("PlaceBridge", 0, {"between": ["Aloa", "Bari"]})
    text = signed_text("g1", 12, command)
    expected = {
        "game_id": "g1",
        "version": 12,
        "command": {"type": "PlaceBridge", "seat": 0, "args": {"between": ["Aloa", "Bari"]}},
    }
    assert text == canonical_json(expected).encode("utf-8")


@pytest.mark.parametrize("curve", ["P-256", "Ed25519"])
def test_a_signature_holds_for_its_own_text_only(curve: str) -> None:
    key = SeatKey(curve)
    recorded = public_key(key.jwk)
    command = Command("DrawCard", 1, {"source": "stack"})
    signature = key.sign_text(signed_text("g1", 5, command))
    assert signature_fault(recorded, signed_text("g1", 5, command), signature) is None
    # Another version, game, seat or argument: the same signature no longer holds.
    for other in (
        signed_text("g1", 6, command),
        signed_text("g2", 5, command),
        signed_text("g1", 5, Command("DrawCard", 0, {"source": "stack"})),
        signed_text("g1", 5, Command("DrawCard", 1, {"source": "display"})),
    ):
        assert signature_fault(recorded, other, signature) is not None
    assert (
        signature_fault(public_key(SeatKey(curve).jwk), signed_text("g1", 5, command), signature) is not None
    )
    assert (
        signature_fault(recorded, signed_text("g1", 5, command), None) == "the command carries no signature"
    )
    assert signature_fault(recorded, signed_text("g1", 5, command), "not*base64") is not None


def envelope(version: int, kind: str, data: dict[str, object]) -> Envelope:
    return Envelope(version, kind, 1, data, None, (), "system", "", "", "", "", "", 0)


def test_a_seat_registers_one_key_and_never_replaces_it() -> None:
    setup = envelope(1, "GameCreated", {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]})
    first = key_events([setup], False, Command("RegisterKey", 0, {"public_key": SeatKey().jwk}))
    assert [e.type for e in first] == [KEY_EVENT]
    assert set(first[0].data["key"]) == {"kty", "crv", "x", "y"}
    registered = envelope(2, KEY_EVENT, dict(first[0].data))
    with pytest.raises(IllegalMove) as refused:
        key_events([setup, registered], False, Command("RegisterKey", 0, {"public_key": SeatKey().jwk}))
    assert refused.value.code == "key_registered"
    assert key_events([setup, registered], False, Command("RegisterKey", 1, {"public_key": SeatKey().jwk}))
    with pytest.raises(IllegalMove) as over:
        key_events([setup], True, Command("RegisterKey", 1, {"public_key": SeatKey().jwk}))
    assert over.value.code == "game_over"
    with pytest.raises(IllegalMove) as malformed:
        key_events([setup], False, Command("RegisterKey", 1, {"public_key": {"kty": "EC"}}))
    assert malformed.value.code == "invalid_key"
