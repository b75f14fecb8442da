"""A person's signing key for tests, made and used the way the browser's WebCrypto does: a
P-256 (or Ed25519) key pair, the public half exported as a JWK with `ext` and `key_ops`, and
raw signatures (P-256: r || s) over record.seat_keys.signed_text, base64url."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from domain.decider import Command
from record.receipts import b64url
from record.seat_keys import SIGNATURE_HEADER, signed_text


@dataclass
class SeatKey:
    """One person's key pair: `jwk` to register, `sign` for each command."""

    curve: str = "P-256"
    private: Any = field(init=False)

    def __post_init__(self) -> None:
        self.private = (
            ec.generate_private_key(ec.SECP256R1()) if self.curve == "P-256" else Ed25519PrivateKey.generate()
        )

    @property
    def jwk(self) -> dict[str, Any]:
        """The public key as WebCrypto's exportKey("jwk") gives it."""
        public = self.private.public_key()
        if self.curve == "P-256":
            numbers = public.public_numbers()
            coordinates = {
                "x": b64url(numbers.x.to_bytes(32, "big")),
                "y": b64url(numbers.y.to_bytes(32, "big")),
            }
            return {"kty": "EC", "crv": "P-256", **coordinates, "ext": True, "key_ops": ["verify"]}
        return {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": b64url(public.public_bytes_raw()),
            "ext": True,
            "key_ops": ["verify"],
        }

    def sign_text(self, text: bytes) -> str:
        if self.curve == "P-256":
            r, s = decode_dss_signature(self.private.sign(text, ec.ECDSA(hashes.SHA256())))
            return b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
        return b64url(self.private.sign(text))

    def sign(self, game_id: str, version: int, seat: int, body: Mapping[str, Any]) -> str:
        """The signature of a command body (`type` and its arguments) sent at `version`."""
        args = {k: v for k, v in body.items() if k != "type"}
        return self.sign_text(signed_text(game_id, version, Command(str(body["type"]), seat, args)))

    def headers(self, game_id: str, version: int, seat: int, body: Mapping[str, Any]) -> dict[str, str]:
        """If-Match and the signature, for a command of `seat` at `version`."""
        return {"If-Match": f'"{version}"', SIGNATURE_HEADER: self.sign(game_id, version, seat, body)}
