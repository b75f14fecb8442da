"""Signed receipts: the signature covers the five fields, the key is named by its thumbprint, and a
stream contradicts a receipt by holding another hash at its version or ending before it."""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from record import receipts
from tests.replays.play import rechained, sealed_game, setup_of

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
JWK = receipts.public_jwk(KEY.public_key())
KEYS = receipts.public_keys(receipts.key_set([JWK]))
AT = "2026-11-28T01:00:00.000000Z"


def signed(version: int = 3, hash: str = "ab" * 32, field: str = receipts.GAME) -> dict[str, object]:
    return receipts.sign(KEY, JWK["kid"], field, "g1", version, hash, AT)


def test_the_kid_is_the_rfc_7638_thumbprint_of_the_jwk() -> None:
    # RFC 8037, appendix A.3: the thumbprint of the example Ed25519 key.
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
    assert receipts.thumbprint(jwk) == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    assert JWK["kid"] == receipts.thumbprint(JWK) and JWK["alg"] == "EdDSA"


def test_a_receipt_holds_six_fields_and_its_signature_verifies() -> None:
    receipt = signed()
    assert list(receipt) == ["game_id", "version", "hash", "at", "kid", "sig"]
    assert receipts.form_fault(receipt) is None
    assert receipts.signature_fault(receipt, KEYS) is None


@pytest.mark.parametrize(
    "change",
    [{"version": 4}, {"hash": "cd" * 32}, {"at": "2026-11-28T01:00:01.000000Z"}, {"game_id": "g2"}],
)
def test_a_receipt_with_any_signed_field_changed_is_refused(change: dict[str, object]) -> None:
    forged = {**signed(), **change}
    assert receipts.signature_fault(forged, KEYS) == (
        "the signature does not verify: the service did not sign this receipt"
    )


def test_a_receipt_signed_by_a_key_not_published_is_refused() -> None:
    other = Ed25519PrivateKey.generate()
    kid = receipts.public_jwk(other.public_key())["kid"]
    forged = receipts.sign(other, kid, receipts.GAME, "g1", 3, "ab" * 32, AT)
    assert receipts.signature_fault(forged, KEYS) == (
        f"signed by key {kid}, which is not among the published keys"
    )
    # Naming the published key does not help a signature made with another.
    assert receipts.signature_fault({**forged, "kid": JWK["kid"]}, KEYS) is not None


def test_a_jwk_whose_kid_lies_is_known_by_its_thumbprint_only() -> None:
    lying = {**JWK, "kid": "someone-else"}
    assert list(receipts.public_keys({"keys": [lying, {"kty": "RSA"}, "x"]})) == [JWK["kid"]]
    assert receipts.public_keys(None) == {} and receipts.public_keys({"keys": 3}) == {}


@pytest.mark.parametrize(
    "value",
    [[], {"game_id": "g", "tournament_id": "t"}, {**signed(), "extra": 1}, {**signed(), "version": 0}],
)
def test_what_is_not_a_receipt_says_so(value: object) -> None:
    assert receipts.form_fault(value) is not None


def test_a_stream_contradicts_a_receipt_by_another_hash_or_by_ending_before_it() -> None:
    game = sealed_game(random.Random(2), setup_of("kahuna"))
    last = game[-1]
    assert receipts.stream_fault(signed(last.version, last.hash), game) is None
    forged = rechained(game, 5, data={**game[4].data, "forged": True})
    assert receipts.stream_fault(signed(last.version, last.hash), forged) == (
        f"rewritten: event {last.version} hashes to {forged[-1].hash}, the receipt to {last.hash}"
    )
    assert receipts.stream_fault(signed(last.version, last.hash), game[:-2]) == (
        f"truncated: the receipt vouches for event {last.version}, the file ends at event {last.version - 2}"
    )


def test_a_stream_is_named_by_its_creation_command() -> None:
    game = sealed_game(random.Random(2), setup_of("kahuna"))
    assert receipts.stream_id(game) == "g"  # sealed_game creates under "create-g"
    assert receipts.stream_id(rechained(game, 1, command_id="c0")) is None
