"""Evidence after the end (docs/protocol.md, "Evidence after the end"; issue 34): an honest seat's timely proof of a
wrong share sealed to it reaches the others only once they hold the game's end (Hacker, three players, two rounds;
the schedules found by `_zoo_protest.late_chances`). Every other peer refuses it at its seq (the result is final);
before the rule its poster could not take the table's branch (it holds an entry it rejected) and was named as silent
at the `secrets`, and the cheater was named by nobody. Now it follows the branch under protest and posts its proof at
the head: the cheater is named at every peer and in the offline audit, the honest accuser by nobody, and every
result but the cheater's own stands."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from _zoo import Table
from _zoo_protest import BadShareBeforeEnd, LateProofTable, answer_chances
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.audit import audit_log, dumps
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.machine.protest import follow_tree, follow_under_protest, protest_body
from adp2p.p2p.protocol import Kind, decode_body, encode_body

TABLE = {"profile": "basic", "round_limit": 2, "bots": "random", "game": "hacker"}  # every seat wins at the end
# (seed, cheater, its victim, the seq of its reveal after which the victim signs nothing up to the end)
SCHEDULES = [(5, 1, 0, 168), (8, 0, 2, 104)]


def late_table(seed: int, cheater: int, victim: int, at: int, *, protest: bool = True) -> LateProofTable:
    cls = type("BadShareAt", (BadShareBeforeEnd,), {"at": at, "victim": victim})
    t = LateProofTable(3, seed=seed, cheats={cheater: cls}, late=victim, protest=protest, **TABLE).run()
    assert t.ms[cheater].cheat_seq == at, "the cheater found no chance"  # type: ignore[attr-defined]
    assert t.refused is not None and "result is final" in t.refused, t.refused  # the schedule: refused at its seq
    return t


@pytest.mark.parametrize(("seed", "cheater", "victim", "at"), SCHEDULES)
def test_a_proof_that_reaches_the_table_after_the_end_names_the_cheater_and_not_its_poster(
    tmp_path: Path, seed: int, cheater: int, victim: int, at: int
) -> None:
    t = late_table(seed, cheater, victim, at)
    honest = [s for s in range(3) if s != cheater]
    for s in range(3):
        m = t.ms[s]
        assert m.complete and m.abandoned is None and m.state.over, (s, m.abandoned)
        assert m.verdict is not None and m.verdict.seat == cheater and m.verdict.rule == "sealed_shares", m.verdict
        assert "after the end" in m.verdict.msg, m.verdict.msg
        assert m.named() == {cheater}, m.named()
        assert m.state.winners == [0, 1, 2] and m.standing_winners() == honest, m.standing_winners()
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.abandoned_by is None and res.complete, res.text()
    assert {f.seat for f in res.findings} == {cheater}, res.text()
    assert res.winners == honest and res.void == [cheater], res.text()
    assert json.loads(dumps(res))["winners"] == honest


def test_without_the_protest_the_honest_accuser_was_named_and_the_cheater_was_not() -> None:
    """The schedule as it played before the rule: the accuser stays on its own branch, is due for its `secrets`, and
    is abandoned; the audit cannot run, so the cheater's lie is named by nobody."""
    seed, cheater, victim, at = SCHEDULES[0]
    t = late_table(seed, cheater, victim, at, protest=False)
    assert t.abandoned == victim
    others = [t.ms[s] for s in range(3) if s != victim]
    assert all(m.abandoned == victim and cheater not in m.named() for m in others)


# ======================================================================================================
# the protest's own check (check before blame): a protest that does not hold names its poster


@pytest.fixture(scope="module")
def late() -> tuple[LateProofTable, list[Machine]]:
    """The first schedule, and the folds of its log: `folds[k]` holds entries 0..k-1, up to the protest."""
    t = late_table(*SCHEDULES[0])
    m = Machine(t.genesis, None)
    folds = [m, m]
    for raw in t.raws[1:]:
        e = decode_entry(raw)
        if e.kind == Kind.EVIDENCE:
            break
        m = m.snapshot()
        m.apply_entry(e)
        folds.append(m)
    return t, folds


def signed(t: LateProofTable, seat: int, seq: int, body: dict[str, Any], key: int | None = None) -> bytes:
    prev = decode_entry(t.raws[seq - 1]).id
    ident = t.ids[seat if key is None else key]
    return encode_entry(ident, t.genesis.game_id, seq, prev, seat, int(Kind.EVIDENCE), encode_body(body))


def the_proof(t: LateProofTable) -> bytes:
    """The late seat's proof, as the protest at the head carries it."""
    protest = next(decode_entry(r) for r in t.raws if decode_entry(r).kind == Kind.EVIDENCE)
    from adp2p.p2p.protocol import decode_body

    return decode_body(protest.body)["raw"]


def judge(fold: Machine, poster: int, body: dict[str, Any]) -> Any:
    m = fold.snapshot()
    m.apply(poster, Kind.EVIDENCE, body, prev=bytes(32))
    return m.verdict


def test_the_protest_holds_at_the_head_and_only_once(late: Any) -> None:
    t, folds = late
    head = folds[-1]
    assert head.ended_at is not None and head.ended_at > SCHEDULES[0][3]
    v = judge(head, 0, protest_body(head, the_proof(t)))
    assert v is not None and v.seat == 1
    m = head.snapshot()
    m.apply(0, Kind.EVIDENCE, protest_body(m, the_proof(t)), prev=bytes(32))
    with pytest.raises(ProtocolError) as exc:
        m.apply(0, Kind.EVIDENCE, protest_body(m, the_proof(t)), prev=bytes(32))
    assert exc.value.seat == 0


def test_a_protest_that_does_not_hold_names_its_poster(late: Any) -> None:
    t, folds = late
    _seed, _cheater, victim, at = SCHEDULES[0]
    head = folds[-1]
    proof = decode_entry(the_proof(t))
    from adp2p.p2p.protocol import decode_body

    inner = decode_body(proof.body)
    bad = [
        # not its own evidence: another seat posts the victim's proof
        (2, protest_body(head, proof.raw)),
        # its box secret is not its published one
        (victim, protest_body(head, signed(t, victim, at, {**inner, "box_secret": bytes(32)}))),
        # a box whose shares check out: the one the other seat sealed to it in the same round, after which it signed
        # nothing either
        (victim, protest_body(head, signed(t, victim, at + 1, {**inner, "raw": t.raws[at + 1]}))),
        # an entry the log does not hold at that seq
        (victim, protest_body(head, signed(t, victim, at - 1, inner))),
        # signed by another than its author
        (victim, protest_body(head, signed(t, victim, at, inner, key=2))),
    ]
    for poster, body in bad:
        with pytest.raises(ProtocolError) as exc:
            judge(head, poster, body)
        assert exc.value.seat == poster, (poster, exc.value)
    # before the end the proof takes its seq: no protest there
    with pytest.raises(ProtocolError) as exc:
        judge(folds[at + 2], victim, protest_body(head, proof.raw))
    assert exc.value.seat == victim and "did not end" in str(exc.value)


def test_a_protest_by_a_seat_that_signed_after_the_accused_entry_is_late(late: Any) -> None:
    """Evidence is due at once: a seat that signed an entry on top of the one it accuses has taken it."""
    t, folds = late
    head = folds[-1]
    s = next(q for q, f, r, _b, _d in head.sealed_log if f == 1 and r == 0 and head.signed_after(0, q) is not None)
    raw = signed(t, 0, s, {"what": "entry", "raw": t.raws[s], "box_secret": bytes(t.ms[0].me.identity.box_key)})
    with pytest.raises(ProtocolError) as exc:
        judge(head, 0, protest_body(head, raw))
    assert exc.value.seat == 0 and "late" in str(exc.value), exc.value


def test_a_branch_that_does_not_reach_the_end_is_not_followed(late: Any) -> None:
    """The accuser takes the table's branch only when it holds the game's end: before it, its proof takes its seq."""
    t, folds = late
    at, ended = SCHEDULES[0][3], folds[-1].ended_at
    before = t.cut[1]  # type: ignore[index]
    short = [decode_entry(r) for r in t.raws[at : at + 1]]
    assert follow_under_protest(before, short) is None
    full = [decode_entry(r) for r in t.raws[at:] if decode_entry(r).kind != Kind.EVIDENCE]
    end = follow_under_protest(before, full[: ended - at + 1])
    assert end is not None and end.protested == ((at, 1),)


# ======================================================================================================
# the same race with a broken answer proof sealed to its attempter (Access Denied): not reachable

# (players, profile, seed): honest games with random bots, every rules profile
AD_TABLES = [(3, "classic", 1), (2, "two-player", 1), (3, "classic-de", 1), (3, "retro2013", 1)]


@pytest.mark.parametrize(("n", "profile", "seed"), AD_TABLES)
def test_no_answer_proof_can_be_outrun_by_the_end(n: int, profile: str, seed: int) -> None:
    """The race of this module needs the game to end after the accused entry with its victim signing nothing in
    between. For a controller's answer (its proofs sealed to the attempter) the engine leaves no such schedule: the
    entry after every answer is the attempter's own (its turn goes on), or the answer itself ended the game (then the
    attempter's proof accuses the ending entry and takes its seq at every peer: `displaces`, rule 5). So an honest
    attempter's proof always reaches the others before they can hold the end without it: no `protest` is needed for
    it (docs/security.md)."""
    t = Table(n, seed=seed, bots="random", profile=profile).run()
    m = t.ms[0]
    assert m.ended_at is not None and len(m.part.records.answer_boxes) >= 3  # (answers were given and checked)
    assert answer_chances(m, t.raws) == []


# ======================================================================================================
# a cheater's second entry on the table's branch (sent to the accuser alone) does not stop its walk


def test_a_cheaters_second_entry_on_the_branch_does_not_stop_the_walk(late: Any) -> None:
    """The cheater sends the accuser, besides the table's branch, entries of its own at seqs of that branch on the
    same entries (a second version there, one for the accuser alone). Before, the walk stopped at the first seq with
    two entries on one entry, short of the end: the accuser never took the branch and was named at the `secrets`.
    Now it takes the chain the table built on to the end (`follow_tree`), whatever the ids' order."""
    t, folds = late
    _seed, cheater, _victim, at = SCHEDULES[0]
    ended = folds[-1].ended_at
    assert ended is not None
    branch = [decode_entry(r) for r in t.raws[at : ended + 1]]
    before = t.cut[1]  # type: ignore[index]
    rejected = decode_entry(t.raws[at])
    for tag in range(4):  # (ids below and above the table's entries: both orders of the search)
        extra = [
            decode_entry(
                encode_entry(t.ids[cheater], t.genesis.game_id, e.seq, e.prev_hash, cheater, int(e.kind),
                             encode_body({"tag": tag, "seq": e.seq}))
            )
            for e in branch[1:]
        ]
        held = [*branch[1:], *extra]

        def children(e: Any, held: list[Any] = held) -> list[Any]:
            return [x for x in held if x.seq == e.seq + 1 and x.prev_hash == e.id]

        assert len(children(rejected)) == 2  # the fork the walk stopped at
        found = follow_tree(before, rejected, children)
        assert found is not None, tag
        m, chain = found
        assert [e.id for e in chain] == [e.id for e in branch]
        assert m.ended_at == ended and m.protested == ((at, cheater),)
        v = judge(m, SCHEDULES[0][2], protest_body(m, the_proof(t)))
        assert v is not None and v.seat == cheater


def test_of_two_ends_the_longer_branch_and_then_the_lower_id_is_taken(late: Any) -> None:
    """Two chains that both hold the end (the ending entry itself in two versions, or the `secrets` after it): the
    one that goes further is the table's (the others built on it); of two as long, the lower id (rule 8)."""
    t, folds = late
    at = SCHEDULES[0][3]
    ended = folds[-1].ended_at
    assert ended is not None
    before = t.cut[1]  # type: ignore[index]
    table = [decode_entry(r) for r in t.raws[at : ended + 1]]
    e = table[-1]  # the ending entry, signed again by its author with its cards in another order: a valid version
    body = decode_body(e.body)
    twins = [
        decode_entry(
            encode_entry(t.ids[e.author], t.genesis.game_id, e.seq, e.prev_hash, e.author, int(e.kind),
                         encode_body({**body, "ev": {**body["ev"], "hs": list(hs)}}))
        )
        for hs in itertools.permutations(body["ev"]["hs"])
    ]
    twin = min(twins, key=lambda y: y.id)  # (one with a lower id than the table's: the longer branch must win)
    assert twin.id < e.id
    held = [*table[1:], twin]

    def children(x: Any) -> list[Any]:
        return [y for y in held if y.seq == x.seq + 1 and y.prev_hash == x.id]

    found = follow_tree(before, table[0], children)
    assert found is not None
    chain = found[1]
    assert len(chain) == len(table) and chain[:-1] == table[:-1]
    folds_ok = [y for y in (e, twin) if follow_under_protest(before, [*table[:-1], y]) is not None]
    assert len(folds_ok) == 2, "the twin is no second valid version"
    assert chain[-1].id == min(y.id for y in folds_ok)
    # an entry the table holds on its version (here the entry after the end in the log, on `e`): that one goes further
    on_e = decode_entry(t.raws[ended + 1])
    assert on_e.prev_hash == e.id
    held.append(on_e)
    found = follow_tree(before, table[0], children)
    assert found is not None and [y.id for y in found[1]] == [y.id for y in (*table, on_e)]
