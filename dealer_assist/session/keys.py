"""Each session's Ed25519 signing key, kept in the user's data folder, never in the log.

``<data>/keys/<session id>.key`` is the private key (PKCS#8 PEM, mode 0600): only the app on the
computer that started the session can add events. ``<data>/keys/<session id>.pub.pem`` is the
public key (SubjectPublicKeyInfo PEM): anyone can check the log with it and nobody can forge
with it; ``dealer-assist log export-key`` copies it for a card room's auditor.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from dealer_assist.errors import InputError, StorageError
from dealer_assist.paths import data_subdir

__all__ = ["InvalidSignature", "Signer", "load_public_key", "public_key_pem", "trusted_key_path"]


def keys_dir() -> Path:
    return data_subdir("keys")


def _checked(session_id: str) -> str:
    """A session id as the app makes them (32 hex digits): a file's meta cannot point
    anywhere else."""
    if not (isinstance(session_id, str) and len(session_id) == 32
            and all(c in "0123456789abcdef" for c in session_id)):
        raise StorageError("damaged", f"The session id {session_id!r} is not one this app made.",
                           "Run dealer-assist verify on the file; do not continue it.")
    return session_id


def private_key_path(session_id: str) -> Path:
    return keys_dir() / f"{_checked(session_id)}.key"


def trusted_key_path(session_id: str) -> Path:
    return keys_dir() / f"{_checked(session_id)}.pub.pem"


def public_key_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM,
                            serialization.PublicFormat.SubjectPublicKeyInfo)


def public_key_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def load_public_key(source: str | Path | bytes) -> Ed25519PublicKey:
    """A public key from a PEM file or text, or 64 hex digits (the raw key)."""
    data = source if isinstance(source, bytes) else None
    if data is None:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read the key file {source}: {exc.strerror}") from None
    try:
        text = data.decode("ascii").strip()
        if len(text) == 64:
            return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
        key = serialization.load_pem_public_key(data)
    except ValueError as exc:  # also UnicodeDecodeError
        raise InputError(f"not an Ed25519 public key: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise InputError("not an Ed25519 public key")
    return key


class Signer:
    """A session's private key: signs each row's message."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.key = key
        self.public = key.public_key()
        self.sign = key.sign

    @classmethod
    def create(cls, session_id: str) -> Signer:
        """A new key, written to the data folder (private 0600, public beside it)."""
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        try:
            fd = os.open(private_key_path(session_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                         0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(pem)
                out.flush()
                os.fsync(out.fileno())
            trusted_key_path(session_id).write_bytes(public_key_pem(key.public_key()))
        except OSError as exc:
            raise StorageError(
                "disk_full" if exc.errno == 28 else "io",
                f"The session's signing key cannot be saved in {keys_dir()}: {exc.strerror}.",
                "Free some space or fix the data folder's permissions, then start again.",
            ) from None
        return cls(key)

    @classmethod
    def load(cls, session_id: str) -> Signer:
        path = private_key_path(session_id)
        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except FileNotFoundError:
            raise StorageError(
                "key_missing",
                f"This session was started on another computer or data folder: its signing "
                f"key ({path.name}) is not in {keys_dir()}.",
                "Copy that key file here to continue the session, or only read it "
                "(dealer-assist report / verify).",
            ) from None
        except (OSError, ValueError) as exc:
            raise StorageError("key_missing", f"The signing key {path} cannot be read: {exc}.",
                               "Restore it from a backup, or only read the session.") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise StorageError("key_missing", f"{path} is not an Ed25519 key.",
                               "Restore it from a backup, or only read the session.")
        return cls(key)
