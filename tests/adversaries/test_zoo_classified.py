"""The adversary zoo at a Classified Information table (two seats): each cheater (tests/adversaries/
_zoo_classified.py) lies once against an honest random bot, about a hidden card: a liar for each kind of answer
(Fortune Teller's `near`, Test Access Codes' `equal`, the Code questions' `in_code`, Picking Petals' number, a
face-down Guard's `guard_guild` at Enlist and `touch` when it is attacked, the Big Reveal's claim), and a Suitcase
swapped mid-game. The lying entry itself is rejected at every honest peer, naming the liar (its proof does not
verify against the claim its answer makes: games/classified/part.py), the offline audit names it too, and no honest
seat is ever named."""

from __future__ import annotations

from pathlib import Path

import pytest
from _zoo import Table, first_chance
from _zoo_classified import (
    ChoosesShownCard,
    EqualLiar,
    FakeGuard,
    FalseNumber,
    FalseReveal,
    GuardLiar,
    MixesIn,
    NearLiar,
    PeeksBeyond,
    PetalsLiar,
    SwapsSuitcase,
    WheelLiar,
)
from adp2p.cli.cmd_audit import report, unfinished_clean
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine

TABLE = {"profile": "standard", "round_limit": None, "bots": "random", "game": "classified"}
CHEATS = [  # cheater, its seat, words every honest verdict gives
    (NearLiar, 1, "near answer about card"),
    (EqualLiar, 0, "equal answer about card"),
    (WheelLiar, 1, "in_code answer about card"),
    (GuardLiar, 0, "touch answer about card"),
    (PetalsLiar, 1, "not_suitcase answer about card"),
    (FakeGuard, 0, "guard_guild answer about card"),
    (FalseReveal, 1, "claim answer about card"),
    (SwapsSuitcase, 0, "already linked"),
    (FalseNumber, 1, "its number commitment is card"),
    (ChoosesShownCard, 1, "share"),
    (MixesIn, 0, "hand mix"),
    (MixesIn, 1, "hand mix"),
]


@pytest.mark.parametrize("cls,seat,why", CHEATS, ids=[f"{c[0].__name__}-{c[1]}" for c in CHEATS])
def test_a_classified_lie_is_caught_at_once_naming_the_liar(
    cls: type[Machine], seat: int, why: str, tmp_path: Path
) -> None:
    _, t = first_chance(cls, seat, 2, tries=25, **TABLE)
    assert t.verdict_seats() == {seat}, f"verdicts {t.verdict_seats()}"
    verdicts = [m.verdict for m in t.ms if m.seat not in t.cheaters]
    assert verdicts and all(v is not None and why in v.msg for v in verdicts), [v.msg for v in verdicts if v]
    assert t.ms[t.referee].verdict.seq == t.ms[seat].cheat_seq  # the lying entry itself
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    named = {f.seat for f in res.findings}
    assert seat in named and named <= {seat, None}, res.text()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_honest_classified_players_are_never_named(seed: int) -> None:
    """Random honest bots: the game ends, every answer's proof verifies at both peers, and the audit is clean."""
    t = Table(2, seed=seed, **TABLE).run()
    assert t.complete and t.verdict_seats() == set()
    proved = [m for m in t.ms if m.part.numbers is not None and m.part.numbers.linked]
    assert proved, "no answer about a hidden card was proved"
    for m in t.ms:
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations


def test_the_audit_opens_every_linked_number_with_the_revealed_deck_secret() -> None:
    """After an honest game every linked commitment opens to its card's number with its holder's revealed deck
    secret; a commitment that does not (one swapped in the record) is a finding naming its holder."""
    t = Table(2, seed=1, **TABLE).run()
    m = t.ms[0]
    assert m.audit_report is not None and m.audit_report.ok
    faces = m.audit_report.faces
    linked = m.part.numbers.linked
    assert linked and m.part.audit_secrets(m, faces) == []
    (seat, h), c = next(iter(linked.items()))
    other = next(x for k, x in linked.items() if x != c)
    linked[(seat, h)] = other
    found = m.part.audit_secrets(m, faces)
    assert [(v.seat, v.rule) for v in found] == [(seat, "number_link")], found


def test_a_seat_silent_mid_game_wins_nothing_for_anyone_and_names_no_cheat() -> None:
    """Silence at a table of two (docs/protocol.md, "Classified Information at the table"): the other seat's abandon
    ends the game unfinished, with no winner and no verdict: at two seats a silence is never turned into a win."""
    from _zoo_classified import WalksAway

    _, t = first_chance(WalksAway, 1, 2, tries=25, **TABLE)
    assert t.abandoned == 1
    for m in t.ms:
        assert m.verdict is None and not m.state.over and m.state.winners == []


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_peeking_beyond_its_due_is_named_in_the_round_of_its_claim(seat: int, tmp_path: Path) -> None:
    """`PeeksBeyond` Deploys a card that is not Fortune Teller as Fortune Teller, to PEEK at the top of the Draw Deck.
    The claim (C-CLAIM) is checked against the card's face when the card opens to all, in the very reveal round the
    Deploy asks for: `face_claim` names it at the honest peer, with every seat's proven share of that card, and the
    game stops there — no move is played after the claim, so whatever the PEEK's sealed shares of that round show the
    cheater is of no use (every deck secret is revealed for the audit right after). The offline audit names only it;
    the honest seat is never named."""
    from adp2p.crypto.entries import decode_entry
    from adp2p.p2p.protocol import Kind

    _, t = first_chance(PeeksBeyond, seat, 2, tries=25, **TABLE)
    assert t.verdict_seats() == {seat}, f"verdicts {t.verdict_seats()}"
    honest, cheater = t.ms[1 - seat], t.ms[seat]
    v = honest.verdict
    assert v is not None and v.seat == seat and v.rule == "face_claim" and "Fortune Teller" in v.msg, v
    assert v.seq == cheater.cheat_seq  # the claiming entry itself
    after = [decode_entry(raw) for raw in t.raws[cheater.cheat_seq + 1:]]
    assert after and all(e.kind in (Kind.SHARES, Kind.SECRETS) for e in after), [e.kind for e in after]
    assert len([e for e in after if e.kind == Kind.SHARES]) <= 2  # the Deploy's own reveal round, nothing more
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    named = {f.seat for f in res.findings}
    assert seat in named and named <= {seat, None}, res.text()


def test_an_honest_game_with_hand_mixes_keeps_the_cards_and_audits_clean(tmp_path: Path) -> None:
    """Ruling C-MIX at the table: a hand shown is mixed (a proof of shuffle checked at both peers); the new handles
    hold the very cards the hand held, the mixer learns them by a private draw and the other seat does not; the end
    audit and the offline audit of the log are clean."""
    for seed in range(1, 9):
        t = Table(2, seed=seed, **TABLE).run()
        mixes = [x for x in t.ms[0].state.eng.history if x["k"] == "mix"]
        if mixes:
            break
    else:
        pytest.fail("no hand was mixed in 8 seeded games")
    assert t.complete and t.verdict_seats() == set()
    faces = t.ms[0].audit_report.faces
    for x in mixes:
        new = range(x["first"], x["first"] + x["n"])
        mixer, other = t.ms[x["p"]], t.ms[1 - x["p"]]
        assert all(h in mixer.hmap for h in new)
        assert all(mixer.state.eng.known.get(h, 0) >> (1 - x["p"]) & 1 == 0 or h not in mixer.state.eng.hands[x["p"]]
                   for h in new)
        assert all(h not in other.state.faces or other.state.eng.known.get(h, 0) == 3 for h in new)
        assert all(h in faces for h in new)
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
    assert "VIOLATION" not in report(res, "en") and "every hand mixed after a show" in report(res, "en")


@pytest.mark.parametrize("seat", [0, 1])
def test_ad_p2p_audit_names_the_seat_that_mixed_a_card_in(seat: int, tmp_path: Path) -> None:
    """`ad-p2p audit` of a log where a hand was mixed with a card swapped in: one VIOLATION line, the mixer's, rule
    hand_mix, at the mix entry; the honest seat is honest; exit 1."""
    _, t = first_chance(MixesIn, seat, 2, tries=25, **TABLE)
    res = audit_log(t.write_log(tmp_path / "log"))
    text = report(res, "en")
    lines = [x for x in text.splitlines() if "VIOLATION " in x]
    assert len(lines) == 1 and lines[0].strip().startswith(f"seat {seat + 1} ") and "hand_mix" in lines[0], text
    assert f"seat {2 - seat} p{2 - seat}: honest" in text, text
    assert not (res.ok or unfinished_clean(res))
