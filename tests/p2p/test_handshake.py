"""Tests for adp2p.p2p.handshake: success, mismatches, forged/replayed signatures, hostile hellos."""

from __future__ import annotations

import contextlib
import secrets
import struct
from typing import Any

import pytest
import trio
import trio.testing
from adp2p.crypto import domains
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.framing import DEFAULT_MAX_FRAME, FramedStream, PeerClosed
from adp2p.p2p.handshake import (
    HANDSHAKE_VERSION,
    HandshakeAborted,
    HandshakeBadSignature,
    HandshakeClosed,
    HandshakeError,
    HandshakeGameMismatch,
    HandshakeSelf,
    HandshakeTableMismatch,
    HandshakeTimeout,
    HandshakeUnexpectedPeer,
    HandshakeVersionMismatch,
    HandshakeWordMismatch,
    MalformedHandshake,
    PeerInfo,
    handshake,
    transcript,
)
from adp2p.p2p.table_word import word_key

ANN = SecretIdentity.generate()
BOB = SecretIdentity.generate()
EVE = SecretIdentity.generate()
GAME = bytes(range(16))


def pair() -> tuple[FramedStream, FramedStream]:
    a, b = trio.testing.memory_stream_pair()
    return FramedStream(a), FramedStream(b)


async def both(
    a_kwargs: dict[str, Any], b_kwargs: dict[str, Any]
) -> tuple[PeerInfo | BaseException, PeerInfo | BaseException]:
    """Run ann and bob against each other; return each side's result or exception."""
    fa, fb = pair()
    results: dict[str, PeerInfo | BaseException] = {}

    async def run(key: str, framed: FramedStream, secret: SecretIdentity, kw: dict[str, Any]) -> None:
        args = {"name": key, "table": "friday", "timeout": 5.0} | kw
        try:
            results[key] = await handshake(framed, secret, **args)
        except HandshakeError as exc:
            results[key] = exc
        await framed.aclose()

    with trio.fail_after(10):
        async with trio.open_nursery() as n:
            n.start_soon(run, "ann", fa, ANN, a_kwargs)
            n.start_soon(run, "bob", fb, BOB, b_kwargs)
    return results["ann"], results["bob"]


async def test_success_memory() -> None:
    a, b = await both({"game": GAME}, {"game": GAME})
    assert isinstance(a, PeerInfo) and isinstance(b, PeerInfo)
    assert a.identity == BOB.public and a.name == "bob" and a.fingerprint == BOB.public.fingerprint()
    assert b.identity == ANN.public and b.name == "ann"
    assert "bob" in a.label and a.fingerprint in a.label


async def test_session_ids_are_exchanged() -> None:
    a, b = await both({"session": b"A" * 16}, {"session": b"B" * 16})
    assert isinstance(a, PeerInfo) and isinstance(b, PeerInfo)
    assert a.session == b"B" * 16 and b.session == b"A" * 16


async def test_success_loopback_tcp() -> None:
    with trio.fail_after(10):
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        got: dict[str, PeerInfo] = {}
        async with trio.open_nursery() as n:

            async def server() -> None:
                stream = await listeners[0].accept()
                async with FramedStream(stream) as framed:
                    got["server"] = await handshake(framed, BOB, "bob", "friday", game=GAME)

            n.start_soon(server)
            async with FramedStream(await trio.open_tcp_stream("127.0.0.1", port)) as framed:
                got["client"] = await handshake(framed, ANN, "ann", "friday", game=GAME)
        await listeners[0].aclose()
    assert got["client"].identity == BOB.public
    assert got["server"].identity == ANN.public


async def test_wrong_table_fails_on_both_sides_naming_the_peer() -> None:
    a, b = await both({"table": "friday"}, {"table": "saturday"})
    assert isinstance(a, HandshakeTableMismatch) and isinstance(b, HandshakeTableMismatch)
    assert "'saturday'" in str(a) and "'bob'" in str(a) and BOB.public.fingerprint() in str(a)
    assert "'ann'" in str(b) and ANN.public.fingerprint() in str(b)


async def test_game_mismatch() -> None:
    a, b = await both({"game": GAME}, {"game": bytes(16)})
    assert isinstance(a, HandshakeGameMismatch) and isinstance(b, HandshakeGameMismatch)
    assert GAME.hex() in str(a)
    a, b = await both({"game": GAME}, {})
    assert isinstance(a, HandshakeGameMismatch) and isinstance(b, HandshakeGameMismatch)


async def test_expected_and_allowed_fingerprints() -> None:
    a, b = await both({"expected_fingerprint": EVE.public.fingerprint()}, {})
    assert isinstance(a, HandshakeUnexpectedPeer) and EVE.public.fingerprint() in str(a)
    assert isinstance(b, HandshakeError)  # ann aborted: bob learns why or sees the close
    a, b = await both({"allowed": {EVE.public.fingerprint()}}, {})
    assert isinstance(a, HandshakeUnexpectedPeer)
    a, b = await both(
        {"allowed": {BOB.public.fingerprint()}}, {"expected_fingerprint": ANN.public.fingerprint()}
    )
    assert isinstance(a, PeerInfo) and isinstance(b, PeerInfo)


async def test_connecting_to_ourselves_is_refused() -> None:
    fa, fb = pair()
    errors: list[BaseException] = []

    async def run(framed: FramedStream) -> None:
        try:
            await handshake(framed, ANN, "ann", "friday", timeout=5)
        except HandshakeError as exc:
            errors.append(exc)

    with trio.fail_after(10):
        async with trio.open_nursery() as n:
            n.start_soon(run, fa)
            n.start_soon(run, fb)
    assert len(errors) == 2 and all(isinstance(e, HandshakeSelf) for e in errors)


# --------------------------------------------------------------------------- a hand-driven peer


def hello_of(secret: SecretIdentity, who: str = "eve", **over: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {
        "t": "hello",
        "v": HANDSHAKE_VERSION,
        "table": "friday",
        "name": who,
        "bundle": make_bundle(secret, who),
        "nonce": secrets.token_bytes(32),
    }
    msg.update(over)
    return {k: v for k, v in msg.items() if v is not None}


async def victim_vs(script: Any, **kw: Any) -> BaseException | PeerInfo:
    """Run ann's handshake against *script(framed)*; return ann's result or exception."""
    fa, fm = pair()
    out: list[BaseException | PeerInfo] = []

    async def victim() -> None:
        try:
            out.append(await handshake(fa, ANN, "ann", "friday", **({"timeout": 5.0} | kw)))
        except HandshakeError as exc:
            out.append(exc)
        await fa.aclose()

    with trio.fail_after(10):
        async with trio.open_nursery() as n:
            n.start_soon(victim)
            with contextlib.suppress(PeerClosed, trio.BrokenResourceError, trio.ClosedResourceError):
                await script(fm)
    return out[0]


def sign_as(secret: SecretIdentity, mine: dict[str, Any], theirs: dict[str, Any], **over: Any) -> bytes:
    fields: dict[str, Any] = {
        "version": HANDSHAKE_VERSION,
        "table": "friday",
        "game": None,
        "signer": secret.public,
        "signer_nonce": mine["nonce"],
        "signer_sid": None,
        "peer": ANN.public,
        "peer_nonce": theirs["nonce"],
        "peer_sid": None,
    } | over
    return secret.sign(domains.HANDSHAKE, transcript(**fields))


async def test_honest_script_peer_succeeds() -> None:
    async def script(f: FramedStream) -> None:
        mine = hello_of(BOB, "bob")
        await f.send(mine)
        theirs = await f.receive()
        await f.send({"t": "auth", "sig": sign_as(BOB, mine, theirs)})
        assert (await f.receive())["t"] == "auth"
        await f.send({"t": "ok"})
        assert (await f.receive())["t"] == "ok"

    got = await victim_vs(script)
    assert isinstance(got, PeerInfo) and got.identity == BOB.public


async def test_tampered_signature_is_rejected_and_peer_told() -> None:
    told: list[dict[str, Any]] = []

    async def script(f: FramedStream) -> None:
        mine = hello_of(BOB, "bob")
        await f.send(mine)
        theirs = await f.receive()
        sig = bytearray(sign_as(BOB, mine, theirs))
        sig[5] ^= 0x01
        await f.send({"t": "auth", "sig": bytes(sig)})
        await f.receive()  # ann's own auth
        told.append(await f.receive())

    got = await victim_vs(script)
    assert isinstance(got, HandshakeBadSignature)
    assert "'bob'" in str(got) and BOB.public.fingerprint() in str(got)
    assert told and told[0]["t"] == "abort" and "does not verify" in told[0]["reason"]


async def test_signature_over_other_table_or_by_other_key_is_rejected() -> None:
    for kwargs, signer in (({"table": "other"}, BOB), ({}, EVE), ({"signer_nonce": bytes(32)}, BOB)):

        async def script(
            f: FramedStream, kwargs: dict[str, Any] = kwargs, signer: SecretIdentity = signer
        ) -> None:
            mine = hello_of(BOB, "bob")
            await f.send(mine)
            theirs = await f.receive()
            extra = dict(kwargs)
            if signer is EVE:
                extra["signer"] = BOB.public
            await f.send({"t": "auth", "sig": sign_as(signer, mine, theirs, **extra)})
            await f.receive()
            await f.receive()

        assert isinstance(await victim_vs(script), HandshakeBadSignature)


async def test_replayed_transcript_fails() -> None:
    """A recording of an honest session by bob cannot be replayed to ann later."""
    recorded: dict[str, Any] = {}

    async def honest(f: FramedStream) -> None:
        mine = hello_of(BOB, "bob")
        await f.send(mine)
        theirs = await f.receive()
        recorded["hello"] = mine
        recorded["auth"] = {"t": "auth", "sig": sign_as(BOB, mine, theirs)}
        await f.send(recorded["auth"])
        await f.receive()
        await f.send({"t": "ok"})
        await f.receive()

    assert isinstance(await victim_vs(honest), PeerInfo)

    async def replay(f: FramedStream) -> None:
        await f.send(recorded["hello"])
        await f.receive()
        await f.send(recorded["auth"])
        await f.receive()
        await f.receive()

    got = await victim_vs(replay)
    assert isinstance(got, HandshakeBadSignature)
    assert "replayed" in str(got)


async def test_reflected_signature_fails() -> None:
    """Sending ann's own auth signature back to her does not authenticate anyone."""

    async def reflect(f: FramedStream) -> None:
        await f.send(hello_of(BOB, "bob"))
        await f.receive()
        theirs = await f.receive()
        await f.send(theirs)
        await f.receive()

    assert isinstance(await victim_vs(reflect), HandshakeBadSignature)


async def test_wrong_version() -> None:
    async def script(f: FramedStream) -> None:
        await f.send(hello_of(BOB, "bob", v=HANDSHAKE_VERSION + 1))
        await f.receive()

    got = await victim_vs(script)
    assert isinstance(got, HandshakeVersionMismatch) and str(HANDSHAKE_VERSION + 1) in str(got)


@pytest.mark.parametrize(
    ("hello", "match"),
    [
        ({"t": "auth"}, "not a hello"),
        (hello_of(BOB, "bob", v="1"), "'v'"),
        (hello_of(BOB, "bob", bundle=None), "'bundle'"),
        (hello_of(BOB, "bob", bundle=b"\x92\xc4\x00\xc4\x00"), "bundle"),
        (hello_of(BOB, "bob", name="alice"), "differs from the name in its bundle"),
        (hello_of(BOB, "bob", nonce=b"short"), "nonce"),
        (hello_of(BOB, "bob", table=""), "table"),
        (hello_of(BOB, "bob", table=7), "'table'"),
        (hello_of(BOB, "bob", game="x"), "'game'"),
        (hello_of(BOB, "bob", sid=b"x" * 100), "'sid'"),
    ],
)
async def test_malformed_hello(hello: dict[str, Any], match: str) -> None:
    async def script(f: FramedStream) -> None:
        await f.send(hello)
        await f.receive()
        await f.receive()

    got = await victim_vs(script)
    assert isinstance(got, MalformedHandshake)
    assert match in str(got)


async def test_tampered_bundle_is_malformed() -> None:
    hello = hello_of(BOB, "bob")
    bundle = bytearray(hello["bundle"])
    bundle[-1] ^= 1
    hello["bundle"] = bytes(bundle)

    async def script(f: FramedStream) -> None:
        await f.send(hello)
        await f.receive()

    assert isinstance(await victim_vs(script), MalformedHandshake)


async def test_garbage_hello() -> None:
    async def script(f: FramedStream) -> None:
        junk = b"\xc1\xc1garbage"
        await f.stream.send_all(struct.pack(">I", len(junk)) + junk)
        await f.receive()

    got = await victim_vs(script)
    assert isinstance(got, MalformedHandshake) and "bad frame" in str(got)


async def test_non_map_hello() -> None:
    async def script(f: FramedStream) -> None:
        body = b"\x93\x01\x02\x03"  # [1, 2, 3]
        await f.stream.send_all(struct.pack(">I", len(body)) + body)
        await f.receive()

    assert isinstance(await victim_vs(script), MalformedHandshake)


async def test_oversized_hello_rejected_before_reading_body() -> None:
    async def script(f: FramedStream) -> None:
        # Announce 512 KiB (under the stream's 1 MiB limit, over the handshake limit) but send 10 bytes.
        await f.stream.send_all(struct.pack(">I", 512 * 1024) + b"x" * 10)
        await f.receive()

    got = await victim_vs(script, timeout=30.0)
    assert isinstance(got, MalformedHandshake) and "limit" in str(got)


async def test_max_size_restored_after_handshake() -> None:
    fa, fb = pair()
    with trio.fail_after(10):
        async with trio.open_nursery() as n:
            n.start_soon(handshake, fa, ANN, "ann", "friday")
            n.start_soon(handshake, fb, BOB, "bob", "friday")
    assert fa.max_size == DEFAULT_MAX_FRAME


async def test_timeout_when_peer_is_silent() -> None:
    async def script(f: FramedStream) -> None:
        await f.receive()
        await trio.sleep_forever()

    fa, fm = pair()
    with trio.fail_after(5):
        async with trio.open_nursery() as n:

            async def silent() -> None:
                with trio.move_on_after(2):
                    await script(fm)

            n.start_soon(silent)
            with pytest.raises(HandshakeTimeout, match=r"within 0\.2 s") as info:
                await handshake(fa, ANN, "ann", "friday", timeout=0.2, peer_label="127.0.0.1:9")
            assert "127.0.0.1:9" in str(info.value)
            n.cancel_scope.cancel()


async def test_peer_closing_midway() -> None:
    async def script(f: FramedStream) -> None:
        await f.send(hello_of(BOB, "bob"))
        await f.receive()
        await f.aclose()

    got = await victim_vs(script)
    assert isinstance(got, HandshakeClosed) and "'bob'" in str(got)


async def test_abort_reason_is_sanitised() -> None:
    async def script(f: FramedStream) -> None:
        await f.send({"t": "abort", "reason": "no\x1b[31m" + "x" * 1000})

    got = await victim_vs(script)
    assert isinstance(got, HandshakeAborted)
    assert "\x1b" not in str(got) and len(got.reason) < 300


async def test_messages_carry_no_secret() -> None:
    a, _ = await both({"table": "friday"}, {"table": "saturday"})
    secret_hex = ANN.to_bytes().hex()
    assert secret_hex[2:34] not in str(a) and secret_hex not in repr(a)


async def test_bad_local_arguments() -> None:
    fa, _ = pair()
    with pytest.raises(ValueError):
        await handshake(fa, ANN, "ann", "")
    with pytest.raises(ValueError):
        await handshake(fa, ANN, "ann", "t", game=b"")


# --- a table's shared word (issue 35 item 7) ---

WORD_KEY = word_key("blue heron at dawn", "friday")


def test_a_word_stands_for_one_key_per_table() -> None:
    assert word_key(" blue heron at dawn ", "friday") == WORD_KEY  # trimmed as typed
    assert word_key("blue heron at dawn", "saturday") != WORD_KEY  # the table is the salt
    assert word_key("blue heron at dusk", "friday") != WORD_KEY
    with pytest.raises(ValueError):
        word_key("   ", "friday")


async def test_players_who_know_the_word_meet() -> None:
    a, b = await both({"word_key": WORD_KEY}, {"word_key": WORD_KEY})
    assert isinstance(a, PeerInfo) and isinstance(b, PeerInfo)


@pytest.mark.parametrize(
    ("ann", "bob"),
    [(WORD_KEY, word_key("guess", "friday")), (WORD_KEY, None), (None, WORD_KEY)],
    ids=["another-word", "bob-has-none", "ann-has-none"],
)
async def test_a_peer_without_the_word_is_refused_on_both_sides(ann: bytes | None, bob: bytes | None) -> None:
    a, b = await both({"word_key": ann}, {"word_key": bob})
    assert isinstance(a, HandshakeError) and isinstance(b, HandshakeError)
    assert isinstance(a, HandshakeWordMismatch) or isinstance(b, HandshakeWordMismatch), (a, b)
    assert "word" in str(a) + str(b)


async def test_the_word_is_never_sent_and_a_recorded_handshake_does_not_replay() -> None:
    """Every byte a peer with a word sends holds neither the word nor its key; a stranger replaying a friend's
    recorded hello and auth (its proof of the word) to that friend's table fails: the verifier's nonce is fresh."""
    sent: list[bytes] = []
    fa, fb = pair()
    orig = fa.stream.send_all

    async def record(data: bytes) -> None:
        sent.append(bytes(data))
        await orig(data)

    fa.stream.send_all = record  # type: ignore[method-assign]
    got: dict[str, Any] = {}

    async def side(key: str, framed: FramedStream, secret: SecretIdentity) -> None:
        got[key] = await handshake(framed, secret, key, "friday", word_key=WORD_KEY, timeout=5)

    async with trio.open_nursery() as n:
        n.start_soon(side, "ann", fa, ANN)
        n.start_soon(side, "bob", fb, BOB)
    wire = b"".join(sent)
    assert b"blue heron" not in wire and WORD_KEY not in wire
    # replay ann's recorded frames (hello, auth, ok) to bob, who knows the word: refused at the proof
    fe, fb2 = pair()

    async def replay() -> None:
        for frame in sent:
            await fe.stream.send_all(frame)
        with contextlib.suppress(Exception):
            while await fe.stream.receive_some(65536):
                pass

    async with trio.open_nursery() as n:
        n.start_soon(replay)
        with pytest.raises((HandshakeBadSignature, HandshakeWordMismatch)):
            await handshake(fb2, BOB, "bob", "friday", word_key=WORD_KEY, timeout=5)
        await fe.stream.aclose()
