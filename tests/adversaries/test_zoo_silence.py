"""Silence is judged per decision (issue 34, docs/security.md "Silence, patience and abandonment"): each lever of
tests/adversaries/_silence.py at a networked table of honest bot peers. Each ends with the cheater named (or its
attack refused), no honest seat named, every result reached by honest play standing at every peer and in the
offline audit. Patience is short (a few seconds) and every bound generous: the tests assert outcomes, not times."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from _net import NetGame, net_game
from _silence import (
    AheadOfLog,
    HStaller,
    LateWithholdsToken,
    ReleasesTokenAtAbandon,
    SilentRoller,
    WithholdsToken,
)
from _zoo import LastLinkPeeker, Staller, first_chance
from adp2p.p2p.machine import Machine

pytestmark = pytest.mark.slow

PATIENCE = 3.0
HACKER = {"game": "hacker", "profile": "basic", "round_limit": 4, "bots": "random"}


@functools.cache
def chance(cls: type[Machine], seat: int, n: int, **kw: Any) -> int:
    """The first seed where the cheater finds its chance in process at the game id the networked lobby derives (the
    protocol version is in it: seeds found at the seeds' own id lost their chance at version 7)."""
    return first_chance(cls, seat, n, 25, as_lobby="zoo", **kw)[0]


def assert_only(g: NetGame, cheater: int) -> None:
    """Every honest log is the same; no honest peer names an honest seat (verdict, abandonment, violations); the
    offline audit of that log names at most the cheater."""
    logs = g.honest_logs()
    assert all(log == logs[0] for log in logs), "the honest peers ended with different logs"
    m = g.peers[g.honest[0]].machine
    assert m is not None
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None, g.heard(i)
        for h in g.honest:
            assert o.abandoned_by != m.names[h], g.heard(i)
            assert not (o.verdict or "").startswith(g.who(h)), o.verdict
            assert not any(v.startswith(g.who(h)) for v in o.violations), o.violations
    res = g.audit()
    assert res.tampered is None and {f.seat for f in res.findings} <= {cheater, None}, res.text()
    assert res.abandoned_by in (None, cheater), res.text()


def assert_went_on_or_named(g: NetGame, cheater: int) -> None:
    """After a withheld token: either the game went on to its normal end (the abandon was held, the victim answered;
    every peer said it held an abandon given early), or the table gave up on the withholder first (its abandon came
    too late: refused where it was the lower one, no news where higher). The race between the two is the machine's
    load; both keep every honest seat unnamed, which is what is asserted."""
    ended = {g.outcomes[i].abandoned_by for i in g.honest}  # type: ignore[union-attr]
    name = f"p{cheater}"
    assert ended in ({None}, {name}), [g.heard(i)[-600:] for i in g.honest]
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.verdict is None, g.heard(i)
        assert o.audit_ok is True or o.abandoned_by == name, g.heard(i)
    if ended == {None}:
        assert any("gave up on" in g.heard(i) for i in g.honest), [g.heard(i)[-600:] for i in g.honest]
    else:
        assert g.audit().abandoned_by == cheater


def assert_result_stands(g: NetGame) -> None:
    """Every honest peer reports the result its own fold reached (the winners of a game over before the stall)."""
    for i in g.honest:
        o, m = g.outcomes[i], g.peers[i].machine
        assert o is not None and m is not None
        if m.state.over:
            assert o.winners == [m.names[w] for w in m.state.winners], g.heard(i)
    res = g.audit()
    m = g.peers[g.honest[0]].machine
    assert m is not None
    if m.state.over:
        assert sorted(res.winners) == sorted(m.state.winners), res.text()


async def test_an_abandon_carrying_the_token_that_made_its_victim_due_is_held(tmp_path: Path) -> None:
    """Attack 4: seat 2 passes in a window but keeps its token back; a period later (the table waited on it) it sends
    one abandon carrying that token and naming seat 1, due after the window. Before: every peer measured the wait from
    the start of the seq and applied it at once, seat 1's own included. Now seat 1 became due only when the token
    came, inside the abandon: every peer holds it, seat 1 answers, and the game goes on to its end."""
    WithholdsToken.attacks = []
    g = await net_game(tmp_path, 3, 2, {1: Machine}, peer_class=WithholdsToken, abandon_after=PATIENCE)
    assert WithholdsToken.attacks, "the attacker found no window to withhold its token in"
    assert WithholdsToken.attacks[0][1] == 0
    assert_only(g, 1)
    assert_result_stands(g)
    assert_went_on_or_named(g, 1)


async def test_a_token_released_late_inside_an_abandon_leaves_the_withholder_named(tmp_path: Path) -> None:
    """Attack 4, late: seat 1 keeps its token back until the table has given up on it (the abandon naming it is in
    every log), then sends its abandon carrying the token and naming the seat due after the window. Being the lower
    author, it displaced the abandon naming it (before: the victim was named everywhere). Now the decision it names
    was never due at any peer: it is refused, and the withholder stays named."""
    WithholdsToken.attacks = []
    g = await net_game(tmp_path, 3, 2, {0: Machine}, peer_class=LateWithholdsToken, abandon_after=PATIENCE)
    assert WithholdsToken.attacks, "the attacker found no window to withhold its token in"
    assert_only(g, 0)
    assert_went_on_or_named(g, 0)


async def test_a_staller_who_sends_entries_ahead_of_the_log_is_abandoned_and_the_result_stands(tmp_path: Path) -> None:
    """Attack 5: after the game's end the staller owes its secrets; it signs entries hundreds of seqs ahead instead
    and goes silent. Before: a peer holding anything ahead of its log never gave up, and the table hung (no result).
    Now it is abandoned after its patience, named, and the result stands."""
    AheadOfLog.sent = []
    g = await net_game(tmp_path, 3, chance(Staller, 1, 3), {1: Staller}, peer_class=AheadOfLog, abandon_after=PATIENCE)
    assert AheadOfLog.sent, "the staller sent nothing ahead"
    assert any(g.peers[i].arrivals for i in g.honest), "no honest peer holds what it sent ahead"
    assert_only(g, 1)
    assert_result_stands(g)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == "p1" and o.verdict is None, g.heard(i)
    assert g.audit().abandoned_by == 1


async def test_a_last_link_peeker_sending_ahead_of_the_log_is_abandoned(tmp_path: Path) -> None:
    """Attack 5, the key grinder: it sees who goes first one link early and, not liking it, sends entries ahead of the
    log instead of its link, then stays silent. It is abandoned and named."""
    AheadOfLog.sent = []
    seed = chance(LastLinkPeeker, 2, 3)
    g = await net_game(tmp_path, 3, seed, {2: LastLinkPeeker}, peer_class=AheadOfLog, abandon_after=PATIENCE)
    assert AheadOfLog.sent
    assert_only(g, 2)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == "p2" and o.verdict is None, g.heard(i)
    assert g.audit().abandoned_by == 2


async def test_a_hacker_roller_escaping_its_dice_by_entries_ahead_is_abandoned(tmp_path: Path) -> None:
    """Attack 6 (Hacker): the controller sees its private dice once the beacon pick is drawn, signs entries far
    ahead and goes silent. Before: no peer ever reached an outcome. Now it is abandoned and named."""
    AheadOfLog.sent = []
    seat = 1
    seed = chance(SilentRoller, seat, 3, **HACKER)
    g = await net_game(
        tmp_path, 3, seed, {seat: SilentRoller}, peer_class=AheadOfLog, abandon_after=PATIENCE, **HACKER
    )
    assert AheadOfLog.sent and g.cheats
    assert_only(g, seat)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == f"p{seat}" and o.verdict is None, g.heard(i)
    assert g.audit().abandoned_by == seat


async def test_a_hacker_staller_sending_ahead_keeps_the_round_limit_result(tmp_path: Path) -> None:
    """Attack 5 in Hacker: the game reaches its round limit (a result), then a loser sends entries ahead instead of
    its secrets. It is abandoned and named, and the round-limit result stands at every peer and in the audit."""
    AheadOfLog.sent = []
    seed = chance(HStaller, 1, 3, **HACKER)
    g = await net_game(tmp_path, 3, seed, {1: HStaller}, peer_class=AheadOfLog, abandon_after=PATIENCE, **HACKER)
    assert AheadOfLog.sent
    assert_only(g, 1)
    assert_result_stands(g)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == "p1", g.heard(i)
    assert g.audit().abandoned_by == 1


async def test_a_token_released_to_one_peer_as_the_abandon_is_written_leaves_the_withholder_named(
    tmp_path: Path,
) -> None:
    """Attack 4's last race: the withholder keeps its token back where the seat due once it passes is the one that
    gives up on it first; as that seat's abandon naming it is written, it releases the token to the third seat alone,
    which gets it before the abandon. Before: the third seat refused the abandon (the withholder passed) and waited on
    the abandon's author, which can never answer at that seq, and gave up on it (an honest seat named, two logs). Now
    the token came after the third seat's own clock let that author give up on the withholder: no answer. Every peer
    holds the one abandon, and the withholder is named everywhere and in the audit."""
    ReleasesTokenAtAbandon.attacks, ReleasesTokenAtAbandon.race, ReleasesTokenAtAbandon.peers = [], {}, {}
    g = await net_game(tmp_path, 3, 2, {1: Machine}, peer_class=ReleasesTokenAtAbandon, abandon_after=PATIENCE)
    assert ReleasesTokenAtAbandon.attacks, "the attacker found no window to withhold its token in"
    race = ReleasesTokenAtAbandon.race
    assert (race["w"], race["d"], race["p"]) == (1, 0, 2)
    assert_only(g, 1)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.abandoned_by == "p1" and o.verdict is None, g.heard(i)
    assert g.audit().abandoned_by == 1
