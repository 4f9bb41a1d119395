"""The sacrificial partner (issue 34): two valid pieces of evidence by different accusers at one seq. Four seats: seat
1 seals a bad share to seat 4 (honest), which proves it at that seq; seat 2, a lower seat, posts valid evidence at
the same seq about a junk entry its partner seat 3 signed for it, sacrificing seat 3 to hide seat 1. The lower seat's
evidence takes the seq (docs/protocol.md, "Precedence at one seq" 2); the other is named at the head by `also`
evidence (rule 7): both seats are named, the honest accuser never. In process here (the machines' judgment, as every
peer and the audit fold it); over the network: tests/adversaries/test_zoo_net_second_accuser.py."""

from __future__ import annotations

from typing import Any

import pytest
from _zoo import Table
from _zoo_final import BadShareTo, junk_entry
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.protocol import Kind, encode_body

CHEATER, PARTNER, SACRIFICE, HONEST = 0, 1, 2, 3
SEED = 1  # seat 1's bad share sealed to seat 4 comes at entry 13, and seat 4's evidence takes that seq


class BadShareToLast(BadShareTo):
    victim = HONEST


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    t = Table(4, seed=SEED, cheats={CHEATER: BadShareToLast}).run()
    s = next(i for i, r in enumerate(t.raws) if decode_entry(r).kind == Kind.EVIDENCE)
    honest_ev = decode_entry(t.raws[s])
    assert honest_ev.author == HONEST and t.ms[HONEST].verdict.seat == CHEATER  # type: ignore[union-attr]
    prev = decode_entry(t.raws[s - 1]).id
    gid = t.genesis.game_id
    junk = junk_entry(t.ids[SACRIFICE], gid, s, prev, SACRIFICE)
    body = {"what": "entry", "raw": junk, "reason": "my partner's junk"}
    sacrificial = encode_entry(t.ids[PARTNER], gid, s, prev, PARTNER, int(Kind.EVIDENCE), encode_body(body))
    return {"t": t, "s": s, "honest": t.raws[s], "sacrificial": sacrificial}


def fold(g: dict[str, Any], *raws: bytes) -> Machine:
    """An observer's fold of the log before seq s, then `raws` (`m.head`: the id of its last entry)."""
    t = g["t"]
    m = Machine(t.genesis, None)
    for raw in [*t.raws[1 : g["s"]], *raws]:
        e = decode_entry(raw)
        m.apply_entry(e)
        m.head = e.id  # type: ignore[attr-defined]
    return m


def evidence_at(g: dict[str, Any], seat: int, seq: int, body: dict[str, Any] | bytes) -> bytes:
    t = g["t"]
    prev = decode_entry(t.raws[seq - 1]).id
    b = body if isinstance(body, bytes) else encode_body(body)
    return encode_entry(t.ids[seat], t.genesis.game_id, seq, prev, seat, int(Kind.EVIDENCE), b)


def test_the_lower_seats_evidence_takes_the_seq_and_the_other_is_named_at_the_head(game: dict[str, Any]) -> None:
    m = fold(game, game["sacrificial"])
    assert m.verdict is not None and m.verdict.seat == SACRIFICE, m.verdict  # seat 3 sacrificed, seat 1 hidden
    assert m.named() == {SACRIFICE}
    m.apply(HONEST, Kind.EVIDENCE, {"what": "also", "raw": game["honest"]}, prev=m.head)  # type: ignore[attr-defined]
    assert m.named() == {CHEATER, SACRIFICE}, m.evidence_seen
    v = m.evidence_seen[-1][2]
    assert v.seat == CHEATER and "proven at seq" in v.msg and f"by seat {HONEST + 1}" in v.msg, v
    assert HONEST not in m.named()


def test_also_is_judged_from_the_log_alone_by_a_fresh_fold(game: dict[str, Any]) -> None:
    """A fresh fold of the log (another peer, a resume, the offline audit) takes the `also` entry alike."""
    m = fold(game, game["sacrificial"])
    t = game["t"]
    body = encode_body({"what": "also", "raw": game["honest"]})
    head = m.head  # type: ignore[attr-defined]
    raw = encode_entry(t.ids[HONEST], t.genesis.game_id, m.entries, head, HONEST, int(Kind.EVIDENCE), body)
    again = fold(game, game["sacrificial"], raw)
    assert again.named() == {CHEATER, SACRIFICE}

@pytest.mark.parametrize("case", ["same_accuser", "twice", "names_nobody_new", "no_evidence_there", "false"])
def test_an_also_entry_that_names_nothing_new_is_its_posters_false_evidence(game: dict[str, Any], case: str) -> None:
    """`also` names its poster when it is not a second accuser's valid evidence naming a seat the log does not name:
    the evidence the log holds at that seq itself, one named already, one whose verdict the log holds already, a seq
    with no evidence, or evidence false on the fold before its seq."""
    m = fold(game, game["sacrificial"])
    raw, s = game["honest"], game["s"]
    if case == "same_accuser":
        raw = game["sacrificial"]
    elif case == "twice":
        m.apply(HONEST, Kind.EVIDENCE, {"what": "also", "raw": raw}, prev=m.head)  # type: ignore[attr-defined]
    elif case == "names_nobody_new":  # another accuser's proof of the junk entry the log's evidence names already
        raw = evidence_at(game, HONEST, s, decode_entry(game["sacrificial"]).body)
    elif case == "no_evidence_there":  # evidence about the entry before s: the log holds no evidence at s - 1
        raw = evidence_at(game, HONEST, s - 1, {"what": "entry", "raw": game["t"].raws[s - 1], "reason": "x"})
    elif case == "false":  # the valid entry before s called a lie, at s, by a seat that did not sign it
        author = decode_entry(game["t"].raws[s - 1]).author
        accuser = next(x for x in (HONEST, SACRIFICE, CHEATER) if x != author)
        raw = evidence_at(game, accuser, s, {"what": "entry", "raw": game["t"].raws[s - 1], "reason": "not a lie"})
    poster = CHEATER if case in ("false", "no_evidence_there") else PARTNER
    with pytest.raises(ProtocolError) as exc:
        m.apply(poster, Kind.EVIDENCE, {"what": "also", "raw": raw}, prev=m.head)  # type: ignore[attr-defined]
    assert exc.value.seat == poster and "false evidence" in str(exc.value), exc.value
    assert HONEST not in m.named()
