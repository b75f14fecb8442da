"""Passkeys (WebAuthn, by py_webauthn): an account adds one while signed in, and signs in with it
later without typing a name (a discoverable credential names its account itself).

Each ceremony's challenge is kept server-side under a random ceremony id for CEREMONY_SECONDS
and used once (GETDEL): an answer to an old or another ceremony's challenge is refused.
Keys: webauthn:{<ceremony id>} (JSON {challenge, account}), passkey:{<credential id>} (JSON
{account, public_key, sign_count}) and account:{<name>}:passkeys (the set of its credential ids).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from service.accounts.store import Account, Accounts
from service.errors import Unauthorized, Unprocessable

CEREMONY_SECONDS = 300
MAX_PASSKEYS = 20
RP_NAME = "Archipelago"


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the site's domain (no port, no scheme) and the origins its pages
    are served from."""

    id: str
    origins: tuple[str, ...]


def ceremony_key(ceremony: str) -> str:
    return f"webauthn:{{{ceremony}}}"


def passkey_key(credential_id: str) -> str:
    return f"passkey:{{{credential_id}}}"


def _passkeys_of(account: Account) -> str:
    return f"account:{{{account.key}}}:passkeys"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Passkeys:
    """The two ceremonies, registration and authentication, and the passkeys they keep."""

    def __init__(self, client: redis.Redis | RedisCluster, accounts: Accounts) -> None:
        self._redis = client
        self._accounts = accounts

    def registration_options(self, account: Account, rp: RelyingParty) -> tuple[str, dict[str, Any]]:
        """A ceremony id and the options navigator.credentials.create() takes (as JSON)."""
        held = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in self.credential_ids(account)]
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=bytes.fromhex(account.user),
            user_display_name=account.name,
            exclude_credentials=held,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
        )
        return self._begin(options.challenge, account), json.loads(options_to_json(options))

    def register(self, account: Account, ceremony: str, credential: dict[str, Any], rp: RelyingParty) -> str:
        """Verify the browser's answer to the ceremony and keep the passkey; its credential id.
        422 ceremony_unknown for a ceremony that expired, was used or is another account's,
        422 passkey_invalid for an answer that does not verify, 409 too_many_passkeys."""
        challenge = self._end(ceremony, account.key)
        if len(self.credential_ids(account)) >= MAX_PASSKEYS:
            raise Unprocessable("too_many_passkeys", f"an account holds at most {MAX_PASSKEYS} passkeys")
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=list(rp.origins),
            )
        except (WebAuthnException, ValueError, KeyError, TypeError, AttributeError) as error:
            raise Unprocessable("passkey_invalid", f"the passkey does not verify: {error}") from None
        credential_id = bytes_to_base64url(verified.credential_id)
        record = {
            "account": account.key,
            "public_key": bytes_to_base64url(verified.credential_public_key),
            "sign_count": verified.sign_count,
        }
        if not self._redis.set(passkey_key(credential_id), json.dumps(record), nx=True):
            raise Unprocessable("passkey_invalid", "this passkey is registered already")
        self._redis.sadd(_passkeys_of(account), credential_id)
        return credential_id

    def authentication_options(self, rp: RelyingParty) -> tuple[str, dict[str, Any]]:
        """A ceremony id and the options navigator.credentials.get() takes: any passkey of this
        site, which names its account itself."""
        options = generate_authentication_options(
            rp_id=rp.id, user_verification=UserVerificationRequirement.PREFERRED
        )
        return self._begin(options.challenge, None), json.loads(options_to_json(options))

    def authenticate(self, ceremony: str, credential: dict[str, Any], rp: RelyingParty) -> Account:
        """The account whose passkey answered the ceremony. 422 ceremony_unknown; 401
        passkey_invalid for an unknown passkey or an answer that does not verify."""
        challenge = self._end(ceremony, None)
        credential_id = str(credential.get("id", ""))
        raw = self._redis.get(passkey_key(credential_id)) if credential_id else None
        if raw is None:
            raise Unauthorized("passkey_invalid", "this passkey belongs to no account here")
        record = json.loads(raw)
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=list(rp.origins),
                credential_public_key=base64url_to_bytes(record["public_key"]),
                credential_current_sign_count=int(record["sign_count"]),
            )
        except (WebAuthnException, ValueError, KeyError, TypeError, AttributeError) as error:
            raise Unauthorized("passkey_invalid", f"the passkey does not verify: {error}") from None
        account = self._accounts.by_key(str(record["account"]))
        if account is None:
            raise Unauthorized("passkey_invalid", "this passkey belongs to no account here")
        record["sign_count"] = verified.new_sign_count
        self._redis.set(passkey_key(credential_id), json.dumps(record), xx=True)
        return account

    def credential_ids(self, account: Account) -> list[str]:
        return sorted(_text(c) for c in self._redis.smembers(_passkeys_of(account)))

    def _begin(self, challenge: bytes, account: Account | None) -> str:
        ceremony = secrets.token_urlsafe(24)
        record = {"challenge": bytes_to_base64url(challenge), "account": account.key if account else None}
        self._redis.set(ceremony_key(ceremony), json.dumps(record), ex=CEREMONY_SECONDS)
        return ceremony

    def _end(self, ceremony: str, account_key: str | None) -> bytes:
        raw = self._redis.getdel(ceremony_key(ceremony)) if ceremony else None
        record = None if raw is None else json.loads(raw)
        if record is None or record.get("account") != account_key:
            raise Unprocessable(
                "ceremony_unknown", "this passkey ceremony expired or is unknown: start again"
            )
        return base64url_to_bytes(record["challenge"])
