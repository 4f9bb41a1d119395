"""The lockstep table core: peers that learn faces only from verified decryption shares stay in lockstep,
nobody learns a face they should not, the end-of-game audit reproduces the game, and the two cheats (a bad
share, a false face claim) are named.

Seeds are fixed (deterministic mode derives every secret from the seed). The seeds of the full games avoid
a known engine problem (see test_harmful_card_at_turn_start_breaks_lockstep).
"""

from __future__ import annotations

import pytest
from adp2p.crypto.deck import SHARE_LEN, Share
from adp2p.crypto.group import base_mul, random_scalar
from adp2p.engine.api import apply, result
from adp2p.engine.errors import IllegalEvent
from adp2p.engine.profiles import get_profile
from adp2p.p2p.deckplay import (
    DeckPlayError,
    HandleMap,
    LockstepTable,
    ShareMsg,
    TableResult,
    Tamper,
    bits,
    open_with,
    public_state,
    shares_for,
)

GAMES = {  # (profile, players, seed) that finish; all of them reshuffle the discard pile
    "classic-3": ("classic", 3, 2),
    "classic-4": ("classic", 4, 11),
    "two-player": ("two-player", 2, 0),
}


def _table(profile: str, n: int, seed: int, **kw) -> LockstepTable:
    return LockstepTable(get_profile(profile, round_limit=30), n, seed, **kw)


_results: dict[str, tuple[LockstepTable, TableResult]] = {}


def _game(name: str) -> tuple[LockstepTable, TableResult]:
    if name not in _results:
        t = _table(*GAMES[name])
        _results[name] = (t, t.run())
    return _results[name]


@pytest.mark.parametrize("name", list(GAMES))
def test_lockstep_game(name: str) -> None:
    t, r = _game(name)
    n = t.n
    assert r.states[0].over and r.winners
    assert r.counts.events == len(r.events) > 50
    ref = r.states[0]
    for st in r.states:
        # the same public game on every peer
        assert st.access == ref.access
        assert st.hands == ref.hands
        assert st.discard == ref.discard
        assert st.deck == ref.deck
        assert st.winners == ref.winners == r.winners
        assert public_state(st) == public_state(ref)
    # the strict audit replay (every face known) ends in the same result
    assert result(r.audit_state).winners == r.winners
    assert r.audit_state.access == ref.access
    assert public_state(r.audit_state) == public_state(ref)
    # every share was verified by everyone who used it; bytes are whole shares
    assert r.counts.share_bytes == SHARE_LEN * r.counts.shares_sent
    assert r.counts.shares_verified == r.counts.shares_delivered == r.counts.reveals * (n - 1)


@pytest.mark.parametrize("name", list(GAMES))
def test_nobody_learns_a_face_they_should_not(name: str) -> None:
    t, r = _game(name)
    for p, st in zip(t.peers, r.states, strict=True):
        for h in st.faces:
            assert st.known.get(h, 0) >> p.seat & 1, f"seat {p.seat} holds the face of handle {h}"
        # every face it holds it opened from shares (or it was claimed and then opened)
        assert set(st.faces) == set(p.opened)
        assert all(r.faces[h] == f for h, f in st.faces.items())
        # and it opened every face the engine granted it
        granted = {h for h, m in st.known.items() if m >> p.seat & 1}
        assert granted == set(p.opened)
    # somebody holds a card nobody else knows: private knowledge exists
    assert any(set(st.faces) != set(r.states[0].faces) for st in r.states)


@pytest.mark.parametrize("name", list(GAMES))
def test_reshuffles_and_shuffle_audit(name: str) -> None:
    t, r = _game(name)
    piles = t.hmap.piles
    assert len(piles) >= 2, "the discard pile was reshuffled"
    assert r.states[0].next_handle == t.hmap.next_handle > 63
    assert len(piles[0].start) == 63 and piles[0].faces is None
    for pile in piles:
        assert [s for s, _ in pile.steps] == list(range(t.n))  # every seat shuffled every pile
    for pile in piles[1:]:
        assert sorted(r.faces[h] for h in pile.handles) == sorted(pile.faces or [])
    assert sorted(r.faces[h] for h in piles[0].handles) == list(range(63))
    # the audit ran inside run(); run it again on the finished table: it is repeatable
    full, final = t.audit()
    assert full == r.faces and final.winners == r.winners


def test_beacon_chance_is_joint_and_checked() -> None:
    _, r = _game("classic-3")
    first = [e for e in r.events if e["t"] in ("sectors", "first", "random")]
    assert [e["t"] for e in first[:2]] == ["sectors", "first"]
    assert r.counts.beacon_picks == len(first)
    # a peer that reveals a link off its chain is named
    t2 = _table("classic", 3, 2)
    t2.setup()
    t2.peers[1].chain._links[1] = bytes(32)
    with pytest.raises(DeckPlayError) as ei:
        t2.beacon(b"ctx")
    assert ei.value.seat == 1


class _BadShare(Tamper):
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.done = False

    def share(self, table: LockstepTable, msg: ShareMsg) -> ShareMsg:
        if msg.sender == self.seat and not self.done:
            self.done = True
            fake = base_mul(random_scalar())
            return ShareMsg(msg.sender, msg.handle, msg.to, Share(msg.share.seat, fake, msg.share.proof))
        return msg


def test_tampered_share_is_rejected_naming_the_seat() -> None:
    t = _table("classic", 3, 2, tamper=_BadShare(1))
    with pytest.raises(DeckPlayError) as ei:
        t.run()
    assert ei.value.seat == 1
    assert "seat 1" in str(ei.value) and "share" in str(ei.value)


class _FalseClaim(Tamper):
    """The first plain play of `seat` claims another face, one the other peers' engines accept."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.done = False
        self.claimed: tuple[int, int, int] | None = None

    def event(self, table: LockstepTable, author: int, ev: dict) -> dict:
        if self.done or author != self.seat or ev.get("t") != "play" or ev.get("backdoor") is not None:
            return ev
        other = table.peers[(author + 1) % table.n].state
        for f in range(63):
            if f == ev["face"]:
                continue
            lie = {**ev, "face": f}
            try:
                apply(other, lie)
            except IllegalEvent:
                continue
            self.done = True
            self.claimed = (ev["card"], ev["face"], f)
            return lie
        return ev


def test_false_face_claim_is_rejected_naming_the_seat() -> None:
    cheat = _FalseClaim(1)
    t = _table("classic", 3, 2, tamper=cheat)
    with pytest.raises(DeckPlayError) as ei:
        t.run()
    assert cheat.claimed is not None
    assert ei.value.seat == 1
    assert "claimed" in str(ei.value) and f"handle {cheat.claimed[0]}" in str(ei.value)


def test_pieces_shares_for_and_open_with() -> None:
    t = _table("classic", 3, 2)
    t.setup()
    pile = t.shuffle_pile()
    assert isinstance(t.hmap, HandleMap) and len(t.hmap) == 63 and list(pile.handles) == list(range(63))
    reveals = [(5, 0b001), (7, 0b111)]  # 5 to seat 0 only; 7 public
    posted: dict[int, dict[int, Share]] = {}
    for p in t.peers:
        for m in shares_for(reveals, t.hmap, p.key, t.game_id, posted):
            posted.setdefault(m.handle, {})[m.sender] = m.share
    assert set(posted[5]) == {1, 2} and set(posted[7]) == {0, 1, 2}
    # already posted shares are not posted again
    assert shares_for(reveals, t.hmap, t.peers[1].key, t.game_id, posted) == []
    faces = {}
    for q in bits(0b111):
        f, checked = open_with(t.game_id, 7, t.hmap[7], posted[7], t.peers[q].public_keys, t.table,
                               t.peers[q].key)
        assert sorted(checked) == [s for s in range(3) if s != q]
        faces[q] = f
    assert len(set(faces.values())) == 1
    f5, _ = open_with(t.game_id, 5, t.hmap[5], posted[5], t.peers[0].public_keys, t.table, t.peers[0].key)
    assert 0 <= f5 < 63 and f5 != faces[0]
    # seat 1 cannot open handle 5: its own share plus seat 2's is not every seat's (seat 0 never posted)
    with pytest.raises(DeckPlayError) as ei:
        open_with(t.game_id, 5, t.hmap[5], posted[5], t.peers[1].public_keys, t.table, t.peers[1].key)
    assert ei.value.seat == 0
    # a share for another handle does not verify for this one
    wrong = dict(posted[7])
    wrong[2] = posted[5][2]
    with pytest.raises(DeckPlayError) as ei:
        open_with(t.game_id, 7, t.hmap[7], wrong, t.peers[0].public_keys, t.table, t.peers[0].key)
    assert ei.value.seat == 2


@pytest.mark.parametrize("n,seed", [(3, 0), (3, 1), (4, 0), (4, 2)])
def test_hidden_harmful_cards_keep_lockstep(n: int, seed: int) -> None:
    """Seeds where a Bug / Worm / Trojan Horse held at turn start used to make the holder's engine skip a
    decision the other peers still waited for: automatic steps now depend on public facts only."""
    res = _table("classic", n, seed, check_every_event=True).run()
    assert res.winners or res.audit_state.over
