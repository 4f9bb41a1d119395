"""Signed, mutually authenticated session handshake over a :class:`~adp2p.p2p.framing.FramedStream`.

Both sides run the same symmetric protocol (there is no client/server asymmetry)::

    1. hello  {t: "hello", v, table, game?, name, bundle, nonce, sid?, word?}   both directions
    2. auth   {t: "auth", sig, mac?}                                             both directions
    3. ok     {t: "ok"}                                                    both directions

* ``v`` is :data:`HANDSHAKE_VERSION`; ``table`` the table name; ``game`` (optional) the game id
  bytes; ``name`` the display name, which must equal the name inside ``bundle``, a self-signed
  identity bundle (:func:`adp2p.crypto.identity.make_bundle`); ``nonce`` 32 fresh random bytes;
  ``sid`` (optional) an opaque session id of the sender's process (used by the transport to
  tell a restarted peer from a duplicate connection).
* After checking the peer's hello (version, table, game, bundle signature, not ourselves, the
  expected/allowed fingerprint), each side signs, under the ``HANDSHAKE`` domain, the
  transcript (:func:`transcript`)::

      msgpack [v, table, game or b"", signer_key(64), signer_nonce, signer_sid or b"",
               peer_key(64), peer_nonce, peer_sid or b""]

  i.e. both nonces, both identity keys, the table, the game and the version, from the
  signer's point of view (so a signature cannot be reflected back to its author).  Because
  the verifier's nonce is fresh, a signature recorded from an earlier session never verifies.
* ``word`` (``true``, optional): the sender's table has a shared word (:mod:`adp2p.p2p.table_word`); both sides
  must agree on having one. Then ``mac`` is the keyed BLAKE2b (:func:`~adp2p.p2p.table_word.word_mac`) of the
  same transcript the signature covers, under the key the word stands for: a peer without the word can neither
  make it nor replay one (the verifier's nonce is fresh). The word itself is never sent.
* The final ``ok`` makes failures symmetric: a side that rejects the peer's signature sends
  ``{t: "abort", reason}`` instead, so neither side believes in a session the other refused.

Every failure raises a :class:`HandshakeError` subclass whose message names the peer by its
claimed name and fingerprint (or by *peer_label*, e.g. its address, before its hello was
read) and never contains secret material.  The peer's abort reason is untrusted text: it is
shortened and stripped of control characters before it is quoted.

The handshake authenticates the peers to each other; it does not encrypt or MAC the frames
that follow (everything that matters on the table is signed on its own).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Final

import trio
from adp2p.crypto import domains
from adp2p.crypto.encoding import pack
from adp2p.crypto.errors import CryptoError, InvalidSignature
from adp2p.crypto.identity import MAX_NAME_BYTES, PublicIdentity, SecretIdentity, make_bundle, open_bundle

from .framing import FramedStream, FrameError, PeerClosed
from .table_word import mac_matches, word_mac

__all__ = [
    "DEFAULT_TIMEOUT",
    "HANDSHAKE_VERSION",
    "MAX_HELLO_FRAME",
    "HandshakeAborted",
    "HandshakeBadSignature",
    "HandshakeClosed",
    "HandshakeError",
    "HandshakeGameMismatch",
    "HandshakeSelf",
    "HandshakeTableMismatch",
    "HandshakeTimeout",
    "HandshakeUnexpectedPeer",
    "HandshakeVersionMismatch",
    "HandshakeWordMismatch",
    "MalformedHandshake",
    "PeerInfo",
    "handshake",
    "transcript",
]

HANDSHAKE_VERSION: Final = 1
NONCE_SIZE: Final = 32
MAX_TABLE_BYTES: Final = 64
MAX_GAME_BYTES: Final = 64
MAX_SID_BYTES: Final = 32
MAX_HELLO_FRAME: Final = 8 * 1024  # bytes of payload accepted for any handshake frame
MAX_REASON_CHARS: Final = 200
DEFAULT_TIMEOUT: Final = 10.0


@dataclass(frozen=True)
class PeerInfo:
    """An authenticated peer: its identity key, the name in its bundle, and its fingerprint."""

    identity: PublicIdentity
    name: str
    fingerprint: str
    session: bytes = field(default=b"", compare=False, repr=False)

    @property
    def label(self) -> str:
        """``"name (fingerprint)"``, for messages."""
        return f"{self.name!r} ({self.fingerprint})"


NOT_SEATED = "not seated at the game this table is playing"  # the abort reason for a player outside `allowed`


class HandshakeError(Exception):
    """Base class of every handshake failure; ``peer`` is how the peer was named in the message."""

    def __init__(self, message: str, *, peer: str) -> None:
        super().__init__(f"handshake with {peer}: {message}")
        self.peer = peer
        self.detail = message


class HandshakeTimeout(HandshakeError):
    """The handshake did not finish in time."""


class HandshakeClosed(HandshakeError):
    """The peer closed the connection (or broke framing) during the handshake."""


class MalformedHandshake(HandshakeError):
    """A handshake frame of the wrong shape, type, size, or with an invalid identity bundle."""


class HandshakeVersionMismatch(HandshakeError):
    """The peer speaks another handshake version."""


class HandshakeTableMismatch(HandshakeError):
    """The peer wants to sit at another table."""


class HandshakeGameMismatch(HandshakeError):
    """The peer is in another game (``game``: the one it named, None if it is in none)."""

    def __init__(self, message: str, *, peer: str, game: bytes | None = None) -> None:
        super().__init__(message, peer=peer)
        self.game = game


class HandshakeSelf(HandshakeError):
    """The peer is ourselves (we connected to our own listener)."""


class HandshakeWordMismatch(HandshakeError):
    """The peer does not know our table's word (or has one where we have none, or none where we have one)."""


class HandshakeUnexpectedPeer(HandshakeError):
    """The peer is not the one we expected (or not among the allowed ones)."""


class HandshakeBadSignature(HandshakeError):
    """The peer's transcript signature does not verify (tampered, replayed or wrong key)."""


class HandshakeAborted(HandshakeError):
    """The peer refused the handshake and said why (``reason``, untrusted text)."""

    def __init__(self, message: str, *, peer: str, reason: str) -> None:
        super().__init__(message, peer=peer)
        self.reason = reason


def _clean(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """Untrusted text made safe to quote: printable, bounded."""
    out = "".join(ch if ch.isprintable() else "?" for ch in text[:limit])
    return out + ("..." if len(text) > limit else "")


def transcript(
    *,
    version: int,
    table: str,
    game: bytes | None,
    signer: PublicIdentity,
    signer_nonce: bytes,
    signer_sid: bytes | None,
    peer: PublicIdentity,
    peer_nonce: bytes,
    peer_sid: bytes | None,
) -> bytes:
    """The bytes one side signs (under ``domains.HANDSHAKE``), from the signer's point of view."""
    return pack(
        [
            version,
            table.encode("utf-8"),
            game or b"",
            signer.to_bytes(),
            signer_nonce,
            signer_sid or b"",
            peer.to_bytes(),
            peer_nonce,
            peer_sid or b"",
        ]
    )


@dataclass
class _Hello:
    version: int
    table: str
    game: bytes | None
    name: str
    identity: PublicIdentity
    nonce: bytes
    sid: bytes | None
    label: str
    word: bool = False


def _field(msg: dict[str, Any], key: str, typ: type, who: str) -> Any:
    value = msg.get(key)
    if type(value) is not typ:
        got = "missing" if key not in msg else type(value).__name__
        raise MalformedHandshake(f"hello field {key!r}: expected {typ.__name__}, got {got}", peer=who)
    return value


def _parse_hello(msg: Any, who: str) -> _Hello:
    if not isinstance(msg, dict) or msg.get("t") != "hello":
        raise MalformedHandshake("first frame is not a hello", peer=who)
    # Version first, so a future peer gets a clear "version" error rather than a field error.
    version = msg.get("v")
    if type(version) is not int:
        raise MalformedHandshake("hello field 'v': expected int", peer=who)
    if version != HANDSHAKE_VERSION:
        raise HandshakeVersionMismatch(
            f"peer speaks handshake version {version}, we speak {HANDSHAKE_VERSION}", peer=who
        )
    bundle = _field(msg, "bundle", bytes, who)
    try:
        identity, bundle_name, _extra = open_bundle(bundle)
    except CryptoError as exc:
        raise MalformedHandshake(f"invalid identity bundle: {exc}", peer=who) from None
    claimed = f"{_clean(bundle_name, MAX_NAME_BYTES)!r} ({identity.fingerprint()})"
    name = _field(msg, "name", str, claimed)
    if name != bundle_name:
        raise MalformedHandshake(
            f"hello name {_clean(name, MAX_NAME_BYTES)!r} differs from the name in its bundle", peer=claimed
        )
    table = _field(msg, "table", str, claimed)
    if not 1 <= len(table.encode("utf-8")) <= MAX_TABLE_BYTES:
        raise MalformedHandshake(f"table name must be 1..{MAX_TABLE_BYTES} bytes", peer=claimed)
    game = msg.get("game")
    if game is not None and (type(game) is not bytes or not 1 <= len(game) <= MAX_GAME_BYTES):
        raise MalformedHandshake(f"hello field 'game': expected 1..{MAX_GAME_BYTES} bytes", peer=claimed)
    nonce = _field(msg, "nonce", bytes, claimed)
    if len(nonce) != NONCE_SIZE:
        raise MalformedHandshake(f"nonce must be {NONCE_SIZE} bytes, got {len(nonce)}", peer=claimed)
    sid = msg.get("sid")
    if sid is not None and (type(sid) is not bytes or not 1 <= len(sid) <= MAX_SID_BYTES):
        raise MalformedHandshake(f"hello field 'sid': expected 1..{MAX_SID_BYTES} bytes", peer=claimed)
    word = msg.get("word", False)
    if word is not True and word is not False:
        raise MalformedHandshake("hello field 'word': expected a boolean", peer=claimed)
    return _Hello(version, table, game, name, identity, nonce, sid, claimed, word)


async def _receive(framed: FramedStream, who: str, step: str) -> dict[str, Any]:
    try:
        msg = await framed.receive()
    except PeerClosed:
        raise HandshakeClosed(
            f"peer closed the connection while we waited for its {step}", peer=who
        ) from None
    except FrameError as exc:
        raise MalformedHandshake(f"bad frame instead of its {step}: {exc}", peer=who) from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        raise HandshakeClosed(f"connection broke while we waited for its {step}: {exc}", peer=who) from None
    if not isinstance(msg, dict):  # framed.expect may allow other types
        raise MalformedHandshake(f"{step} is a {type(msg).__name__}, expected a map", peer=who)
    if msg.get("t") == "abort":
        reason = msg.get("reason")
        text = _clean(reason) if isinstance(reason, str) else "(no reason given)"
        raise HandshakeAborted(f"peer refused the handshake: {text}", peer=who, reason=text)
    return msg


async def _send(framed: FramedStream, msg: dict[str, Any], who: str, step: str) -> None:
    try:
        await framed.send(msg)
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        raise HandshakeClosed(f"connection broke while sending our {step}: {exc}", peer=who) from None


async def _abort(framed: FramedStream, reason: str) -> None:
    """Best effort: tell the peer why we give up (the reason never holds secrets)."""
    with trio.move_on_after(1.0):
        with contextlib.suppress(Exception):
            await framed.send({"t": "abort", "reason": reason[:MAX_REASON_CHARS]})


async def handshake(
    framed: FramedStream,
    secret: SecretIdentity,
    name: str,
    table: str,
    *,
    game: bytes | None = None,
    session: bytes | None = None,
    expected_fingerprint: str | None = None,
    allowed: Collection[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    peer_label: str = "unidentified peer",
    on_hello: Callable[[str], None] | None = None,
    word_key: bytes | None = None,
) -> PeerInfo:
    """Run the handshake on *framed*; return the authenticated :class:`PeerInfo`.

    *table* (and *game*, if either side gives one) must match the peer's.  *expected_fingerprint*
    (e.g. a discovery hint) or *allowed* (e.g. the seated players) restrict who may answer.
    *session* is sent as ``sid`` and signed.  *on_hello* is called with the peer's fingerprint once its hello
    passed the checks above (before its signature is checked: it says who the peer claims to be).  *word_key*:
    the key of our table's word (:func:`adp2p.p2p.table_word.word_key`), which the peer must prove it holds.
    Raises a :class:`HandshakeError` subclass on any
    failure (after a best-effort ``abort`` frame to the peer); the stream is left open either
    way, closing it is the caller's job.  While the handshake runs, frames are limited to
    :data:`MAX_HELLO_FRAME` bytes.
    """
    bundle = make_bundle(secret, name)
    if not 1 <= len(table.encode("utf-8")) <= MAX_TABLE_BYTES:
        raise ValueError(f"table name must be 1..{MAX_TABLE_BYTES} bytes")
    if game is not None and not 1 <= len(game) <= MAX_GAME_BYTES:
        raise ValueError(f"game id must be 1..{MAX_GAME_BYTES} bytes")
    if session is not None and not 1 <= len(session) <= MAX_SID_BYTES:
        raise ValueError(f"session id must be 1..{MAX_SID_BYTES} bytes")
    my_nonce = secrets.token_bytes(NONCE_SIZE)
    hello: dict[str, Any] = {
        "t": "hello",
        "v": HANDSHAKE_VERSION,
        "table": table,
        "name": name,
        "bundle": bundle,
        "nonce": my_nonce,
    }
    if game is not None:
        hello["game"] = game
    if session is not None:
        hello["sid"] = session
    if word_key is not None:
        hello["word"] = True

    who = peer_label
    saved_max = framed.max_size
    framed.max_size = min(saved_max, MAX_HELLO_FRAME)
    try:
        with trio.fail_after(timeout):
            try:
                await _send(framed, hello, who, "hello")
                peer = _parse_hello(await _receive(framed, who, "hello"), who)
                who = peer.label
                _check_peer(peer, secret, table, game, expected_fingerprint, allowed)
                if peer.word != (word_key is not None):
                    raise HandshakeWordMismatch(
                        "the peer's table has a word and ours has none" if peer.word
                        else "our table has a word and the peer's has none", peer=who,
                    )
                if on_hello is not None:
                    on_hello(peer.identity.fingerprint())  # its hello passed: who it says it is (not proved yet)
                mine = transcript(
                    version=HANDSHAKE_VERSION,
                    table=table,
                    game=game,
                    signer=secret.public,
                    signer_nonce=my_nonce,
                    signer_sid=session,
                    peer=peer.identity,
                    peer_nonce=peer.nonce,
                    peer_sid=peer.sid,
                )
                auth_out: dict[str, Any] = {"t": "auth", "sig": secret.sign(domains.HANDSHAKE, mine)}
                if word_key is not None:
                    auth_out["mac"] = word_mac(word_key, mine)
                await _send(framed, auth_out, who, "signature")
                auth = await _receive(framed, who, "signature")
                sig = auth.get("sig")
                if auth.get("t") != "auth" or type(sig) is not bytes:
                    raise MalformedHandshake("expected an auth frame with a 'sig' of bytes", peer=who)
                theirs = transcript(
                    version=HANDSHAKE_VERSION,
                    table=table,
                    game=game,
                    signer=peer.identity,
                    signer_nonce=peer.nonce,
                    signer_sid=peer.sid,
                    peer=secret.public,
                    peer_nonce=my_nonce,
                    peer_sid=session,
                )
                try:
                    peer.identity.verify(domains.HANDSHAKE, theirs, sig)
                except InvalidSignature:
                    raise HandshakeBadSignature(
                        "transcript signature does not verify (tampered, replayed or made with another key)",
                        peer=who,
                    ) from None
                if word_key is not None and not mac_matches(word_key, theirs, auth.get("mac")):
                    raise HandshakeWordMismatch("the peer does not know our table's word", peer=who)
                await _send(framed, {"t": "ok"}, who, "confirmation")
                ok = await _receive(framed, who, "confirmation")
                if ok.get("t") != "ok":
                    raise MalformedHandshake("expected the final ok frame", peer=who)
            except HandshakeError as exc:
                if not isinstance(exc, HandshakeAborted | HandshakeClosed):
                    await _abort(framed, exc.detail)
                raise
    except trio.TooSlowError:
        raise HandshakeTimeout(f"no complete handshake within {timeout:g} s", peer=who) from None
    finally:
        framed.max_size = saved_max
    return PeerInfo(peer.identity, peer.name, peer.identity.fingerprint(), peer.sid or b"")


def _check_peer(
    peer: _Hello,
    secret: SecretIdentity,
    table: str,
    game: bytes | None,
    expected_fingerprint: str | None,
    allowed: Collection[str] | None,
) -> None:
    who = peer.label
    if peer.table != table:
        raise HandshakeTableMismatch(
            f"peer wants table {_clean(peer.table, MAX_TABLE_BYTES)!r}, we are at table {table!r}", peer=who
        )
    if peer.game != game:
        theirs = peer.game.hex() if peer.game is not None else "none"
        ours = game.hex() if game is not None else "none"
        raise HandshakeGameMismatch(f"peer is in game {theirs}, we are in game {ours}", peer=who, game=peer.game)
    if peer.identity == secret.public:
        raise HandshakeSelf("the peer has our own identity key (connected to ourselves?)", peer=who)
    fp = peer.identity.fingerprint()
    if expected_fingerprint is not None and fp != expected_fingerprint:
        raise HandshakeUnexpectedPeer(f"expected fingerprint {expected_fingerprint}, got {fp}", peer=who)
    if allowed is not None and fp not in allowed:
        raise HandshakeUnexpectedPeer(NOT_SEATED, peer=who)
