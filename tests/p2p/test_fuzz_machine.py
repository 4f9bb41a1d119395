"""Malformed bodies against the game machine (hypothesis, fixed budget; `benchmarks/bench_fuzz.py` runs more):
at every kind of duty of a seeded game, the honest body with fields mutated, random values, out-of-turn authors and
evidence of every kind (nested too). `Machine.apply` either accepts the body or raises `ProtocolError` naming the
seat that signed it — never another exception, never an honest other seat — and a failed body changes nothing
that the honest body then depends on."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind, ProtocolError, decode_body, encode_body
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seeds import seeded_table

VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**63), 2**64 - 1),
        st.binary(max_size=80),
        st.text(max_size=8),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)


@functools.cache
def positions() -> list[tuple[Machine, Machine, int, int, dict[str, Any]]]:
    """(judge's fold, author's fold, author seat, kind, honest body) at the first duty of every kind, in a seeded
    3-player game (folds are snapshots: every example starts from the same state)."""
    t = seeded_table(3, 9, round_limit=3, bots="random")
    out: list[tuple[Machine, Machine, int, int, dict[str, Any]]] = []
    seen: set[tuple[int, bool]] = set()
    while (d := t.ms[0].duty()) is not None:
        key = (int(d.kind), bool(d.what == "password"))
        if key not in seen:
            seen.add(key)
            body = t.ms[d.seat].snapshot().author_next(t.bots[d.seat])
            if body is not None:
                judge = t.ms[(d.seat + 1) % 3].snapshot()
                out.append((judge, t.ms[d.seat].snapshot(), d.seat, int(d.kind), decode_body(encode_body(body[1]))))
        t.step()
    assert {k for k, _ in seen} >= {int(k) for k in (Kind.JOIN, Kind.LINK, Kind.SHUFFLE, Kind.SHARES, Kind.EVENT)}
    return out


def _judge(judge: Machine, author: int, kind: int, body: Any) -> None:
    m = judge.snapshot()
    try:
        m.apply(author, kind, body)
    except ProtocolError as exc:
        assert exc.seat in (author, None), f"seat {exc.seat} named for seat {author}'s body: {exc}"
        if exc.seat is None:
            assert kind == Kind.EVIDENCE or "unknown seat" in exc.msg, exc


def _mutate(body: dict[str, Any], key: str | None, value: Any) -> dict[str, Any]:
    out = dict(body)
    if key is None:
        return out
    if key in out and value is None:
        del out[key]
    else:
        out[key] = value
    return out


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_mutated_body_is_accepted_or_names_its_author(data: st.DataObject) -> None:
    pos = positions()
    judge, _, seat, kind, body = data.draw(st.sampled_from(pos))
    key = data.draw(st.one_of(st.none(), st.sampled_from(sorted(body) or ["x"]), st.text(max_size=5)))
    value = data.draw(VALUES)
    author = data.draw(st.sampled_from([seat, seat, (seat + 1) % 3]))
    _judge(judge, author, kind, _mutate(body, key, value))


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    what=st.sampled_from(
        ["entry", "equivocation", "nocard", "duplicate", "promise", "answer", "answers", "opening", "x"]
    ),
    fields=st.dictionaries(
        st.sampled_from(["raw", "a", "b", "certs", "seq", "h", "ha", "hb", "code", "salt", "box_secret", "reason"]),
        VALUES,
        max_size=6,
    ),
    accuser=st.integers(0, 2),
)
def test_evidence_of_any_shape_names_only_its_accuser(what: str, fields: dict[str, Any], accuser: int) -> None:
    judge = positions()[-1][0]
    _judge(judge, accuser, Kind.EVIDENCE, {"what": what, **fields})


@pytest.mark.parametrize("depth", [1, 2, 3, 50])
def test_evidence_nested_in_evidence_is_bounded(depth: int) -> None:
    """Evidence wrapping evidence wrapping ... an honest entry: judged in at most two levels, naming only the
    seat that signed the nesting (before: every level was verified, and a deep one raised RecursionError)."""
    t = seeded_table(3, 9, round_limit=3, bots="random")
    for _ in range(12):
        t.step()
    judge = t.ms[0].snapshot()
    seq = judge.entries
    raw = t.raws[-1]
    for _ in range(depth):
        raw = t.sign(1, Kind.EVIDENCE, {"what": "entry", "raw": raw})
    # the outer one, re-signed for the next seq (t.sign uses the table's head: every level is for one seq)
    _judge(judge, 1, Kind.EVIDENCE, {"what": "entry", "raw": raw})
    assert judge.entries == seq
