"""`left` in an abandon (p2p/machine/departure.py; docs/protocol.md, "Abandonment and resume", rule 7): the seat on
duty is gone, not silent — its own abandon at an earlier seq stood until the seat it named answered after all, and it
signed nothing since. Such an abandon ends the game naming nobody, at every machine and in the audit; every way the
proof can fail is its carrier's fault. In process, on a seeded honest table (no network)."""

from __future__ import annotations

from pathlib import Path

import pytest
from adp2p.crypto.entries import encode_entry
from adp2p.p2p.audit import audit_log
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.protocol import Kind, encode_body
from seeds import seeded_table


def _race() -> tuple[LocalTable, int, int, int, dict[int, bytes]]:
    """(table, V, A, k, abandons): at seq k seat V was due; every other seat signed an abandon naming V there
    (`abandons`, by author), V's entry went in instead; the table is stopped where A, the first other seat due
    after k, is due (it signed nothing since k)."""
    t = seeded_table(4, 7, profile="classic", round_limit=40, bots="random")
    while True:
        d = t.ms[0].duty()
        assert d is not None, "the seeded game ended first"
        if d.kind == Kind.EVENT and len(t.raws) > 20:
            break
        assert t.step()
    v, k = d.seat, len(t.raws)
    abandons = {a: t.sign(a, Kind.ABANDON, {"silent": v, "seq": k}) for a in range(4) if a != v}
    assert t.step()  # V answers after all
    while (d := t.ms[0].duty()) is not None and d.seat == v:
        assert t.step()
    assert d is not None
    return t, v, d.seat, k, abandons


def _fold_abandon(t: LocalTable, author: int, body: dict) -> Machine:
    m = t.ms[0].snapshot()
    LocalTable.fold(m, t.sign(author, Kind.ABANDON, body))
    return m


def _other(t: LocalTable, *not_these: int) -> int:
    return next(s for s in range(t.n) if s not in not_these)


def test_an_abandon_carrying_the_seats_own_set_aside_abandon_names_nobody(tmp_path: Path) -> None:
    t, _v, a, k, abandons = _race()
    b = _other(t, a)
    body = {"silent": a, "seq": len(t.raws), "left": abandons[a]}
    m = _fold_abandon(t, b, body)
    assert m.abandoned == a and m.left_at == k and m.duty() is None  # the game ends there
    # the audit replays the same log through the same machine: nobody named, the reason said
    t.post(b, Kind.ABANDON, body)
    rep = audit_log(t.write_log(tmp_path / "log"))
    assert rep.abandoned_by is None and not [f for f in rep.findings if f.seat is not None]
    assert [f.rule for f in rep.findings] == ["left"] and f"seq {k}" in rep.findings[0].evidence
    assert not rep.complete


def test_a_plain_abandon_still_names_the_silent_seat() -> None:
    t, _v, a, _k, _abandons = _race()
    m = _fold_abandon(t, _other(t, a), {"silent": a, "seq": len(t.raws)})
    assert m.abandoned == a and m.left_at is None


@pytest.mark.parametrize("fault", ["another_author", "named_one_that_did_not_answer", "not_an_abandon", "bytes"])
def test_a_proof_that_does_not_hold_is_its_carriers_fault(fault: str) -> None:
    t, v, a, k, abandons = _race()
    b = _other(t, a)
    if fault == "another_author":  # some other seat's abandon at k: it says nothing of A
        left: object = abandons[_other(t, a, v)]
    elif fault == "named_one_that_did_not_answer":  # A's abandon naming a seat whose entry is not the one at k
        x = _other(t, a, v)
        prev = t.ms[0].id_at(k - 1)
        assert prev is not None
        body = encode_body({"silent": x, "seq": k})
        left = encode_entry(t.ids[a], t.genesis.game_id, k, prev, a, int(Kind.ABANDON), body)
    elif fault == "not_an_abandon":  # the entry the log holds at k, signed by V: no abandon by A
        left = t.raws[k]
    else:
        left = b"\x00" * 40
    with pytest.raises(ProtocolError) as exc:
        _fold_abandon(t, b, {"silent": a, "seq": len(t.raws), "left": left})
    assert exc.value.seat == b


def test_a_seat_that_signed_after_its_abandon_did_not_leave() -> None:
    """A answers its duty after the reopen (it never left); at its next duty, silent, its old abandon is no proof."""
    t, _v, a, _k, abandons = _race()
    assert t.step()  # A's own entry
    while (d := t.ms[0].duty()) is not None and d.seat != a:
        assert t.step()
    with pytest.raises(ProtocolError, match="did not leave"):
        _fold_abandon(t, _other(t, a), {"silent": a, "seq": len(t.raws), "left": abandons[a]})


def test_an_abandon_entry_alone_names_the_seat_on_duty_at_its_own_seq() -> None:
    """`abandon` on a plain log state (its seq) and the duty: what the log alone shows of an abandon entry."""
    from types import SimpleNamespace

    from adp2p.p2p.machine.common import Duty
    from adp2p.p2p.machine.departure import abandon
    from adp2p.p2p.protocol import BodyError

    fold, duty = SimpleNamespace(entries=7), Duty(2, Kind.EVENT)
    assert abandon(fold, duty, 0, {"silent": 2, "seq": 7}) == (2, None)
    assert abandon(fold, duty, 1, {"silent": 2, "seq": 7, "passes": []}) == (2, None)
    for author, body, why in [
        (0, {"silent": 2, "seq": 6}, "an abandon for seq 6 at seq 7"),
        (0, {"silent": 1, "seq": 7}, "naming seat 2, but seat 3 is on duty"),
        (2, {"silent": 2, "seq": 7}, "naming its own author"),
    ]:
        with pytest.raises(ProtocolError, match=why) as exc:
            abandon(fold, duty, author, body)
        assert exc.value.seat == author
    with pytest.raises(BodyError):
        abandon(fold, duty, 0, {"silent": 2, "seq": 7, "why": "x"})
    with pytest.raises(BodyError, match="is a signed entry"):  # `left` is checked against the log (check_left)
        abandon(fold, duty, 0, {"silent": 2, "seq": 7, "left": 5})
