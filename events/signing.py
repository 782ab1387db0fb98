"""Ed25519 signatures on exported logs (the `cryptography` package).

The referee signs `SIGNED_MESSAGE_PREFIX + <hash of the log's last line>`; anyone holding its public key
(published at GET /keys) can check that nothing in the log changed since.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from loveletter.events.log import SIGNED_MESSAGE_PREFIX

ALGORITHM = "ed25519"


class SigningKey:
    def __init__(self, private: Ed25519PrivateKey, *, created: bool = False) -> None:
        self._private = private
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public_key = raw.hex()
        self.key_id = hashlib.sha256(raw).hexdigest()[:16]
        self.created = created  # made by this process: its path is worth telling the operator

    def published(self) -> dict[str, str]:
        """The public half in the forms people check signatures with: hex, base64 and PEM (SubjectPublicKeyInfo)."""
        public = self._private.public_key()
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        return {
            "key_id": self.key_id,
            "algorithm": ALGORITHM,
            "public_key": self.public_key,
            "public_key_base64": base64.b64encode(raw).decode(),
            "public_key_pem": pem.decode(),
            "signs": SIGNED_MESSAGE_PREFIX.decode() + "<the 64 hex digits of the SHA-256 of a log's last line>",
        }

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
        # Written under a temporary name, then linked into place: a worker starting at the same moment either
        # finds no key or a whole one, never half a file, and exactly one key wins.
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # readable by the owner only
        partial = Path(name)
        with os.fdopen(fd, "wb") as fp:
            fp.write(pem)
            fp.flush()
            os.fsync(fp.fileno())
        try:
            os.link(partial, path)
        except FileExistsError:
            return cls.load_or_create(path)
        finally:
            partial.unlink()
        return cls(private, created=True)

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
