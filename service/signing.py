"""The service's receipt key: read from a setting or the key folder, made there on first start.

The key folder (ARCHIPELAGO_KEYS, default `keys` in the data directory ARCHIPELAGO_DATA, ./var)
holds `signing.pem`, the Ed25519 private key in PKCS#8 PEM, and `retired/`, one JWK file
(`<kid>.json`) per retired key: their public halves stay published, so receipts signed before a
rotation still verify. ARCHIPELAGO_SIGNING_KEY, when set, is the private key's PEM itself (e.g.
from a secret store) and wins over `signing.pem`. Every web process must sign with the same key.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from record import receipts
from record.envelope import Envelope

KEYS_DIR = "ARCHIPELAGO_KEYS"
SIGNING_KEY = "ARCHIPELAGO_SIGNING_KEY"
SIGNING_FILE = "signing.pem"
RETIRED = "retired"


class SigningKeyError(RuntimeError):
    """A signing key that cannot be read: the service does not start without one."""


@dataclass(frozen=True)
class Signer:
    """Signs receipts with `key`; publishes its public key and the `retired` ones (JWKs)."""

    key: Ed25519PrivateKey
    retired: tuple[dict[str, Any], ...] = ()
    current: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "current", receipts.public_jwk(self.key.public_key()))

    @property
    def kid(self) -> str:
        return str(self.current["kid"])

    def key_set(self) -> dict[str, list[dict[str, Any]]]:
        """The JWK set of every key whose receipts still verify: the current one first."""
        others = [jwk for jwk in self.retired if jwk.get("kid") != self.kid]
        return receipts.key_set([self.current, *others])

    def receipt(self, field: str, stream_id: str, event: Envelope) -> dict[str, Any]:
        """The signed receipt that stream `stream_id` holds `event` (its hash at its version, appended
        at its `at`). Ed25519 signs deterministically: a retried command is answered the same
        receipt, byte for byte, as its first answer."""
        return receipts.sign(self.key, self.kid, field, stream_id, event.version, event.hash, event.at)


def keys_dir(environ: Mapping[str, str]) -> Path:
    """ARCHIPELAGO_KEYS, else `keys` in the data directory (ARCHIPELAGO_DATA, default ./var)."""
    folder = environ.get(KEYS_DIR) or str(Path(environ.get("ARCHIPELAGO_DATA") or "var") / "keys")
    return Path(folder).resolve()


def signer_from(environ: Mapping[str, str] | None = None) -> Signer:
    """The Signer the settings name: ARCHIPELAGO_SIGNING_KEY's PEM, else the key folder's key,
    made on first start."""
    env = os.environ if environ is None else environ
    folder = keys_dir(env)
    pem = env.get(SIGNING_KEY)
    key = _parsed(pem.encode(), SIGNING_KEY) if pem else signing_key(folder / SIGNING_FILE)
    return Signer(key, retired_keys(folder / RETIRED))


def signing_key(path: Path) -> Ed25519PrivateKey:
    """The key in `path`, made there first when there is none.

    Several processes may start at once: each writes its own key to a file of its own and links
    it to `path`, which only the first link creates; all then read the one that won.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(_pem(Ed25519PrivateKey.generate()))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return _parsed(path.read_bytes(), str(path))


def retired_keys(folder: Path) -> tuple[dict[str, Any], ...]:
    """The public JWKs of `folder/*.json` that are Ed25519 keys, in name order."""
    found = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            jwk = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            raise SigningKeyError(f"{path} is not a JWK file: {error}") from None
        if not receipts.public_keys({"keys": [jwk]}):
            raise SigningKeyError(f"{path} is not the JWK of an Ed25519 public key")
        found.append(receipts.public_jwk(next(iter(receipts.public_keys({"keys": [jwk]}).values()))))
    return tuple(found)


def rotate(folder: Path) -> tuple[str, str]:
    """Retire the folder's signing key (its public JWK kept in retired/) and make a new one;
    (old kid, new kid). Running processes keep the old key until they restart."""
    path = folder / SIGNING_FILE
    old = Signer(signing_key(path))
    (folder / RETIRED).mkdir(parents=True, exist_ok=True)
    (folder / RETIRED / f"{old.kid}.json").write_text(json.dumps(old.current, indent=2) + "\n")
    path.unlink()
    return old.kid, Signer(signing_key(path)).kid


def _pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _parsed(pem: bytes, source: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as error:
        raise SigningKeyError(f"{source} holds no readable private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{source} holds a {type(key).__name__}, not an Ed25519 private key")
    return key
