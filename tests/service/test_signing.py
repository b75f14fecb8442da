"""The service's receipt key: made once in the key folder, read back on every start, given by a
setting instead, and rotated with the old public key still published."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from record import receipts
from service import admin
from service.signing import (
    KEYS_DIR,
    SIGNING_FILE,
    SIGNING_KEY,
    Signer,
    SigningKeyError,
    keys_dir,
    rotate,
    signer_from,
    signing_key,
)
from tests.replays.play import sealed_game, setup_of

GAME = sealed_game(random.Random(1), setup_of("kahuna"))


def test_the_first_start_makes_a_key_in_the_folder_and_later_starts_read_it(tmp_path: Path) -> None:
    environ = {KEYS_DIR: str(tmp_path / "keys")}
    first = signer_from(environ)
    assert (tmp_path / "keys" / SIGNING_FILE).stat().st_mode & 0o077 == 0  # the owner's alone
    assert signer_from(environ).kid == first.kid
    assert first.key_set() == {"keys": [first.current]}


def test_processes_starting_at_once_all_sign_with_the_one_key_that_was_made(tmp_path: Path) -> None:
    path = tmp_path / SIGNING_FILE
    made: list[str] = []
    starts = [threading.Thread(target=lambda: made.append(Signer(signing_key(path)).kid)) for _ in range(8)]
    for start in starts:
        start.start()
    for start in starts:
        start.join()
    assert len(set(made)) == 1 and len(made) == 8
    assert [p.name for p in tmp_path.iterdir()] == [SIGNING_FILE]  # no draft left behind


def test_the_key_folder_defaults_to_keys_in_the_data_directory(tmp_path: Path) -> None:
    assert keys_dir({"ARCHIPELAGO_DATA": str(tmp_path)}) == tmp_path / "keys"
    assert keys_dir({KEYS_DIR: str(tmp_path / "k"), "ARCHIPELAGO_DATA": "x"}) == tmp_path / "k"


def test_a_key_given_by_the_setting_wins_over_the_folder(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    signer = signer_from({KEYS_DIR: str(tmp_path), SIGNING_KEY: pem})
    assert signer.kid == receipts.public_jwk(key.public_key())["kid"]
    assert not (tmp_path / SIGNING_FILE).exists()
    with pytest.raises(SigningKeyError, match="no readable private key"):
        signer_from({KEYS_DIR: str(tmp_path), SIGNING_KEY: "not a key"})


def test_a_rotation_signs_with_a_new_key_and_keeps_publishing_the_old_one(tmp_path: Path) -> None:
    environ = {KEYS_DIR: str(tmp_path)}
    before = signer_from(environ)
    old_receipt = before.receipt(receipts.GAME, "g1", GAME[2])
    old_kid, new_kid = rotate(tmp_path)
    after = signer_from(environ)
    assert (old_kid, new_kid) == (before.kid, after.kid) and old_kid != new_kid
    assert [k["kid"] for k in after.key_set()["keys"]] == [new_kid, old_kid]
    keys = receipts.public_keys(after.key_set())
    assert receipts.signature_fault(old_receipt, keys) is None
    assert receipts.signature_fault(after.receipt(receipts.GAME, "g1", GAME[3]), keys) is None


def test_a_retired_key_file_that_is_no_ed25519_jwk_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "retired").mkdir()
    (tmp_path / "retired" / "old.json").write_text('{"kty": "RSA"}')
    with pytest.raises(SigningKeyError, match="not the JWK of an Ed25519 public key"):
        signer_from({KEYS_DIR: str(tmp_path)})


def test_a_receipt_names_its_event_s_version_hash_and_time_and_is_the_same_each_time() -> None:
    signer = Signer(Ed25519PrivateKey.generate())
    event = GAME[6]
    receipt = signer.receipt(receipts.TOURNAMENT, "t1", event)
    assert (receipt["version"], receipt["hash"], receipt["at"]) == (event.version, event.hash, event.at)
    assert receipt["tournament_id"] == "t1"
    # A retried command is answered again with the very same receipt.
    assert signer.receipt(receipts.TOURNAMENT, "t1", event) == receipt


def test_the_admin_command_rotates_the_folder_s_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(KEYS_DIR, str(tmp_path))
    monkeypatch.delenv(SIGNING_KEY, raising=False)
    before = signer_from().kid
    assert admin.main(["rotate-signing-key"]) == 0
    assert f"retired key {before}" in capsys.readouterr().out
    assert [k["kid"] for k in signer_from().key_set()["keys"]][1:] == [before]
