"""Accounts: a person's name and password (argon2id), passkeys (WebAuthn), the sessions a
browser holds in a cookie, and what an account keeps: its seats' tokens, its tournaments and the
player id its ratings follow (docs/accounts.md)."""
