"""Results are final over the real protocol (issue 34): a coalition of two seated cheaters against an honest peer on
127.0.0.1 (tests/adversaries/_net.py), in the seeded game where the in-process zoo found the controller's chance.

Attack 1: the controller seals a broken answer proof to its partner, the attempter, whose machine accepts the answer
and plays on; once the game has ended the partner posts the (genuine) evidence at the answer's seq, which set every
later entry aside on main (`winners=[]`, the controller named, the poster recorded as honest). Now it is late (its
poster signed entries on top of the answer) and after the end: it sets nothing aside, `refused` at the head names the
partner, the audit names the controller (the sealed proofs are opened with the partner's revealed box secret), and
the honest seat's result stands at every honest peer and in the offline audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _net import ZooPeer, net_game
from _zoo import Table, UnprovenAnswer
from _zoo_final import Accomplice, BadShareTo, SelfAccuser, self_accusation
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.p2p.protocol import Kind, encode_body

pytestmark = pytest.mark.slow
# Found in process at the game id the networked lobby derives (`Table(..., as_lobby="zoo")`, seeds 1-22 at protocol
# version 7; the in-process check in the test repeats it): the controller (seat 2) cheats in every one of them, and the
# honest seat wins at seeds 1, 2, 9, 20 and 21 (the attempter is seat 3, the honest seat 1) and 12 and 13 (attempter
# seat 1, honest seat 3). (Seed 4 was chosen at version 6, the version being in the lobby's game id; seed 2 when a
# game's id was the seed's own.)
SEED = 1


class LatePoster(ZooPeer):
    """A peer whose machine is an `Accomplice`: once the game has ended it posts the evidence it held back, at the
    seq of the answer it accepted (signed on the log's entry before it, as timely evidence would be)."""

    posted = False

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, store = self.machine, self.store
        if self.posted or not isinstance(m, Accomplice) or m.cheat_seq is None or not m.state.over or store is None:
            return
        self.posted = True
        s = m.cheat_seq
        body: dict[str, Any] = {
            "what": "entry",
            "raw": store[s].raw,
            "reason": "its answer proofs for me do not open",
            "box_secret": bytes(self.identity.box_key),
        }
        late = encode_entry(self.identity, m.game_id, s, store[s - 1].id, m.seat, int(Kind.EVIDENCE), encode_body(body))
        self.outbox.append(late)


async def test_evidence_held_back_by_the_partner_until_the_end_erases_nothing(tmp_path: Path) -> None:
    alone = Table(3, seed=SEED, cheats={1: UnprovenAnswer}, as_lobby="zoo").run()
    attempter = next(decode_entry(r).author for r in alone.raws if decode_entry(r).kind == Kind.EVIDENCE)
    honest = ({0, 1, 2} - {1, attempter}).pop()
    ref = Table(3, seed=SEED, cheats={1: UnprovenAnswer, attempter: Accomplice}, as_lobby="zoo").run()  # the same game
    assert ref.ms[attempter].held is not None, "the partner found no broken proof to hold back"  # type: ignore[attr-defined]
    assert ref.ms[honest].state.over and ref.ms[honest].state.winners == [honest], "the honest seat must win here"
    g = await net_game(tmp_path, 3, SEED, {1: UnprovenAnswer, attempter: Accomplice}, peer_class=LatePoster)
    assert g.cheats, "the controller never sealed its broken proof over the network"
    assert g.peers[attempter].posted, "the partner never posted its held-back evidence"  # type: ignore[attr-defined]
    o = g.outcomes[honest]
    assert o is not None, g.heard(honest)
    heard = g.heard(honest)
    assert "sets nothing aside" in heard, heard[-1500:]
    assert o.verdict is not None and o.verdict.startswith(f"{g.who(attempter)}: late_evidence: "), o.verdict
    m = g.peers[honest].machine
    assert m is not None and m.state.over
    want = [m.names[w] for w in m.state.winners if w not in (1, attempter)]
    assert m.names[honest] in want
    assert o.winners == want, (o.winners, m.state.winners, o.violations)
    assert any(v.startswith(g.who(1)) and "controller_answer" in v for v in o.violations), o.violations
    assert not any(v.startswith(g.who(honest)) for v in o.violations), o.violations
    res = g.audit(honest)
    assert {f.seat for f in res.findings} == {1, attempter}, res.text()
    assert [res.names[w] for w in res.winners] == want, res.text()


class ReactingSelfAccuser(ZooPeer):
    """A peer whose machine is a `SelfAccuser`: when another seat's evidence reaches it, it posts evidence against its
    own junk entry at that seq (as the lower seat, on main its evidence won there and hid the cheater the other seat
    proved)."""

    posted = False

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, e = self.machine, decode_entry(raw)
        if self.posted or not isinstance(m, SelfAccuser) or e.kind != Kind.EVIDENCE or e.author == m.seat:
            return
        self.posted = True
        body = self_accusation(self.identity, m.game_id, e.seq, e.prev_hash, m.seat)
        self.outbox.append(
            encode_entry(self.identity, m.game_id, e.seq, e.prev_hash, m.seat, int(Kind.EVIDENCE), encode_body(body))
        )


async def test_a_colluders_self_accusation_does_not_hide_the_cheater_an_honest_learner_proves(tmp_path: Path) -> None:
    """The wrong-cheater case of issue 34: seat 1 seals a bad share to seat 3, who posts the proof in its place; seat
    2, a lower seat, posts evidence against itself at that very seq. Two valid pieces of evidence at one seq name both
    seats: the self-accusation never takes precedence (on main it won as the lower seat, and the real cheater was
    shown as honest by the verdict); `refused` at the head names seat 2."""
    g = await net_game(tmp_path, 3, 1, {0: BadShareTo, 1: SelfAccuser}, peer_class=ReactingSelfAccuser)
    assert g.peers[1].posted, "the colluder never saw the learner's evidence"  # type: ignore[attr-defined]
    o = g.outcomes[2]
    assert o is not None and o.verdict is not None, g.heard(2)
    assert o.verdict.startswith(f"{g.who(0)}: entry: "), o.verdict
    assert f"{g.who(1)}: self_accusation: " in o.verdict, o.verdict
    assert g.who(2) not in o.verdict.split(": ")[0] and not any(v.startswith(g.who(2)) for v in o.violations)
    res = g.audit(2)
    assert {f.seat for f in res.findings} == {0, 1}, res.text()
    assert "self_accusation" in {f.rule for f in res.findings if f.seat == 1}, res.text()
