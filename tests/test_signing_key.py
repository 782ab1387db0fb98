"""The referee's signing key: where it is made, how it is published, and that two workers agree on one."""

from __future__ import annotations

import base64
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from loveletter.events.log import SIGNED_MESSAGE_PREFIX
from loveletter.events.signing import SigningKey, verify
from loveletter.server.settings import Settings


def test_the_default_key_lives_in_the_users_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("LOVELETTER_KEY_PATH", raising=False)
    path = Path(Settings().key_path)
    assert path == tmp_path / "data" / "loveletter-referee" / "signing.key"


def test_published_forms_are_one_key_and_verify_a_signature(tmp_path: Path) -> None:
    key = SigningKey.load_or_create(tmp_path / "k" / "signing.key")
    assert key.created
    published = key.published()
    raw = bytes.fromhex(published["public_key"])
    assert base64.b64decode(published["public_key_base64"]) == raw
    pem = serialization.load_pem_public_key(published["public_key_pem"].encode())
    assert isinstance(pem, Ed25519PublicKey)
    assert pem.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw) == raw
    assert "b'" not in published["signs"] and published["signs"].startswith(SIGNED_MESSAGE_PREFIX.decode())
    last = "ab" * 32
    assert verify(published["public_key"], last, key.sign(last)["signature"])
    again = SigningKey.load_or_create(tmp_path / "k" / "signing.key")
    assert not again.created and again.public_key == key.public_key
    assert (tmp_path / "k" / "signing.key").stat().st_mode & 0o777 == 0o600


def test_workers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    path = tmp_path / "signing.key"
    keys: list[SigningKey] = []
    start = threading.Barrier(8)

    def worker() -> None:
        start.wait()
        keys.append(SigningKey.load_or_create(path))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({k.public_key for k in keys}) == 1
    assert sum(k.created for k in keys) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["signing.key"]
