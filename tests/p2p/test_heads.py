"""Heads are sent only when they are news (docs/protocol.md, message `head`): an entry received from its author stands
for the author's head, and folding it tells nobody anything new. Before, every peer sent a head after (a burst of)
every entry it folded: at six peers, four of every fifteen messages."""

from __future__ import annotations

from pathlib import Path

from test_table_bad_input import assert_finished_normally, play


async def test_an_honest_game_sends_a_head_only_when_it_is_news(tmp_path: Path) -> None:
    # a heartbeat longer than the game: no point is held for a heartbeat, so no head goes out for a stall either
    t = await play(tmp_path, heartbeat=30.0, round_limit=3)
    assert_finished_normally(t)
    entries = len(t.check_logs()[0])
    assert entries > 80
    for p in t.peers:
        assert p.mesh is not None
        broadcasts = p.mesh.sent.get("head", 0) / (len(t.peers) - 1)
        # the end, and a catch-up now and then (an entry that overtook the one before it on another connection)
        # (before: one for every burst of entries folded, about one in eight entries at three peers)
        assert broadcasts <= 1 + entries / 30, (broadcasts, entries)


async def test_the_others_know_every_head_at_the_end(tmp_path: Path) -> None:
    """Implied heads are right: every peer ends knowing that every other holds the very head it holds."""
    t = await play(tmp_path, heartbeat=30.0)
    assert_finished_normally(t)
    for p in t.peers:
        assert p.store is not None
        mine = (t.outcomes[t.peers.index(p)].entries, t.outcomes[t.peers.index(p)].head)  # type: ignore[union-attr]
        others = [i.fingerprint() for i in p.machine.ids if i.fingerprint() != p.fp]  # type: ignore[union-attr]
        assert all(p.heads.last.get(fp) == mine for fp in others), (p.heads.last, mine)
