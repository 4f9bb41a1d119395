"""Conformance against the generic cheats (every registered game; the adversary zoo's cheaters, tests/adversaries):
an entry forged in another seat's name, two entries signed for one seq (equivocation), a decryption share whose proof
does not fit, a wrong beacon link, false evidence. Each is caught naming the cheater, and no honest seat is named,
neither during play nor by the offline audit."""

from __future__ import annotations

from pathlib import Path

import pytest
from _zoo import BadShare, Equivocator, Forger, Table, WrongLink, first_chance
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine
from adp2p.p2p.protocol import Kind

from games import GAMES, game_of

CHEATS = [  # cheater, its seat, the rule the audit names it by
    (Equivocator, 1, "equivocation"),
    (BadShare, 1, "entry"),
    (WrongLink, 1, "entry"),
]


def _table(name: str, **kw: object) -> dict[str, object]:
    q = game_of(name).quick_table
    return {"profile": q["profile"], "round_limit": q["round_limit"], "bots": q["bots"], "game": name, **kw}


@pytest.mark.parametrize("cls,seat,rule", CHEATS, ids=[c[0].__name__ for c in CHEATS])
@pytest.mark.parametrize("name", GAMES)
def test_a_generic_cheat_is_caught_naming_the_cheater(
    name: str, cls: type[Machine], seat: int, rule: str, tmp_path: Path
) -> None:
    n = game_of(name).quick_table["players"]
    _, t = first_chance(cls, seat, n, **_table(name))
    assert t.verdict_seats() == {seat}, f"verdicts {t.verdict_seats()}"
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    named = {f.seat for f in res.findings}
    assert seat in named and named <= {seat, None}, res.text()
    assert rule in {f.rule for f in res.findings if f.seat == seat}, res.text()


@pytest.mark.parametrize("name", GAMES)
def test_a_forged_entry_is_refused_and_its_victim_not_blamed(name: str, tmp_path: Path) -> None:
    n = game_of(name).quick_table["players"]
    _, t = first_chance(Forger, 1, n, **_table(name))
    assert t.forged_from == 1 and t.verdict_seats() == set()
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()


@pytest.mark.parametrize("name", GAMES)
def test_false_evidence_names_the_accuser(name: str) -> None:
    n = game_of(name).quick_table["players"]
    t = Table(n, seed=5, **_table(name))  # type: ignore[arg-type]
    for _ in range(40):
        t.step()
    before = len(t.raws)
    accuser = n - 1
    false = {"what": "entry", "raw": t.raws[-1]}  # a valid entry is no proof
    assert not t.deliver(t.sign(accuser, Kind.EVIDENCE, false))
    assert {s for s, _ in t.rejected} == set(range(n))
    assert all(exc.seat == accuser for _, exc in t.rejected)
    assert len(t.raws) == before
