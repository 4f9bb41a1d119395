"""Results are final at a networked table (issue 34; docs/protocol.md, "Precedence at one seq" 5 and 6): honest bot
`TablePeer`s on 127.0.0.1 against a seated attacker that tries to take away a result it did not win by evidence
posted at a seq the others already hold. Each test asserts that the attacker is named, that no honest seat is, that
every honest peer ends with the same log and the result play reached (but for the attacker's own share), and that the
offline audit of that log says the same."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from adp2p.p2p.audit import audit_log
from test_table_bad_input import ATTACKER, Table, play
from test_table_cheats import Watcher, assert_nobody_honest_named

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
from _zoo_final import self_accusation


def assert_result_stands(t: Table) -> list[int]:
    """Every honest peer and the offline audit report the same result, the one play reached minus the attacker."""
    res = audit_log(t.outcomes[t.honest[0]].log_path)  # type: ignore[union-attr, arg-type]
    assert res.winners or res.void, res.text()
    assert ATTACKER not in res.winners, res.text()
    names = [res.names[w] for w in res.winners]
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.winners == names, (o, t.heard(i)[-600:])
    return res.winners


class SelfAccuser(Watcher):
    """Once the game has ended (the entry that reached the result is in its log), it posts evidence against its own
    junk entry at the seq of that entry: valid evidence, which on main set the result aside."""

    def react(self, e: Any, raw: bytes) -> bool:
        m = self.machine
        if m is None or not m.state.over:  # (the first entry after which the game is over: the one that ended it)
            return False
        self.post(e.seq, e.prev_hash, 8, self_accusation(self.identity, m.game_id, e.seq, e.prev_hash, m.seat))
        return True


@pytest.mark.parametrize("seed", [1, 3])
async def test_self_accusation_at_the_winning_seq_erases_nothing(tmp_path: Path, seed: int) -> None:
    """Attack 3 of issue 34: the evidence is valid (it proves the attacker's own lie), but evidence against its own
    accuser sets nothing aside: every peer keeps the entry that ended the game, and `refused` evidence at the head
    names the attacker (`self_accusation`). When the attacker itself wrote the entry that ended the game (seed 1),
    its evidence entry at that seq is a second entry of its own there: the equivocation proof names it at the head,
    setting nothing aside either. On main every peer set the result aside (`winners=[]`)."""
    t = await play(tmp_path, attacker=SelfAccuser, seed=seed)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    rules = set()
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.verdict is not None, t.heard(i)[-800:]
        assert o.verdict.startswith(f"p1 (seat 2, key {t.label(ATTACKER)}): "), o.verdict
        rules.add(o.verdict.split(": ")[1])
    assert len(rules) == 1 and rules <= {"self_accusation", "equivocation"}, rules
    assert_result_stands(t)
    res = audit_log(t.outcomes[0].log_path)  # type: ignore[union-attr, arg-type]
    assert rules <= {f.rule for f in res.findings if f.seat == ATTACKER}, res.text()
