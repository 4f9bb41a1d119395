"""Hacker at the table (games/hacker/): four peers in one process and four over loopback TCP play whole games with
hack attempts (private rolls, sealed pads, answers with their openings); the logs are identical and every audit is
clean; a seat resumed from its secrets file knows its sealed values; a sealed value or a roll's secret is in the
log only from the entry that opens it; a malformed seal entry is rejected naming its author."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from _net import net_game
from _zoo import Table
from adp2p.crypto.entries import decode_entry
from adp2p.games.hacker.seals import tag
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine, SeatSecrets
from adp2p.p2p.protocol import Kind, decode_body

TABLE = {"profile": "basic", "round_limit": 5, "bots": "planner", "game": "hacker"}


def test_four_peers_in_one_process_play_hacker_to_a_clean_audit(tmp_path: Path) -> None:
    t = Table(4, seed=3, **TABLE).run()  # type: ignore[arg-type]
    ref = t.ms[0]
    assert t.complete and ref.game.name == "hacker" and ref.game.is_over(ref.state)
    assert t.stats.kinds[Kind.EVIDENCE].entries == 0 and t.verdict_seats() == set()
    for m in t.ms:
        assert m.events == ref.events and m.entries == len(t.raws)
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
    kinds = Counter(ev["t"] for ev in ref.events)
    assert kinds["private_roll"] == kinds["roll_beacon"] == kinds["open_pad"] > 0, kinds
    assert kinds["answer"] > 0 and kinds["seal"] > 0 and kinds["unseal"] > 0, kinds
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok and res.tampered is None, res.text()


def test_a_secret_is_in_the_log_only_from_the_entry_that_opens_it() -> None:
    t = Table(4, seed=3, **TABLE).run()  # type: ignore[arg-type]
    opens: dict[bytes, int] = {}  # a roll's secret or an opening's salt -> the first entry that opens it
    for i, raw in enumerate(t.raws):
        e = decode_entry(raw)
        if e.kind != Kind.EVENT:
            continue
        body = decode_body(e.body)
        secrets = [body["roll"]] if "roll" in body else []
        secrets += [o[1] for o in body.get("openings", [])] + ([body["opening"][1]] if "opening" in body else [])
        for s in secrets:
            opens.setdefault(s, i)  # (a pad's square answered is opened again with the whole pad)
    assert len(opens) > 25
    for s, i in opens.items():
        first = next(j for j, raw in enumerate(t.raws) if s in raw)
        assert first == i, f"a secret opened at entry {i} was in entry {first} already"


ZERO = [bytes(32)]
BAD_SEALS = {  # a seal entry's body but for its seat and commitment tag
    "no commitments": lambda seat: {"ev": {"t": "seal", "p": seat, "what": "place", "c": "00" * 16}},
    "a secret in the entry": lambda seat: {
        "ev": {"t": "seal", "p": seat, "what": "place", "c": tag(ZERO), "secret": 0}, "commits": ZERO},
    "an opening on a seal": lambda seat: {
        "ev": {"t": "seal", "p": seat, "what": "place", "c": tag(ZERO)}, "commits": ZERO,
        "opening": [b"\0", bytes(32)]},
    "a tag that is not its commitments'": lambda seat: {
        "ev": {"t": "seal", "p": seat, "what": "place", "c": "00" * 16}, "commits": ZERO},
}


@pytest.mark.parametrize("bad", list(BAD_SEALS))
def test_a_malformed_seal_is_rejected_naming_its_author(bad: str) -> None:
    t = Table(4, seed=3, **TABLE)  # type: ignore[arg-type]
    for _ in range(400):
        d = t.ms[0].duty()
        if d is not None and d.kind == Kind.EVENT and d.what == "seal":
            break
        t.step()
    else:
        raise AssertionError("no seal in 400 steps")
    seat = d.seat
    body = BAD_SEALS[bad](seat)
    before = len(t.raws)
    assert not t.deliver(t.sign(seat, Kind.EVENT, body))  # every peer rejects it; an honest one posts it as evidence
    assert len(t.raws) == before + 1 and decode_entry(t.raws[-1]).kind == Kind.EVIDENCE
    assert t.verdict_seats() == {seat} and all(m.verdict is not None and m.verdict.seat == seat for m in t.ms)


async def test_four_peers_over_loopback_play_hacker_to_identical_logs(tmp_path: Path) -> None:
    g = await net_game(tmp_path, 4, 2, {}, game="hacker", profile="basic", round_limit=3, bots="random")
    logs = g.honest_logs()
    assert len(logs) == 4 and all(log == logs[0] for log in logs), "the peers ended with different logs"
    for i in range(4):
        o = g.outcomes[i]
        assert o is not None and o.verdict is None and o.audit_ok is True and not o.violations, g.heard(i)
    res = g.audit()
    assert res.ok and res.tampered is None, res.text()


def test_a_resumed_seat_refolds_its_sealed_pad_and_roll_from_its_secrets_file() -> None:
    """The controller's pad and roll are in its secrets (written before its entries are signed): a machine rebuilt
    from the secrets file and the log knows them and answers the next probe as the original would."""
    t = Table(4, seed=3, **TABLE)  # type: ignore[arg-type]
    for _ in range(3000):
        d = t.ms[0].duty()
        if d is not None and d.kind == Kind.EVENT and d.what == "answer":
            break
        t.step()
    else:
        raise AssertionError("no hack attempt in 3000 steps")
    ctrl = t.ms[d.seat]
    assert ctrl.me is not None
    again = Machine(t.genesis, SeatSecrets.from_bytes(ctrl.me.to_bytes()))
    for raw in t.raws[1:]:
        t.fold(again, raw)
    for what in ("pad", "roll"):
        assert again.state.eng.secrets[f"{what}:{d.seat}"] == ctrl.state.eng.secrets[f"{what}:{d.seat}"]
    for m in t.ms:  # nobody else knows them
        assert m.seat == d.seat or not {f"pad:{d.seat}", f"roll:{d.seat}"} & set(m.state.eng.secrets)
    bot = t.bots[d.seat]
    assert again.author_next(bot)[1]["opening"] == ctrl.author_next(bot)[1]["opening"]
