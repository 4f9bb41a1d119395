"""The replicated game machine, in-process: N peers fold the same entries (through the real body codec),
each knowing only its own secrets; games finish, every peer agrees, the end-of-game audit passes; bad
entries are rejected naming the seat at fault and change nothing."""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.engine.bots import make_bot
from adp2p.p2p.machine import Machine, ProtocolError, SeatSecrets
from adp2p.p2p.protocol import Genesis, Kind, decode_body, encode_body


def make_table(n: int, profile: str = "classic", round_limit: int | None = 40) -> list[Machine]:
    ids = sorted((SecretIdentity.generate() for _ in range(n)), key=lambda s: s.public.sign_pk)
    gid = os.urandom(16)
    g = Genesis(
        "test", profile, None, round_limit, tuple(make_bundle(s, f"p{i}") for i, s in enumerate(ids)), gid
    )
    return [Machine(g, SeatSecrets.generate(i, ids[i], gid)) for i in range(n)]


def step(ms: list[Machine], bots: list[Any]) -> bool:
    d = ms[0].duty()
    if d is None:
        return False
    out = ms[d.seat].author_next(bots[d.seat])
    assert out is not None
    kind, body = out
    body = decode_body(encode_body(body))
    for m in ms:
        m.apply(d.seat, kind, body)
    return True


def run(ms: list[Machine], seed: int, until: Kind | None = None) -> None:
    bots = [make_bot("deduction", seed * 10 + i) for i in range(len(ms))]
    for _ in range(20_000):
        d = ms[0].duty()
        if d is None or (until is not None and d.kind == until):
            return
        step(ms, bots)
    raise AssertionError("no end")


@pytest.mark.parametrize("n,profile", [(3, "classic"), (4, "retro2013"), (6, "classic"), (2, "two-player")])
def test_whole_game_agrees_and_audits(n: int, profile: str) -> None:
    ms = make_table(n, profile)
    run(ms, seed=n)
    ref = ms[0]
    assert ref.complete and ref.state.over
    for m in ms:
        assert m.state.access == ref.state.access and m.state.winners == ref.state.winners
        assert m.state.hands == ref.state.hands and m.state.discard == ref.state.discard
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
        assert m.audit_report.winners == ref.state.winners
        # a peer's engine knows exactly the faces the rules showed it, each the true face
        for h, f in m.state.faces.items():
            assert m.audit_report.faces[h] == f
            public = m.state.known.get(h, 0) == m.state.all_mask
            assert public or m.state.known.get(h, 0) >> m.seat & 1, f"seat {m.seat} knows handle {h}"
        hidden = [h for h, mask in m.state.known.items() if not mask >> m.seat & 1]
        assert not any(h in m.state.faces for h in hidden if m.state.loc[h][0] in ("hand", "pw", "deck"))


def _first(ms: list[Machine], kind: Kind) -> tuple[int, dict[str, Any]]:
    run(ms, seed=7, until=kind)
    d = ms[0].duty()
    assert d is not None and d.kind == kind
    out = ms[d.seat].author_next(make_bot("deduction", 1))
    assert out is not None
    return d.seat, decode_body(encode_body(out[1]))


def _rejects(ms: list[Machine], seat: int, kind: Kind, body: dict[str, Any], blamed: int, words: str) -> None:
    m = ms[(seat + 1) % len(ms)]
    before = (m.entries, copy.deepcopy(m.state.access), m.state.seq, m.duty())
    with pytest.raises(ProtocolError) as ei:
        m.apply(seat, kind, body)
    assert ei.value.seat == blamed
    assert words in str(ei.value)
    assert (m.entries, m.state.access, m.state.seq, m.duty()) == before


def test_out_of_turn_entry_rejected() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.EVENT)
    other = (seat + 1) % 3
    _rejects(ms, other, Kind.EVENT, body, other, "out of turn")


def test_illegal_engine_move_rejected() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.EVENT)
    body = dict(body, ev={"t": "discard", "p": seat, "cards": [999]})
    _rejects(ms, seat, Kind.EVENT, body, seat, "illegal move")


def test_wrong_beacon_link_rejected() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.LINK)
    _rejects(ms, seat, Kind.LINK, dict(body, link=bytes(32)), seat, "wrong beacon link")


def test_bad_share_rejected() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.SHARES)
    # corrupt one public or sealed item: a sealed box that does not open for its recipient
    sealed = [list(x) for x in body["sealed"]]
    assert sealed
    rec, box = sealed[0]
    sealed[0] = [rec, box[:-1] + bytes([box[-1] ^ 1])]
    target = ms[rec]
    with pytest.raises(ProtocolError) as ei:
        target.apply(seat, Kind.SHARES, dict(body, sealed=sealed))
    assert ei.value.seat == seat and "do not open" in str(ei.value)


def test_missing_recipient_rejected_by_everyone() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.SHARES)
    _rejects(ms, seat, Kind.SHARES, dict(body, sealed=body["sealed"][1:]), seat, "sealed shares for seats")


def test_shuffle_that_is_not_a_deck_rejected() -> None:
    ms = make_table(3)
    seat, body = _first(ms, Kind.SHUFFLE)
    _rejects(ms, seat, Kind.SHUFFLE, dict(body, deck=body["deck"][:-64]), seat, "shuffle output rejected")


def test_malformed_join_rejected() -> None:
    ms = make_table(3)
    out = ms[0].author_next()
    assert out is not None
    _rejects(ms, 0, Kind.JOIN, dict(out[1], deck_proof=bytes(64)), 0, "deck key")


def test_secrets_roundtrip_and_wrong_revealed_key() -> None:
    ms = make_table(3, round_limit=3)
    run(ms, seed=2, until=Kind.SECRETS)
    d = ms[0].duty()
    assert d is not None and d.kind == Kind.SECRETS
    me = ms[d.seat].me
    assert me is not None and SeatSecrets.from_bytes(me.to_bytes()).to_bytes() == me.to_bytes()
    out = ms[d.seat].author_next()
    assert out is not None
    body = dict(out[1], deck_secret=ms[(d.seat + 1) % 3].me.deck_secret)  # type: ignore[union-attr]
    _rejects(ms, d.seat, Kind.SECRETS, body, d.seat, "revealed deck key")
