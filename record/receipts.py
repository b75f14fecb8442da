"""Signed receipts: what the service vouches a stream held at a version, and the checks of them.

A receipt is `{game_id | tournament_id, version, hash, at, kid, sig}`: the service's Ed25519
signature (`sig`, base64url) over the canonical JSON of the other five fields. Whoever holds one
can prove what the stream's event `version` hashed to when the receipt was given: a file whose
event `version` hashes otherwise was rewritten, a file that ends before it was cut short. The
public keys are JWKs (OKP, Ed25519) named by their RFC 7638 thumbprint. Pure: no I/O.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from record.canonical import canonical_json
from record.envelope import Envelope

GAME = "game_id"
TOURNAMENT = "tournament_id"
STREAM_FIELDS = (GAME, TOURNAMENT)
SIGNED_FIELDS = ("version", "hash", "at", "kid")
"""Signed beside the stream's id field; `sig` is the signature over all five."""
CREATED_PREFIX = "create-"
"""The command id of a stream's first event names the stream: `create-<id>`."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of unpadded base64url `text`; ValueError for any other spelling."""
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None
    if b64url(data) != text:
        raise ValueError("not base64url in its one unpadded spelling")
    return data


def public_jwk(key: Ed25519PublicKey) -> dict[str, str]:
    """The JWK of `key` with its thumbprint as `kid`."""
    raw = key.public_bytes_raw()
    jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw)}
    return {**jwk, "kid": thumbprint(jwk), "alg": "EdDSA", "use": "sig"}


def thumbprint(jwk: Mapping[str, Any]) -> str:
    """RFC 7638: sha256 of the required members (crv, kty, x) in sorted order, base64url."""
    required = {name: jwk[name] for name in ("crv", "kty", "x")}
    return b64url(hashlib.sha256(canonical_json(required).encode("utf-8")).digest())


def public_keys(key_set: Any) -> dict[str, Ed25519PublicKey]:
    """The Ed25519 keys of a JWK set by thumbprint; a member that is no such key is left out, and
    a `kid` that is not the key's thumbprint is not believed (the thumbprint names the key)."""
    found: dict[str, Ed25519PublicKey] = {}
    members = key_set.get("keys") if isinstance(key_set, Mapping) else None
    for jwk in members if isinstance(members, list) else []:
        if not isinstance(jwk, Mapping) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            continue
        try:
            raw = unb64url(str(jwk.get("x", "")))
            found[thumbprint(jwk)] = Ed25519PublicKey.from_public_bytes(raw)
        except ValueError:
            continue
    return found


def signed_part(receipt: Mapping[str, Any]) -> dict[str, Any]:
    """The five fields the signature covers."""
    return {name: value for name, value in receipt.items() if name != "sig"}


def sign(
    key: Ed25519PrivateKey, kid: str, field: str, stream_id: str, version: int, hash: str, at: str
) -> dict[str, Any]:
    """The receipt of stream `stream_id` (named by `field`, GAME or TOURNAMENT) at `version`."""
    body = {field: stream_id, "version": version, "hash": hash, "at": at, "kid": kid}
    return {**body, "sig": b64url(key.sign(canonical_json(body).encode("utf-8")))}


def form_fault(receipt: Any) -> str | None:
    """Why `receipt` is not a receipt in form; None when it is one."""
    if not isinstance(receipt, Mapping):
        return "not a JSON object"
    ids = [name for name in STREAM_FIELDS if name in receipt]
    if len(ids) != 1 or set(receipt) != {ids[0], *SIGNED_FIELDS, "sig"}:
        return "a receipt holds game_id or tournament_id, version, hash, at, kid and sig only"
    if type(receipt["version"]) is not int or receipt["version"] < 1:
        return "its version is not a version (1, 2, 3, ...)"
    if not all(isinstance(receipt[name], str) for name in (ids[0], "hash", "at", "kid", "sig")):
        return "its id, hash, at, kid and sig are strings"
    return None


def stream_of(receipt: Mapping[str, Any]) -> tuple[str, str]:
    """(GAME or TOURNAMENT, the id) of a receipt in form."""
    field = GAME if GAME in receipt else TOURNAMENT
    return field, str(receipt[field])


def stream_id(envelopes: Sequence[Envelope]) -> str | None:
    """The id the service gave the stream of `envelopes`, read from its first event's command id
    (which the chain covers); None when that does not name it."""
    if not envelopes or not envelopes[0].command_id.startswith(CREATED_PREFIX):
        return None
    return envelopes[0].command_id[len(CREATED_PREFIX) :]


def signature_fault(receipt: Mapping[str, Any], keys: Mapping[str, Ed25519PublicKey]) -> str | None:
    """Why the signature of a receipt in form does not hold under `keys`; None when it holds."""
    key = keys.get(receipt["kid"])
    if key is None:
        return f"signed by key {receipt['kid']}, which is not among the published keys"
    try:
        key.verify(unb64url(receipt["sig"]), canonical_json(signed_part(receipt)).encode("utf-8"))
    except (InvalidSignature, ValueError):
        return "the signature does not verify: the service did not sign this receipt"
    return None


def stream_fault(receipt: Mapping[str, Any], envelopes: Sequence[Envelope]) -> str | None:
    """How the stream `envelopes` contradicts a receipt for it; None when it holds the receipt's
    hash at the receipt's version."""
    version = receipt["version"]
    if version > len(envelopes):
        return f"truncated: the receipt vouches for event {version}, the file ends at event {len(envelopes)}"
    held = envelopes[version - 1].hash
    if held != receipt["hash"]:
        return f"rewritten: event {version} hashes to {held}, the receipt to {receipt['hash']}"
    return None


def key_set(jwks: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    return {"keys": [dict(jwk) for jwk in jwks]}
