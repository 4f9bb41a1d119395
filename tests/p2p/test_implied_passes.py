"""Implied passes (docs/protocol.md, "Implied passes"): the window decisions before an entry travel as pass tokens
that the entry carries; every machine checks each token against the seat the rules put at that point, a bad
token is the carrier's fault, an abandon names the seat due after the tokens, and a seat that passed and then
acted at one decision is proven to have done so. Seeded in-process tables (tests/support/seeds.py); the
peer's pool of tokens (bounds, checks on receipt, its own tokens on disk) at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.passes import sign_pass
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.protocol import Kind, decode_body, encode_body
from seeds import seeded_table


def _window_run(m: Machine, least: int) -> int:
    """How many window decisions follow one another from here if everybody passes (0 if none is due)."""
    sim, k = m.snapshot(), 0
    while sim.window_actor() is not None and k < 64:
        sim.pass_window()
        k += 1
    return k if k >= least else 0


def _at_window(least: int = 2, n: int = 4, seed: int = 5) -> LocalTable:
    """A seeded table stopped where at least `least` window decisions in a row are due."""
    t = seeded_table(n, seed, profile="classic", round_limit=40, bots="random")
    while not _window_run(t.ms[0], least):
        assert t.step(), "the game ended before a window of that size"
    return t


def _tokens(t: LocalTable, k: int) -> tuple[list[bytes], Machine]:
    """The first k passes of the window due now, as tokens of the seats due, and a fold with them applied."""
    sim = t.ms[0].snapshot()
    out = []
    for j in range(k):
        who = sim.window_actor()
        assert who is not None
        out.append(sign_pass(t.ids[who], t.genesis.game_id, len(t.raws), t.head, j))
        sim.pass_window()
    return out, sim


def _carry(t: LocalTable, sim: Machine, toks: list[bytes]) -> tuple[int, dict[str, Any]]:
    """The entry body the seat due after the tokens would write, carrying them."""
    d = sim.duty()
    assert d is not None and d.kind == Kind.EVENT
    own = t.ms[d.seat].snapshot()  # the carrier's own fold, with the passes applied
    own.prev = t.head
    own.apply_passes(d.seat, toks)
    out = own.author_next(t.bots[d.seat])
    assert out is not None
    body = dict(decode_body(encode_body(out[1])), passes=toks)
    return d.seat, body


def test_one_entry_carries_the_passes_and_every_machine_folds_them() -> None:
    t = _at_window(least=2)
    k = _window_run(t.ms[0], 2)
    toks, sim = _tokens(t, k)
    carrier, body = _carry(t, sim, toks)
    before = len(t.raws)
    passes_before = sum(1 for ev in t.ms[0].events if ev["t"] == "pass")
    assert t.post(carrier, Kind.EVENT, body)
    assert len(t.raws) == before + 1  # k window decisions and the carrier's own: one entry
    for m in t.ms:
        assert sum(1 for ev in m.events if ev["t"] == "pass") >= passes_before + k
        assert m.state.history == t.ms[0].state.history
    t.run()  # the audit replays the log, tokens included
    assert all(m.audit_report is not None and m.audit_report.ok for m in t.ms)


def _rejected_by_all(t: LocalTable, raw: bytes, blamed: int, words: str) -> None:
    for m in t.ms:
        trial = m.snapshot()
        with pytest.raises(ProtocolError) as ei:
            trial.apply_entry(decode_entry(raw))
        assert ei.value.seat == blamed and words in str(ei.value)


def test_a_token_signed_by_another_seat_names_the_carrier() -> None:
    t = _at_window(least=2)
    toks, sim = _tokens(t, 2)
    carrier, body = _carry(t, sim, toks)
    forger = t.ids[carrier]  # the carrier signs the first seat's pass itself
    body["passes"] = [sign_pass(forger, t.genesis.game_id, len(t.raws), t.head, 0), toks[1]]
    _rejected_by_all(t, t.sign(carrier, Kind.EVENT, body), carrier, "is not seat")


def test_a_token_for_another_point_names_the_carrier() -> None:
    t = _at_window(least=2)
    toks, sim = _tokens(t, 2)
    carrier, body = _carry(t, sim, toks)
    who = t.ms[0].window_actor()
    assert who is not None
    stale = sign_pass(t.ids[who], t.genesis.game_id, len(t.raws) - 1, t.head, 0)  # the seq before
    body["passes"] = [stale, toks[1]]
    _rejected_by_all(t, t.sign(carrier, Kind.EVENT, body), carrier, "is not seat")
    body["passes"] = [toks[1], toks[0]]  # swapped positions
    _rejected_by_all(t, t.sign(carrier, Kind.EVENT, body), carrier, "is not seat")


def test_a_token_where_no_window_is_due_names_the_carrier() -> None:
    t = seeded_table(4, 5, profile="classic", round_limit=40, bots="random")
    while (d := t.ms[0].duty()) is None or d.kind != Kind.EVENT or t.ms[0].window_actor() is not None:
        assert t.step()
    d = t.ms[0].duty()
    assert d is not None
    out = t.ms[d.seat].snapshot().author_next(t.bots[d.seat])
    assert out is not None
    token = sign_pass(t.ids[(d.seat + 1) % 4], t.genesis.game_id, len(t.raws), t.head, 0)
    body = dict(decode_body(encode_body(out[1])), passes=[token])
    _rejected_by_all(t, t.sign(d.seat, Kind.EVENT, body), d.seat, "no reaction window is due")


def test_too_many_tokens_are_a_malformed_entry() -> None:
    t = _at_window(least=1)
    toks, sim = _tokens(t, 1)
    carrier, body = _carry(t, sim, toks)
    body["passes"] = toks * 49
    _rejected_by_all(t, t.sign(carrier, Kind.EVENT, body), carrier, "longer than 48")


def test_an_abandon_names_the_seat_due_after_the_tokens() -> None:
    t = _at_window(least=2)
    toks, sim = _tokens(t, 1)
    silent = sim.window_actor()  # the second seat of the window never answers
    first = t.ms[0].window_actor()
    assert silent is not None and first is not None
    author = next(s for s in range(4) if s != silent)
    seq = len(t.raws)
    wrong = t.sign(author, Kind.ABANDON, {"silent": first, "seq": seq, "passes": toks})  # the seat that passed
    _rejected_by_all(t, wrong, author, "is on duty")
    right = t.sign(author, Kind.ABANDON, {"silent": silent, "seq": seq, "passes": toks})
    assert t.deliver(right)
    assert all(m.abandoned == silent for m in t.ms)


def test_passing_and_acting_at_one_decision_is_proven() -> None:
    t = _at_window(least=2)
    q = t.ms[0].window_actor()
    assert q is not None
    token = sign_pass(t.ids[q], t.genesis.game_id, len(t.raws), t.head, 0)  # q passes at decision 0 ...
    acted = t.sign(q, Kind.EVENT, {"ev": {"t": "play", "p": q, "card": 0, "face": 0}})  # ... and acts there too
    accuser = next(s for s in range(4) if s != q)
    proof = {"what": "pass", "raw": acted, "token": token}
    assert t.post(accuser, Kind.EVIDENCE, proof)
    for m in t.ms:
        assert m.verdict is not None and m.verdict.seat == q and m.verdict.rule == "equivocation"


def test_false_pass_evidence_names_the_accuser() -> None:
    t = _at_window(least=2)
    q = t.ms[0].window_actor()
    assert q is not None
    acted = t.sign(q, Kind.EVENT, {"ev": {"t": "play", "p": q, "card": 0, "face": 0}})
    accuser = next(s for s in range(4) if s != q)
    gid, seq = t.genesis.game_id, len(t.raws)
    plain = t.sign(q, Kind.EVENT, {"ev": {"t": "pass", "p": q}})  # the same pass as an entry: no contradiction
    token = sign_pass(t.ids[q], gid, seq, t.head, 0)
    raw = t.sign(accuser, Kind.EVIDENCE, {"what": "pass", "raw": plain, "token": token})
    _rejected_by_all(t, raw, accuser, "the same pass")
    for token in (
        sign_pass(t.ids[q], gid, seq, t.head, 1),  # q's pass at another decision: no contradiction
        sign_pass(t.ids[accuser], gid, seq, t.head, 0),  # somebody else's token
        bytes(64),
    ):
        raw = t.sign(accuser, Kind.EVIDENCE, {"what": "pass", "raw": acted, "token": token})
        _rejected_by_all(t, raw, accuser, "false evidence")


# -- the peer's pool ---------------------------------------------------------------------------------------------


def _pool(t: LocalTable, seat: int, path: Path | None = None) -> PassPool:
    return PassPool(t.genesis.game_id, t.genesis.identities(), seat, path)


def test_pool_keeps_only_checked_tokens_for_the_next_seqs() -> None:
    t = _at_window(least=2)
    q = t.ms[0].window_actor()
    assert q is not None
    pool = _pool(t, (q + 1) % 4)
    gid, seq, head = t.genesis.game_id, len(t.raws), t.head
    good = sign_pass(t.ids[q], gid, seq, head, 0)
    assert not pool.add(seq, head, 0, (q + 1) % 4, good, seq)  # not that seat's signature
    assert not pool.add(seq - 1, head, 0, q, sign_pass(t.ids[q], gid, seq - 1, head, 0), seq)  # written already
    assert not pool.add(seq + 9, head, 0, q, sign_pass(t.ids[q], gid, seq + 9, head, 0), seq)  # too far ahead
    assert not pool.add(seq, head, 48, q, sign_pass(t.ids[q], gid, seq, head, 48), seq)  # past the bound
    assert pool.add(seq, head, 0, q, good, seq)
    assert not pool.add(seq, head, 0, q, good, seq)  # nothing new
    for i in range(6):  # tokens on made-up branches: at most MAX_PREVS per seq
        prev = bytes([i + 1]) * 32
        pool.add(seq, prev, 0, q, sign_pass(t.ids[q], gid, seq, prev, 0), seq)
    assert sum(1 for s, _ in pool.tokens if s == seq) == 4
    trial, chain = pool.chain(t.ms[0], seq, head)
    assert chain == [good] and trial is not t.ms[0] and t.ms[0].window_actor() == q
    pool.prune(seq + 1)
    assert pool.tokens == {}


def test_made_up_branches_never_crowd_out_the_real_one() -> None:
    """A seat may sign its tokens on any prev it likes: four made-up branches at the next seq used to fill the pool's
    bound, so that every honest token on the real branch was refused there, and the table waited a period on a seat
    that had passed at every window (issue 34: a stall that names nobody). The real point (next seq, our head) always
    gets a place: a made-up branch makes room."""
    t = _at_window(least=2)
    q = t.ms[0].window_actor()
    assert q is not None
    pool = _pool(t, (q + 1) % 4)
    gid, seq, head = t.genesis.game_id, len(t.raws), t.head
    for i in range(4):
        prev = bytes([i + 1]) * 32
        assert pool.add(seq, prev, 0, q, sign_pass(t.ids[q], gid, seq, prev, 0), seq, head)
    good = sign_pass(t.ids[q], gid, seq, head, 0)
    assert pool.add(seq, head, 0, q, good, seq, head)
    assert sum(1 for s, _ in pool.tokens if s == seq) == 4 and pool.get(seq, head, 0, q) == good
    fifth = bytes([9]) * 32
    assert not pool.add(seq, fifth, 0, q, sign_pass(t.ids[q], gid, seq, fifth, 0), seq, head)  # still bounded
    assert pool.chain(t.ms[0], seq, head)[1] == [good]


def test_pool_reads_its_own_tokens_back_after_a_crash(tmp_path: Path) -> None:
    t = _at_window(least=1)
    q = t.ms[0].window_actor()
    assert q is not None
    path = tmp_path / "passes"
    pool = _pool(t, q, path)
    token = pool.sign(t.ids[q], len(t.raws), t.head, 0)
    with open(path, "ab") as fh:
        fh.write(b"\x00" * 7)  # a torn record after it
    again = _pool(t, q, path)
    again.load(t.ids[q])
    assert again.signed(len(t.raws), t.head, 0) and again.get(len(t.raws), t.head, 0, q) == token
    assert again.mine(len(t.raws), t.head) == [(0, token)]


def test_pool_never_chains_a_token_that_no_event_could_carry() -> None:
    """A pass after which shares (or a link, a shuffle, the end) are due is written as an entry by an honest seat;
    a token for it (a liar's) is left out of the chain, so no honest peer writes an entry that cannot carry it."""
    t = seeded_table(4, 5, profile="classic", round_limit=40, bots="random")
    while True:
        m = t.ms[0]
        if m.window_actor() is not None:
            sim, k = m.fork(), 0
            while sim.window_actor() is not None:
                sim.pass_window()
                k += 1
                d = sim.duty()
                if d is None or d.kind != Kind.EVENT:
                    break
            else:
                k = 0
            if k:
                break
        assert t.step(), "no window before shares in this game"
    seq, head = len(t.raws), t.head
    pool = _pool(t, 0)
    sim = m.fork()
    for j in range(k):
        who = sim.window_actor()
        assert who is not None
        assert pool.add(seq, head, j, who, sign_pass(t.ids[who], t.genesis.game_id, seq, head, j), seq)
        sim.pass_window()
    trial, chain = pool.chain(m, seq, head)
    assert len(chain) == k - 1
    d = trial.duty()
    assert d is not None and d.kind == Kind.EVENT and trial.window_actor() is not None


def test_pass_evidence_posted_later_still_proves_it() -> None:
    """A peer whose own entry holds that seq posts the proof after it: the token is checked for the act's own
    seq and prev, not the evidence's."""
    t = _at_window(least=2)
    q = t.ms[0].window_actor()
    assert q is not None
    gid, seq, head = t.genesis.game_id, len(t.raws), t.head
    token = sign_pass(t.ids[q], gid, seq, head, 0)
    acted = t.sign(q, Kind.EVENT, {"ev": {"t": "play", "p": q, "card": 0, "face": 0}})
    assert t.step()  # the table goes on one entry (the honest one at that seq)
    accuser = next(s for s in range(4) if s != q)
    assert t.post(accuser, Kind.EVIDENCE, {"what": "pass", "raw": acted, "token": token})
    for m in t.ms:
        assert m.verdict is not None and m.verdict.seat == q and f"of entry {seq} " in m.verdict.msg
