"""Moves signed by the players who made them: a seat's public key and the checks of its signatures.

A seat may hold a public key: given in the game's setup (a tournament puts its entrant's key
there) or registered once by the seat itself (RegisterKey, recorded as SeatKeyRegistered). From
the version that records it on, each command of that seat carries the seat's signature over
`signed_text(game_id, version, command)`: the game, the version the command expects (its
If-Match) and the command as recorded, `{type, seat, args}`. The service refuses a command whose
signature does not hold, and the referee replay (record.referee) checks every one again, so
whoever holds the store can refuse or delay a seat's move but cannot make one up.

Keys are JWKs as WebCrypto exports them: ECDSA P-256 (`{kty: EC, crv: P-256, x, y}`) or
Ed25519 (`{kty: OKP, crv: Ed25519, x}`); signatures are base64url of the raw signature, as
WebCrypto gives it (P-256: r || s, 64 bytes). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from domain.actor import Actor
from domain.decider import Command, Event, IllegalMove
from record.canonical import canonical_json
from record.envelope import Envelope
from record.receipts import b64url, unb64url

REGISTER_KEY = "RegisterKey"
KEY_EVENT = "SeatKeyRegistered"
SIGNATURE_HEADER = "Archipelago-Signature"
INVALID_KEY = "invalid_key"
"""The one refusal of the command's form; every other refusal is a conflict with the record."""

_MEMBERS = {"EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x")}
_CURVES = {"EC": "P-256", "OKP": "Ed25519"}
_COORDINATE = 32
"""Bytes of a P-256 coordinate and of an Ed25519 public key alike."""


def public_key(value: Any) -> dict[str, str]:
    """The JWK `value` in its recorded form (its required members only); ValueError when it is
    not a P-256 or Ed25519 public key. WebCrypto's `ext` and `key_ops` are dropped; a private
    member (`d`) is refused, so that no one records a secret by mistake."""
    if not isinstance(value, Mapping):
        raise ValueError("a key is a JWK object")
    kty = value.get("kty")
    if kty not in _MEMBERS or value.get("crv") != _CURVES[kty]:
        raise ValueError("a key is an ECDSA P-256 (kty EC) or Ed25519 (kty OKP) JWK")
    if "d" in value:
        raise ValueError("that JWK holds a private key: send the public key only")
    members = {name: value.get(name) for name in _MEMBERS[kty]}
    key = {name: member for name, member in members.items() if isinstance(member, str)}
    if len(key) != len(members):
        raise ValueError(f"a {kty} key has {', '.join(_MEMBERS[kty])} as strings")
    _verifier(key)  # a point off the curve, or a coordinate of the wrong length, is refused here
    return key


def _verifier(key: Mapping[str, str]) -> ec.EllipticCurvePublicKey | Ed25519PublicKey:
    coordinates = [unb64url(key[name]) for name in ("x", "y") if name in key]
    if any(len(c) != _COORDINATE for c in coordinates):
        raise ValueError(f"a key's coordinates are {_COORDINATE} bytes, base64url")
    if key["kty"] == "OKP":
        return Ed25519PublicKey.from_public_bytes(coordinates[0])
    x, y = (int.from_bytes(c, "big") for c in coordinates)
    return ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()


def signed_text(game_id: str, version: int, command: Command) -> bytes:
    """What a seat signs: the game, the version the command expects and the command."""
    body = {"type": command.type, "seat": command.seat, "args": dict(command.args)}
    return canonical_json({"game_id": game_id, "version": version, "command": body}).encode("utf-8")


def signature_fault(key: Mapping[str, str], text: bytes, signature: Any) -> str | None:
    """Why `signature` is not the key's signature of `text`; None when it is."""
    if not isinstance(signature, str) or not signature:
        return "the command carries no signature"
    try:
        raw = unb64url(signature)
        verifier = _verifier(key)
        if isinstance(verifier, Ed25519PublicKey):
            verifier.verify(raw, text)
        else:
            if len(raw) != 2 * _COORDINATE:
                raise ValueError("a P-256 signature is r || s, 64 bytes")
            r, s = int.from_bytes(raw[:_COORDINATE], "big"), int.from_bytes(raw[_COORDINATE:], "big")
            verifier.verify(encode_dss_signature(r, s), text, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError):
        return "the signature does not verify under the seat's key"
    return None


def setup_keys(setup: Mapping[str, Any]) -> dict[int, dict[str, str]]:
    """The keys the game's setup gives its seats."""
    seats = setup.get("seats")
    keys: dict[int, dict[str, str]] = {}
    for n, seat in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(seat, Mapping) and seat.get("public_key") is not None:
            keys[n] = public_key(seat["public_key"])
    return keys


def keys_after(
    keys: Mapping[int, Mapping[str, str]], envelopes: Iterable[Envelope]
) -> dict[int, dict[str, str]]:
    """`keys` with the keys `envelopes` register."""
    found = {seat: dict(key) for seat, key in keys.items()}
    for envelope in envelopes:
        if envelope.type == KEY_EVENT:
            found[int(envelope.data["seat"])] = public_key(envelope.data["key"])
    return found


def seat_keys(envelopes: Sequence[Envelope]) -> dict[int, dict[str, str]]:
    """Every seat's key after `envelopes` (a game's record from version 1)."""
    return keys_after(setup_keys(envelopes[0].data), envelopes[1:]) if envelopes else {}


def key_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """SeatKeyRegistered for the command's seat; IllegalMove when the key is malformed, the
    game is over, or the seat has a key already (a key is never replaced: whoever could replace
    it could sign for the seat)."""
    try:
        key = public_key(command.args.get("public_key"))
    except ValueError as error:
        raise IllegalMove(INVALID_KEY, str(error), field="public_key") from None
    if ended:
        raise IllegalMove("game_over", "the game is over: there is nothing left to sign")
    seat = command.seat
    if seat is None:
        raise IllegalMove("not_a_seat", "only a seat registers a key")
    if seat in seat_keys(envelopes):
        raise IllegalMove("key_registered", f"seat {seat} has a key already: a key is never replaced")
    return [Event(KEY_EVENT, {"seat": seat, "key": key})]


def command_signature_fault(
    keys: Mapping[int, Mapping[str, str]], game_id: str, version: int, command: Command, signature: Any
) -> str | None:
    """Why `command`, applied at `version`, is not signed as its seat's key requires; None when
    it is, or when its actor holds no key (the system, or a seat that registered none)."""
    if command.seat is None or command.seat not in keys:
        return None
    fault = signature_fault(keys[command.seat], signed_text(game_id, version, command), signature)
    return None if fault is None else f"{Actor.of_seat(command.seat)}: {fault}"


__all__ = [
    "INVALID_KEY",
    "KEY_EVENT",
    "REGISTER_KEY",
    "SIGNATURE_HEADER",
    "b64url",
    "command_signature_fault",
    "key_events",
    "keys_after",
    "public_key",
    "seat_keys",
    "setup_keys",
    "signature_fault",
    "signed_text",
]
