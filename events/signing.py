"""Ed25519 signatures on exported logs (the `cryptography` package).

The referee signs `SIGNED_MESSAGE_PREFIX + <hash of the log's last line>`; anyone holding its public key
(published at GET /keys) can check that nothing in the log changed since.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from loveletter.events.log import SIGNED_MESSAGE_PREFIX

ALGORITHM = "ed25519"


class SigningKey:
    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public_key = raw.hex()
        self.key_id = hashlib.sha256(raw).hexdigest()[:16]

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: str | Path) -> SigningKey:
        """The key pair at `path` (PKCS#8 PEM); created there, readable by the owner only, on first use."""
        path = Path(path)
        if path.exists():
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise ValueError(f"{path} does not hold an Ed25519 private key")
            return cls(key)
        private = Ed25519PrivateKey.generate()
        pem = private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fp:
            fp.write(pem)
        return cls(private)

    def sign(self, last_hash: str) -> dict[str, str]:
        """The fields of a log's signature line (see `events.log.game_lines`)."""
        signature = self._private.sign(SIGNED_MESSAGE_PREFIX + last_hash.encode())
        return {
            "algorithm": ALGORITHM,
            "key_id": self.key_id,
            "public_key": self.public_key,
            "signature": signature.hex(),
        }


def verify(public_key: str, last_hash: str, signature: str) -> bool:
    """Whether `signature` (hex) is `public_key`'s (hex) Ed25519 signature of a log ending with `last_hash`."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), SIGNED_MESSAGE_PREFIX + last_hash.encode())
    except (ValueError, InvalidSignature):
        return False
    return True
