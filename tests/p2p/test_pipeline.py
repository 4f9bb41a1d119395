"""The entry pipeline (p2p/pipeline.py): frame → schema → signature → chain → fold, each step once, each step's
output the next one's input; what each step rejects, and that a malformed body is named by the fold, not before."""

from __future__ import annotations

from typing import Any

import pytest
from adp2p.crypto.errors import ChainError, InvalidSignature, MalformedEncoding
from adp2p.p2p import audit, pipeline
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.pipeline import Arrival, Pipeline, frame, schema
from adp2p.p2p.protocol import BodyError, Kind
from seeds import seeded_table


def _table(steps: int = 4) -> LocalTable:
    t = seeded_table(3, 7, profile="classic", round_limit=4, bots="random")
    for _ in range(steps):
        t.step()
    return t


def _count(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"decode_entry": 0, "decode_body": 0, "verify_entry": 0}
    for name in calls:
        real = getattr(pipeline, name)

        def counted(*a: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return _real(*a)

        monkeypatch.setattr(pipeline, name, counted)
    return calls


def test_each_step_runs_once_per_machine_and_hands_its_output_on(monkeypatch: pytest.MonkeyPatch) -> None:
    t = _table()
    d = t.ms[t.referee].duty()
    assert d is not None
    kind, body = t.ms[d.seat].author_next(t.bots[d.seat])  # type: ignore[misc]
    raw = t.sign(d.seat, kind, body)
    calls = _count(monkeypatch)
    m = t.ms[0].snapshot()
    a = LocalTable.fold(m, raw)
    assert calls == {"decode_entry": 1, "decode_body": 1, "verify_entry": 1}
    assert isinstance(a, Arrival) and a.raw == raw and a.body == body and m.entries == t.ms[0].entries + 1


def test_the_audit_decodes_each_body_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    t = seeded_table(3, 7, profile="classic", round_limit=2, bots="random").run()
    log = t.write_log(tmp_path / "log")
    calls = _count(monkeypatch)
    monkeypatch.setattr(audit, "proof_pool", lambda: None)  # in line: every step in this process
    res = audit.audit_log(log)
    assert res.ok, res.findings
    assert calls["decode_entry"] == len(t.raws) and calls["decode_body"] == len(t.raws)


def test_a_step_rejects_what_is_its_own_to_reject() -> None:
    t = _table()
    p = Pipeline(t.genesis.identities(), t.genesis.game_id)
    with pytest.raises(MalformedEncoding):
        frame(b"\x92\x00")
    forged = t.sign(1, Kind.EVENT, {}, key=t.ids[0])
    with pytest.raises(InvalidSignature):
        p.check(forged, seq=len(t.raws), prev=t.head)
    with pytest.raises(ChainError, match="is not entry"):
        p.check(t.raws[-1], seq=len(t.raws), prev=t.head)
    ok = t.sign(1, Kind.EVENT, {"ev": {"t": "pass", "p": 1}})
    assert p.check(ok, seq=len(t.raws), prev=t.head).body == {"ev": {"t": "pass", "p": 1}}


def test_a_body_that_does_not_read_is_the_folds_to_name_after_the_signature() -> None:
    t = _table()
    d = t.ms[t.referee].duty()
    assert d is not None
    e = frame(t.sign(d.seat, d.kind, {}))
    bad = Arrival(e, None, BodyError("an entry body is a map"))  # what `schema` makes of a body that is no map
    assert schema(e).body == {} and schema(e).error is None
    m: Machine = t.ms[0].snapshot()
    with pytest.raises(BodyError, match="is a map"):
        m.fold(bad)
    with pytest.raises(ProtocolError) as info:
        m.snapshot().fold(schema(e))  # an empty body of the kind due: its author's malformed entry
    assert info.value.seat == d.seat
