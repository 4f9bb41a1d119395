"""The automatic password checklist: hand-made situations through real events, and consistency with the
true passwords over whole simulated games."""

from __future__ import annotations

from typing import Any

import pytest
from adp2p.engine.access_denied import apply, get_profile, learn, new_game, pending, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.catalog import CODES, card
from adp2p.engine.access_denied.checklist import ALL_PASSWORDS, Checklist
from adp2p.engine.access_denied.flow import answer_truth
from adp2p.engine.access_denied.sim import play_game
from adp2p.engine.access_denied.state import GameState
from harness import (
    BANKING,
    GOVERNMENT,
    NEWSMEDIA,
    OPER,
    USER,
    _default,
    cid,
    give_code,
    h,
    matches,
    of_code,
    set_level,
    setup,
)


def codes(letters: str) -> frozenset[int]:
    return frozenset(CODES.index(x) for x in letters)


class Table:
    """A game position plus every player's checklist, fed with each event as it is applied."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.cl = [Checklist(p) for p in range(st.n)]
        for cl in self.cl:
            cl.sync(st)

    def do(self, ev: dict[str, Any]) -> None:
        for cl in self.cl:
            cl.observe(self.st, ev)
        self.st = apply(self.st, ev)
        for cl in self.cl:
            cl.sync(self.st)

    def play(self, p: int, key: str, **target: Any) -> None:
        self.do({"t": "play", "p": p, "card": h(self.st, key), "face": cid(key), **target})

    def attempt(self, p: int, s: int, hs: list[int]) -> None:
        self.do({"t": "attempt", "p": p, "s": s, "cards": list(hs)})

    def until(self, kind: str, actor: int | None = None) -> None:
        for _ in range(200):
            d = pending(self.st)
            if matches(d, kind, actor):
                return
            assert d is not None
            self.do(_default(self.st))
        raise AssertionError(kind)

    def answer(self) -> None:
        self.until("answer")
        d = pending(self.st)
        truth = answer_truth(self.st, d.info["s"], d.info["cards"], None)
        self.do({"t": "answer", "p": d.actor, "match": truth})


def status_letters(cl: Checklist, s: int) -> tuple[str, str, str]:
    return tuple("".join(CODES[c] for c in sorted(x)) for x in cl.status(s))  # type: ignore[return-value]


def test_fresh_checklist_knows_only_own_password():
    t = Table(setup(pw={1: ["A", "B", "C"]}, hands={0: ["C", "D", "E"]}))
    cl = t.cl[0]
    assert cl.sectors() == [GOVERNMENT, 2]  # the other controlled sectors (3 players: sectors 0, 1, 2)
    for s in cl.sectors():
        assert cl.remaining(s) == 20 and status_letters(cl, s) == ("", "", "ABCDEF")
    # codes in one's own hand say nothing; one's own password is known
    assert cl.possible_passwords(BANKING) == [codes("ABC")]
    assert cl.possible_passwords(NEWSMEDIA) == []  # uncontrolled: no password


def test_denied_oper_attempt_returned_code_in_kept_code_out():
    st = set_level(setup(pw={1: ["A", "B", "C"]}, hands={0: ["C", "D"]}), 0, GOVERNMENT, USER)
    t = Table(st)
    t.attempt(0, GOVERNMENT, of_code(st, 0, "C") + of_code(st, 0, "D"))
    t.answer()
    assert t.st.access[0][GOVERNMENT] == USER
    assert status_letters(t.cl[0], GOVERNMENT) == ("C", "D", "ABEF")
    assert t.cl[0].remaining(GOVERNMENT) == 6
    # the third player saw only the public answer, not the faces: nothing learnt
    assert t.cl[2].remaining(GOVERNMENT) == 20


def test_granted_attempt_all_codes_in():
    st = set_level(setup(pw={1: ["A", "B", "C"]}, hands={0: ["A", "B"]}), 0, GOVERNMENT, USER)
    t = Table(st)
    t.attempt(0, GOVERNMENT, of_code(st, 0, "A") + of_code(st, 0, "B"))
    t.answer()
    assert t.st.access[0][GOVERNMENT] == OPER
    assert status_letters(t.cl[0], GOVERNMENT) == ("AB", "", "CDEF")
    assert sorted(map(sorted, t.cl[0].possible_passwords(GOVERNMENT))) == [[0, 1, c] for c in range(2, 6)]


def test_one_password_remains():
    cl = Checklist(0)
    cl.controller = [0, 1, 2, None, None, None]
    for c in "AB":
        cl.note(GOVERNMENT, CODES.index(c), True)
    for c in "CDE":
        cl.note(GOVERNMENT, CODES.index(c), False)
    assert cl.possible_passwords(GOVERNMENT) == [codes("ABF")]
    assert cl.solved(GOVERNMENT) == codes("ABF") and cl.remaining(GOVERNMENT) == 1
    assert status_letters(cl, GOVERNMENT) == ("ABF", "CDE", "")
    # three codes out alone also solve it: the other three are in
    cl.note(2, 0, False), cl.note(2, 1, False), cl.note(2, 2, False)
    assert cl.solved(2) == codes("DEF")


def test_contradiction_leaves_no_password():
    cl = Checklist(0)
    cl.controller = [0, 1, None, None, None, None]
    cl.note(GOVERNMENT, 0, True)
    cl.note(GOVERNMENT, 0, False)
    assert cl.remaining(GOVERNMENT) == 0 and cl.status(GOVERNMENT) == (frozenset(), frozenset(), frozenset())


def test_dumpster_diving_shows_a_code():
    t = Table(setup(pw={1: ["A", "B", "C"]}, hands={0: ["dumpster_diving"]}))
    t.until("actions", 0)
    t.play(0, "dumpster_diving", s=GOVERNMENT)
    t.until("chance:pick")
    pick = t.st.passwords[GOVERNMENT][1]
    shown = card(t.st.faces[pick]).code
    t.do({"t": "random", "picks": [pick]})
    inn, out, _ = t.cl[0].status(GOVERNMENT)
    assert inn == {shown} and not out and t.cl[0].remaining(GOVERNMENT) == 10
    assert t.cl[2].remaining(GOVERNMENT) == 20  # only the player it was shown to


def test_wiretap_sees_attempt_and_answer():
    st = setup(pw={1: ["A", "B", "C"]}, hands={0: ["D"], 2: ["wiretap"]})
    st = set_level(st, 2, GOVERNMENT, OPER)
    t = Table(st)
    t.attempt(0, GOVERNMENT, of_code(st, 0, "D")[:1])
    t.until("window:attempt", 2)
    t.play(2, "wiretap")
    t.answer()
    assert status_letters(t.cl[2], GOVERNMENT) == ("", "D", "ABCEF")
    assert status_letters(t.cl[0], GOVERNMENT) == ("", "D", "ABCEF")


def test_firewall_gives_no_evidence():
    st = setup(pw={1: ["A", "B", "C"]}, hands={0: ["A", "B"], 1: ["firewall"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    t = Table(st)
    t.attempt(0, GOVERNMENT, of_code(st, 0, "A") + of_code(st, 0, "B"))
    t.until("window:attempt", 1)
    t.play(1, "firewall")
    t.until("actions", 0)
    assert all(t.st.loc[x] == ("hand", 1) for x in of_code(st, 0, "A") + of_code(st, 0, "B"))
    assert t.cl[0].remaining(GOVERNMENT) == 20  # all kept, yet nothing is known to be out


def test_upgrade_requiring_a_code_reveals_it():
    t = Table(setup(pw={1: ["A", "B", "C"]}, hands={1: ["popular_war"]}, first=1))
    t.st = set_level(t.st, 1, NEWSMEDIA, USER)
    t.until("actions", 1)
    t.play(1, "popular_war")
    assert status_letters(t.cl[0], GOVERNMENT)[0] == "A"
    assert status_letters(t.cl[2], GOVERNMENT)[0] == "A"


def test_scramble_password_starts_afresh():
    st = setup(pw={1: ["A", "B", "C"]}, hands={0: ["D"], 1: ["scramble_password", "D", "E"]}, first=0)
    st = give_code(st, 1, "F")
    t = Table(st)
    t.attempt(0, GOVERNMENT, of_code(st, 0, "D")[:1])
    t.answer()
    assert t.cl[0].seen(GOVERNMENT) == (frozenset(), codes("D"))
    t.until("actions", 1)
    new = [x for x in t.st.hands[1] if card(t.st.faces[x]).code_letter in "DEF"][:3]
    assert len({card(t.st.faces[x]).code for x in new}) == 3
    t.play(1, "scramble_password", s=GOVERNMENT, new=new)
    t.until("window:end")
    assert t.cl[0].remaining(GOVERNMENT) == 20
    assert t.cl[1].possible_passwords(GOVERNMENT) == [codes("DEF")]


def test_rebuild_matches_incremental():
    prof = get_profile("classic", round_limit=30)
    rec = play_game(prof, [make_bot("deduction", i) for i in range(4)], seed=5)
    st = learn(new_game(prof, 4), rec.faces)  # an omniscient replay of the simulated game
    inc = [Checklist(p) for p in range(4)]
    for ev in rec.events:
        for cl in inc:
            cl.observe(st, ev)
        st = apply(st, ev, inplace=True)
    for p, cl in enumerate(inc):
        cl.sync(st)
        again = Checklist.rebuild(view(st, p), p, rec.events)
        assert [again.status(s) for s in range(6)] == [cl.status(s) for s in range(6)]


@pytest.mark.parametrize(("profile", "n", "strategy"), [
    ("classic", 4, "random"), ("classic", 6, "random"), ("retro2013", 5, "random"),
    ("two-player", 2, "random"), ("classic-de", 4, "deduction"), ("classic", 3, "deduction"),
])
def test_true_password_always_possible(profile: str, n: int, strategy: str):
    prof = get_profile(profile, round_limit=40)
    learnt = 0
    for g in range(4):
        rec = play_game(prof, [make_bot(strategy, 31 * g + i) for i in range(n)], seed=g)
        st = learn(new_game(prof, n), rec.faces)  # an omniscient replay
        cls = [Checklist(p) for p in range(n)]
        for ev in rec.events:
            for cl in cls:
                cl.observe(st, ev)
            st = apply(st, ev, inplace=True)
            for cl in cls:
                cl.sync(st)
                for s in cl.sectors():
                    if len(st.passwords.get(s, [])) == 3:
                        true = frozenset(card(st.faces[x]).code for x in st.passwords[s])
                        assert true in cl.possible_passwords(s), (g, cl.player, s, cl.describe(s))
        learnt += sum(20 - cl.remaining(s) for cl in cls for s in cl.sectors())
    assert learnt > 0


def test_all_passwords_table():
    assert len(ALL_PASSWORDS) == 20 and all(len(pw) == 3 for pw in ALL_PASSWORDS)


@pytest.mark.parametrize("profile, n, bot, seed", [("classic", 6, "deduction", 3), ("retro2013", 4, "random", 4)])
def test_incremental_sync_matches_a_fresh_checklist(profile: str, n: int, bot: str, seed: int) -> None:
    """`sync` on every view of a seat (it looks again only when the passwords change or one of their cards becomes
    known) keeps what a new checklist synced once on the same view sees: the same password handles, the same codes
    seen in, the same new passwords."""
    from seeded_games import decisions

    kept = [Checklist(p) for p in range(n)]
    looked = 0
    for st, d in decisions(profile, n, bot, seed):
        p = d.actor
        seen = view(st, p)
        cl = kept[p]
        cl.sync(seen)
        fresh = Checklist(p)
        fresh.sync(seen)
        for s in range(6):
            assert cl.password_handles(s) == fresh.password_handles(s)
            assert cl.seen(s) == fresh.seen(s)
        looked += 1
    assert looked > 100
