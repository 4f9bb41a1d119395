"""The audit's verdict per player (cli/verdicts.py): "honest", or each violation naming that player, in English and
German, from a peer's fold after the audit, after a cheat proven during play, and after an abandoned game."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from adp2p.cli.verdicts import audit_lines, player_verdicts
from adp2p.p2p.machine.common import AuditReport, Verdict

NAMES = ["Ana", "Bot-1", "Bot-2"]
HONEST = {"en": "honest", "de": "ehrlich"}


def machine(report: AuditReport | None, verdict: Verdict | None = None, abandoned: int | None = None) -> object:
    return SimpleNamespace(names=NAMES, audit_report=report, verdict=verdict, abandoned=abandoned)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_player_honest_after_a_clean_audit(lang: str) -> None:
    lines = audit_lines(machine(AuditReport()), lang)
    assert lines == [f"  {n}: {HONEST[lang]}" for n in NAMES]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_violation_names_its_player_and_only_that_player(lang: str) -> None:
    rep = AuditReport()
    rep.violation(1, "password_distinct", "two password cards share code C", 57)
    rep.violation(1, "commitment", "an opening does not match", None)
    rep.violation(None, "deck", "a shuffle is corrupt", 9)
    vs = player_verdicts(machine(rep), lang)
    assert [v.state for v in vs] == ["honest", "violation", "honest"]
    assert vs[1].short(lang) == ("2 VIOLATIONS" if lang == "en" else "2 VERSTÖSSE")
    text = "\n".join(audit_lines(machine(rep), lang))
    assert f"  Ana: {HONEST[lang]}" in text and f"  Bot-2: {HONEST[lang]}" in text
    if lang == "en":  # the rule and the machine's account
        assert "password_distinct (entry 57): two password cards share code C" in text
        assert "commitment: an opening does not match" in text
    else:  # the rule in German, never the English account (that stays in the log and `ad-p2p audit`)
        assert "ein Passwort mit einem Code doppelt (Eintrag 57)" in text
        assert "eine Passwort-Festlegung, die nicht dem Code der Passwortkarte entspricht" in text
        assert "share code" not in text and "opening" not in text
    assert ("(no single player)" if lang == "en" else "(kein einzelner Spieler)") in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_cheat_proven_during_play_and_a_silent_player_without_an_audit(lang: str) -> None:
    proven = Verdict(2, "controller_answer", "a false answer", 31)
    vs = player_verdicts(machine(None, proven), lang)
    assert [v.state for v in vs] == ["unchecked", "unchecked", "violation"]
    said = "a false answer" if lang == "en" else "eine falsche Antwort auf einen Zugangsversuch"
    assert said in vs[2].details[0] and "31" in vs[2].details[0]
    assert vs[0].short(lang) == ("not checked" if lang == "en" else "nicht geprüft")
    left = player_verdicts(machine(None, abandoned=1), lang)
    assert [v.state for v in left] == ["unchecked", "silent", "unchecked"]
    rep = AuditReport()
    rep.violation(2, "controller_answer", "a false answer", 31)
    assert len(player_verdicts(machine(rep, proven), lang)[2].details) == 1  # proven and audited: said once
