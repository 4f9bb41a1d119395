"""A table's shared word (`join --word`): friends type it, strangers do not know it, and a peer without it cannot
complete the handshake (docs/protocol.md, "Transport"; docs/security.md, "strangers sitting down in the lobby").

The word never leaves the process. Each peer stretches it once, with the table's name as salt, into a 32-byte key
(Argon2id, libsodium's interactive limits: about 0.3 s and 64 MiB, so every guess of a stranger who recorded a
handshake costs as much); in the handshake each side proves it holds the key by a keyed BLAKE2b of its own view of
the transcript (both fresh nonces, both identity keys), which a stranger can neither make nor replay.
"""

from __future__ import annotations

import hmac
import unicodedata

import nacl.encoding
import nacl.hash
import nacl.pwhash.argon2id as argon2id
from adp2p.crypto import domains

KEY_SIZE = 32
MAC_SIZE = 32
MAX_WORD_BYTES = 256


def word_key(word: str, table: str) -> bytes:
    """The key a table's word stands for (the same for every peer that types the same word at the same table;
    the word is compared as typed after Unicode NFC normalisation and trimming)."""
    text = unicodedata.normalize("NFC", word.strip()).encode("utf-8")
    if not 1 <= len(text) <= MAX_WORD_BYTES:
        raise ValueError(f"a table word must be 1..{MAX_WORD_BYTES} bytes")
    salt = nacl.hash.blake2b(
        domains.TABLE_WORD + table.encode("utf-8"), digest_size=argon2id.SALTBYTES, encoder=nacl.encoding.RawEncoder
    )
    ops, mem = argon2id.OPSLIMIT_INTERACTIVE, argon2id.MEMLIMIT_INTERACTIVE
    return bytes(argon2id.kdf(KEY_SIZE, text, salt, opslimit=ops, memlimit=mem))


def word_mac(key: bytes, transcript: bytes) -> bytes:
    """The proof that a signer of `transcript` (its own view of the handshake) holds the table's key."""
    return bytes(
        nacl.hash.blake2b(
            domains.TABLE_WORD_MAC + transcript, key=key, digest_size=MAC_SIZE, encoder=nacl.encoding.RawEncoder
        )
    )


def mac_matches(key: bytes, transcript: bytes, mac: object) -> bool:
    return isinstance(mac, bytes) and hmac.compare_digest(word_mac(key, transcript), mac)
