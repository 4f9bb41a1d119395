"""The in-process table (`p2p.local.LocalTable`): whole honest games through signed entries, for every profile
and 2..6 players, end complete with a clean audit on every seat and in the offline audit of the written log;
every seat folds the same game; a seat's engine never holds a face the rules do not show it, and holds every
one they do; every seat shuffles every pile; every CHANCE pick takes a beacon link from every seat; seeded
games are reproducible. (Cheats are the adversary zoo's, single entries test_machine's.)

Secrets, shuffles and bots are seeded (tests/support/seeds.py), so each game below is the same on every run.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest
from adp2p.crypto.errors import ChainError, InvalidSignature
from adp2p.engine.access_denied.state import GameState
from adp2p.p2p.audit import audit_log
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.machine.authoring import Author as HonestAuthor
from adp2p.p2p.protocol import Kind
from seeds import draw, seeded_table

GAMES = {  # name: (profile, players, bots, round limit, seed)
    "classic-3": ("classic", 3, "deduction", 30, 1),
    "classic-4": ("classic", 4, "deduction", 30, 1),
    "classic-5": ("classic", 5, "deduction", 30, 1),
    "classic-6": ("classic", 6, "deduction", 30, 1),
    "classic-de-4": ("classic-de", 4, "deduction", 30, 2),
    "retro2013-3": ("retro2013", 3, "deduction", 30, 3),
    "retro2013-6": ("retro2013", 6, "deduction", 12, 5),
    "two-player": ("two-player", 2, "deduction", 30, 1),
    "classic-3-random": ("classic", 3, "random", 30, 1),  # long: harmful cards at turn start, reshuffles
}
RESHUFFLED = ["classic-5", "classic-6", "classic-3-random"]  # games whose discard pile was reshuffled

_CHANCE = ("sectors", "first", "random")
_PRIVATE_TURN = {"harmful": None, "bug": False, "no_attempts": False, "no_draw": False}


def _table(profile: str, n: int, bots: str, round_limit: int, seed: int) -> LocalTable:
    return seeded_table(n, seed, profile=profile, round_limit=round_limit, bots=bots)


_played: dict[str, LocalTable] = {}


def _game(name: str) -> LocalTable:
    if name not in _played:
        _played[name] = _table(*GAMES[name]).run()
    return _played[name]


def _public(st: GameState) -> dict[str, Any]:
    """What every seat's fold must agree on: the whole state but the faces, the engine's obligations (notes for
    the audit about what this seat cannot judge) and the four turn fields only the active player can derive
    (from the harmful cards in its hand at turn start)."""
    fields = {f.name: getattr(st, f.name) for f in dataclasses.fields(st)}
    del fields["faces"], fields["obligations"]
    if st.turn is not None:
        fields["turn"] = dataclasses.replace(st.turn, **_PRIVATE_TURN)
    return fields


@pytest.mark.parametrize("name", list(GAMES))
def test_whole_game_complete_clean_and_the_same_on_every_seat(name: str) -> None:
    t = _game(name)
    ref = t.ms[0]
    assert t.complete and ref.state.over and ref.state.winners
    assert t.stats.kinds[Kind.EVIDENCE].entries == 0
    for m in t.ms:
        assert m.verdict is None
        assert m.audit_report is not None and m.audit_report.ok, m.audit_report.violations
        assert m.audit_report.winners == ref.state.winners
        assert m.events == ref.events and m.entries == ref.entries == len(t.raws)
        assert _public(m.state) == _public(ref.state)
        assert [(p.first, p.faces, p.start, p.steps) for p in m.hmap.piles] == [
            (p.first, p.faces, p.start, p.steps) for p in ref.hmap.piles
        ]
        assert m.part.records.commitments == ref.part.records.commitments
    # what the table counted is what it logged
    assert t.stats.entries == len(t.raws) and t.stats.bytes == sum(len(r) for r in t.raws)
    assert t.stats.kinds[Kind.JOIN].entries == t.stats.kinds[Kind.SECRETS].entries == t.n
    authored = [e for e in t.events if e["t"] not in (*_CHANCE, "shuffle")]
    assert t.stats.kinds[Kind.EVENT].entries == len(authored)
    assert t.stats.shares >= t.stats.kinds[Kind.SHARES].entries > 0
    assert 0 < t.stats.setup_seconds < t.stats.seconds


@pytest.mark.parametrize("name", list(GAMES))
def test_every_seat_knows_exactly_the_faces_the_rules_show_it(name: str) -> None:
    t = _game(name)
    for m in t.ms:
        assert m.seat is not None and m.audit_report is not None
        st = m.state
        shown = {h for h, mask in st.known.items() if mask >> m.seat & 1 and h < m.hmap.next_handle}
        assert set(st.faces) == shown  # none it may not know, and every one it may (opened from shares)
        assert all(m.audit_report.faces[h] == f for h, f in st.faces.items())
    # private knowledge exists: some seat holds a face another does not
    assert any(set(m.state.faces) != set(t.ms[0].state.faces) for m in t.ms)


def test_no_face_is_learned_before_the_rules_show_it() -> None:
    """Checked after every entry of a long game (random bots: harmful cards, reshuffles, many reveals)."""
    t = _table(*GAMES["classic-3-random"])
    learned = 0
    while t.step():
        for m in t.ms:
            assert m.seat is not None
            leaked = [h for h in m.state.faces if not m.state.known.get(h, 0) >> m.seat & 1]
            assert not leaked, f"seat {m.seat} holds the faces of handles {leaked} at entry {len(t.raws) - 1}"
        learned = max(learned, len(t.ms[1].state.faces))
    assert t.complete and learned > 63


@pytest.mark.parametrize("name", RESHUFFLED)
def test_reshuffles_every_seat_shuffles_every_pile(name: str) -> None:
    t = _game(name)
    m = t.ms[0]
    assert m.audit_report is not None
    piles, faces = m.hmap.piles, m.audit_report.faces
    assert len(piles) >= 2, "the discard pile was reshuffled"
    assert m.state.next_handle == m.hmap.next_handle > 63
    assert piles[0].first == 0 and piles[0].faces is None
    assert sorted(faces[h] for h in piles[0].handles) == list(range(63))
    for prev, pile in itertools.pairwise(piles):
        assert pile.first == prev.handles.stop
        assert sorted(faces[h] for h in pile.handles) == sorted(pile.faces or [])
    for pile in piles:
        assert [seat for seat, _ in pile.steps] == list(range(t.n))
    assert t.stats.kinds[Kind.SHUFFLE].entries == t.n * len(piles)


def test_chance_takes_a_beacon_link_from_every_seat() -> None:
    t = _game("classic-4")
    picks = [e["t"] for e in t.events if e["t"] in _CHANCE]
    assert picks[:2] == ["sectors", "first"]
    assert t.stats.kinds[Kind.LINK].entries == t.n * len(picks) == t.n * t.ms[0].pick_no


def test_written_log_passes_the_offline_audit(tmp_path: Path) -> None:
    t = _game("retro2013-3")
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
    assert res.entries == len(t.raws) and res.winners == t.ms[0].state.winners


def test_seeded_games_are_reproducible() -> None:
    again = _table(*GAMES["classic-3"]).run()
    assert again.events == _game("classic-3").events
    profile, n, bots, limit, seed = GAMES["classic-3"]
    assert _table(profile, n, bots, limit, seed + 1).run().events != again.events


def test_a_rejected_entry_stops_the_table_naming_the_seat() -> None:
    profile, n, _, limit, seed = GAMES["classic-3"]
    s = draw(n, seed)
    cheat = lambda st, seat, options: {"t": "discard", "p": seat, "cards": [999]}  # noqa: E731
    t = LocalTable(n, profile=profile, round_limit=limit, bots=[cheat] * n, secrets=s.secrets, game_id=s.game_id)
    with pytest.raises(ProtocolError, match="illegal move") as ei:
        t.run()
    assert ei.value.seat is not None and "rejected by seat" in "".join(ei.value.__notes__)
    assert t.stats.kinds[Kind.EVENT].entries == 0


def test_a_forged_or_misplaced_entry_is_refused_and_changes_nothing() -> None:
    """An entry in seat 2's name signed with seat 1's key, and an entry the log already holds."""
    t = _table(*GAMES["classic-3"])
    for _ in range(5):
        t.step()
    before = (len(t.raws), t.head, [m.entries for m in t.ms])
    with pytest.raises(InvalidSignature) as ei:
        t.deliver(t.sign(1, Kind.EVENT, {}, key=t.ids[0]))
    assert "rejected by seat 1's machine" in "".join(ei.value.__notes__)
    with pytest.raises(ChainError, match="is not entry 6 of this log"):
        t.deliver(t.raws[-1])
    assert (len(t.raws), t.head, [m.entries for m in t.ms]) == before


def test_a_seat_that_authors_nothing_stops_the_table() -> None:
    class Mute(Machine):
        class Author(HonestAuthor):
            def author_next(self, fold: Any, choose: Any = None) -> Any:
                return None

        author = Author()

    s = draw(3, 1)
    with pytest.raises(RuntimeError, match="seat 1's machine authored nothing for its join duty"):
        LocalTable(3, secrets=s.secrets, game_id=s.game_id, machine=Mute).run()


def test_fresh_secrets_and_bad_arguments() -> None:
    t = LocalTable(3)
    keys = [i.public.sign_pk for i in t.ids]
    assert keys == sorted(keys) and len(set(keys)) == 3 and len(t.genesis.game_id) == 16
    assert [m.seat for m in t.ms] == [0, 1, 2] and len({m.me.deck_secret for m in t.ms if m.me}) == 3
    s = draw(3, 0)
    with pytest.raises(ValueError, match="game_id"):
        LocalTable(3, secrets=s.secrets)
    with pytest.raises(ValueError, match="one bot per seat"):
        LocalTable(3, secrets=s.secrets, game_id=s.game_id, bots=[lambda st, seat, options: options[0]])


def test_the_stalemate_rule_in_the_genesis_ends_the_game_on_every_seat_and_in_the_audit(tmp_path: Path) -> None:
    # random bots with a one-round stalemate: some whole round soon goes by with nobody's access changed
    t = LocalTable(3, bots="random", seed=4, stalemate=1).run()
    assert t.complete
    reasons = {m.state.end_reason.key for m in t.ms}  # type: ignore[union-attr]
    assert reasons == {"stalemate"}
    res = audit_log(t.write_log(tmp_path / "log"))
    assert res.ok, res.text()
    assert res.winners == t.ms[0].state.winners
