"""The hack pad (004:98-126): a hack through real events, HACK cards, and every fault of the controller or the hacker
rejected with a rule that names it."""

from __future__ import annotations

import pytest
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.hacker import api, board
from adp2p.engine.hacker.catalog import tables
from adp2p.engine.hacker.legal import pads
from adp2p.engine.hacker.scenario import Scene
from hypothesis import given, settings
from hypothesis import strategies as st


def at_hack(hands: dict[int, list[str]] | None = None, lay: dict[int, list[str]] | None = None) -> Scene:
    """Seat 0 at its terminal (department 1), its terminal turn begins; it knows no password."""
    s = Scene(3, hands=hands or {0: ["query", "hack", "hack"]})
    s.lay(lay if lay is not None else {0: ["query", "hack", "hack"]}).start(0)
    assert s.pending.kind == "hack_choice" and s.pending.actor == 0
    return s


def declared(s: Scene, roll: list[int], pad: list[str], *, secret: bool = True) -> Scene:
    s.do({"t": "hack", "p": 0})
    assert s.pending.kind == "chance:private_roll" and s.pending.info["p"] == 1  # H-PAD: the left neighbour
    s.do({"t": "private_roll", "p": 1, "c": "r", **({"secret": roll} if secret else {})})
    s.do({"t": "seal", "p": 1, "what": "pad", "c": "pad", **({"secret": pad} if secret else {})})
    return s


def test_clean_path_finds_the_password_and_query_gets_the_code() -> None:
    s = at_hack()
    s.hack(0, [3, 4], ["A1", "A2", "B2"], ["E5", "D4", "C3"])
    assert s.st.pw[0][0] and not s.st.code[0][0]
    s.discard(0, "hack").discard(0, "hack")  # 004:118: unused HACK cards go, no PRIO
    s.play(0, "query")
    assert s.st.code[0][0] and s.st.used[0] == 1
    assert s.replayed().code == s.st.code


def test_example_of_the_rulebook_with_a_hack_card() -> None:
    """004:126: roll 2+6, checks A2 B3 C2; A4 ok, B3 check (HACK played, PRIO -1), B4 ok, C3 ok."""
    s = at_hack()
    s.hack(0, [2, 6], ["A2", "B3", "C2"], ["A4", "B3", "B4", "C3"])
    assert s.st.pw[0][0]
    assert s.st.used[0] == 1  # the HACK used costs its PRIO point, taken in phase 9
    assert len(s.st.laid_term[0]) == 2  # QUERY and the unused HACK still laid


def test_every_probe_and_hack_card_used_leaves_a_public_account_line() -> None:
    """The account says each announced square with the controller's answer and each HACK card turned over; nothing
    between the declaration and the opening names the sealed pad or the private roll."""
    s = at_hack()
    s.hack(0, [2, 6], ["A2", "B3", "C2"], ["A4", "B3", "B4", "C3"])
    ks = [e["k"] for e in s.st.history]
    during = s.st.history[ks.index("hack") + 1 : ks.index("hack_success")]
    assert during == [{"k": "probe", "p": 0, "sq": "A4", "check": False},
                      {"k": "probe", "p": 0, "sq": "B3", "check": True},
                      {"k": "use_hack", "p": 0, "sq": "B3"},
                      {"k": "probe", "p": 0, "sq": "B4", "check": False},
                      {"k": "probe", "p": 0, "sq": "C3", "check": False}]
    assert s.replayed().history == s.st.history  # a peer's fold says the same


def test_an_abandoned_attempt_says_so() -> None:
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    s.do({"t": "probe", "p": 0, "sq": "abandon"})
    assert {"k": "abandon", "p": 0, "d": 0} in s.st.history


def test_check_without_hack_card_ejects_and_discards_every_laid_terminal_card() -> None:
    s = at_hack(hands={0: ["query", "lock"]}, lay={0: ["query", "lock"]})
    s.hack(0, [3, 4], ["A1", "A2", "B2"], ["A1"])
    assert not s.st.pw[0][0] and s.st.laid_term[0] == [] and s.st.used[0] == 0  # 004:122
    assert s.st.turn != 0 or s.st.phase != "terminal"


def test_a_check_on_the_centre_is_passed_into_the_centre_with_a_hack_card() -> None:
    s = at_hack()
    s.hack(0, [1, 1], ["B2", "B3", "C3"], ["E5", "D4", "C3"])  # 2: 0 outer, 2 middle, 1 centre
    assert s.st.pw[0][0]


def test_hacker_may_not_withhold_a_laid_hack_card() -> None:
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    s.do({"t": "probe", "p": 0, "sq": "A1"}).do({"t": "answer", "p": 1, "check": True})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "eject", "p": 0})
    assert e.value.rule == "hack_card_withheld"


def test_a_false_answer_against_the_committed_pad_names_the_controller() -> None:
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    s.do({"t": "probe", "p": 0, "sq": "A1"})
    before = s.st
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "answer", "p": 1, "check": False})
    assert e.value.rule == "controller_false_answer" and "seat 1 (controller)" in e.value.message
    assert s.st is before and api.legal(s.st, 1) == [{"t": "answer", "p": 1, "check": True}]


def test_a_lie_seen_only_at_the_opening_names_the_controller() -> None:
    """A peer that does not know the pad: the lie shows when the pad is opened."""
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"], secret=False)
    s.do({"t": "probe", "p": 0, "sq": "A1"}).do({"t": "answer", "p": 1, "check": False})
    s.do({"t": "probe", "p": 0, "sq": "B2"}).do({"t": "answer", "p": 1, "check": False})
    s.do({"t": "probe", "p": 0, "sq": "C3"}).do({"t": "answer", "p": 1, "check": False})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "open_pad", "p": 1, "roll": [3, 4], "checks": ["A1", "A2", "B2"]})
    assert e.value.rule == "controller_false_answer" and "seat 1" in e.value.message


def test_a_pad_that_breaks_the_hack_table_is_rejected() -> None:
    s = declared(at_hack(), [3, 4], [], secret=False)
    s.do({"t": "probe", "p": 0, "sq": "E5"}).do({"t": "answer", "p": 1, "check": False})
    s.do({"t": "probe", "p": 0, "sq": "D4"}).do({"t": "answer", "p": 1, "check": False})
    s.do({"t": "probe", "p": 0, "sq": "C3"}).do({"t": "answer", "p": 1, "check": False})
    for bad in (["A1", "A2"], ["A1", "B2", "B3"], ["A1", "A2", "A3"], ["A1", "A1", "B2"]):
        with pytest.raises(IllegalEvent) as e:
            s.do({"t": "open_pad", "p": 1, "roll": [3, 4], "checks": bad})
        assert e.value.rule == "controller_pad_breaks_table" and "seat 1" in e.value.message
    s.do({"t": "open_pad", "p": 1, "roll": [3, 4], "checks": ["A1", "A2", "B2"]})
    assert s.st.pw[0][0]


def test_a_roll_that_is_not_the_committed_one_is_rejected_even_with_the_same_sum() -> None:
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    s.do({"t": "probe", "p": 0, "sq": "A1"}).do({"t": "answer", "p": 1, "check": True})
    s.do({"t": "use_hack", "p": 0, "h": s.h(0, "hack", "laid_term"), "card": "hack"})
    s.do({"t": "probe", "p": 0, "sq": "abandon"})
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "open_pad", "p": 1, "roll": [2, 5], "checks": ["A1", "A2", "B2"]})
    assert e.value.rule == "controller_roll_not_committed"
    with pytest.raises(IllegalEvent) as e:
        s.do({"t": "open_pad", "p": 1, "roll": [3, 4], "checks": ["A1", "A3", "B2"]})
    assert e.value.rule == "controller_pad_not_committed"


def test_probes_start_outside_move_to_neighbours_and_never_revisit_a_clear_square() -> None:
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    for bad in ("C3", "B3", "Z9"):
        with pytest.raises(IllegalEvent):
            s.do({"t": "probe", "p": 0, "sq": bad})
    s.do({"t": "probe", "p": 0, "sq": "E5"}).do({"t": "answer", "p": 1, "check": False})
    assert s.pending == api.Decision(0, "probe", {"hacker": 0, "controller": 1, "d": 0, "pos": "E5",
                                                  "cleared": ["E5"], "checks_found": []})
    sqs = {e["sq"] for e in api.legal(s.st, 0)}
    assert sqs == {"D4", "D5", "E4", "abandon"}


def test_pads_enumerates_exactly_the_hack_table() -> None:
    assert len(pads([3, 4])) == 120 * 8  # 7: 2 outer, 1 middle
    assert len(pads([1, 1])) == 28  # 2: 2 middle + the centre
    assert all(len(p) == 3 for p in pads([5, 6]))


def test_controller_legal_seals_follow_its_private_roll() -> None:
    s = at_hack()
    s.do({"t": "hack", "p": 0}).do({"t": "private_roll", "p": 1, "c": "r", "secret": [6, 6]})
    assert len(api.legal(s.st, 1)) == 28
    assert api.legal(api.view(s.st, 2), 1) == []  # not seat 2's decision
    assert "roll:1" not in api.view(s.st, 0).secrets and "roll:1" in api.view(s.st, 1).secrets


def test_a_peer_that_cannot_see_the_cards_catches_a_withheld_hack_card_once_they_are_turned_over() -> None:
    """The hacker's own engine rejects the ejection; a peer without his faces records an obligation, and the
    discarded cards' faces (decrypted for everyone) show the cheat, naming the hacker."""
    s = declared(at_hack(), [3, 4], ["A1", "A2", "B2"])
    s.do({"t": "probe", "p": 0, "sq": "A1"}).do({"t": "answer", "p": 1, "check": True})
    peer = api.replay(s.profile, 3, s.log)  # an observer: no faces, no secrets
    peer = api.apply(peer, {"t": "eject", "p": 0})
    assert api.broken_obligations(peer) == []
    peer = api.apply(peer, {"t": "open_pad", "p": 1, "roll": [3, 4], "checks": ["A1", "A2", "B2"]})
    shown = {h: s.faces[h] for h, _mask in peer.reveals}
    assert len(shown) == 3  # QUERY and both HACK cards, turned over as they are discarded
    broken = api.broken_obligations(api.learn(peer, shown))
    assert [(b["rule"], b["seat"]) for b in broken] == [("hack_card_withheld", 0)]


@settings(max_examples=300, deadline=None)
@given(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.sets(st.sampled_from(board.squares()), max_size=4))
def test_an_opening_passes_exactly_when_it_follows_the_hack_table(roll: tuple[int, int], checks: set[str]) -> None:
    s = declared(at_hack(), list(roll), [], secret=False)
    s.do({"t": "probe", "p": 0, "sq": "abandon"})
    ok = board.ring_counts(sorted(checks)) == tables().hack_table[sum(roll)]
    if ok:
        s.do({"t": "open_pad", "p": 1, "roll": list(roll), "checks": sorted(checks)})
        assert not s.st.pw[0][0] and s.st.laid_term[0] == [] and s.pending.actor == 1  # abandoned: thrown out
    else:
        with pytest.raises(IllegalEvent) as e:
            s.do({"t": "open_pad", "p": 1, "roll": list(roll), "checks": sorted(checks)})
        assert e.value.rule == "controller_pad_breaks_table"
