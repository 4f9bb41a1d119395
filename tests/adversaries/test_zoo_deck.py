"""A shuffler that puts a card that is no card into the deck (a random point, encrypted like a card), and the other
shuffle cheats of the zoo: the proof of shuffle every peer checks on arrival rejects the step, the first honest
peer posts it as evidence and every peer's verdict names the shuffler at once; no honest seat is ever named, by a
verdict or by the audit. With proofs of shuffle switched off (what a broken proof check would leave), the net
below still holds: whoever opens the card that is no card stops the game naming nobody, and the audit names the
shuffler. In process and over the network, in the same seeded game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _net import net_game
from _zoo import Blind, Duplicator, Equivocator, ProvingSubstituter, ReplayedProof, Substituter, Table, first_chance
from adp2p.crypto.deck import Ciphertext, decode_deck, encode_deck
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.group import add, base_mul, mul, random_scalar, scalar_from_int
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine, setup
from adp2p.p2p.protocol import Kind, decode_body


class Garbler(Blind):
    """The last shuffler of the first deck replaces one ciphertext by an encryption of a point that is no card (and
    sends the proof of its honest output)."""

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.SHUFFLE or fold.cheat_seq is not None or fold.seat != fold.n - 1:
                return out
            deck = decode_deck(out[1]["deck"])
            r = random_scalar()
            deck[0] = Ciphertext(base_mul(r), add(base_mul(random_scalar()), mul(r, fold.joint_pk)))
            fold.cheated()
            return out[0], {**out[1], "deck": encode_deck(deck)}

    author = Author()


class Recoder(Blind):
    """The last shuffler of the first deck recodes one card: it adds G to one ciphertext's c2, so the card's point
    becomes (a+1)·G + id·J — a card of the table's shape whose code is one further (the malformed card that WOULD
    link a false code, tests/crypto/test_crypto_card_link.py). It sends the proof of its honest output."""

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.SHUFFLE or fold.cheat_seq is not None or fold.seat != fold.n - 1:
                return out
            deck = decode_deck(out[1]["deck"])
            deck[0] = Ciphertext(deck[0].c1, add(deck[0].c2, base_mul(scalar_from_int(1))))
            fold.cheated()
            return out[0], {**out[1], "deck": encode_deck(deck)}

    author = Author()


SEAT, N = 2, 3

AT_ONCE = [
    (Garbler, 2, 3),  # a point that is no card
    (Recoder, 2, 3),  # a malformed card: a card's point with its code raised (what a false link would need)
    (Substituter, 2, 3),  # a card of its choice in place of one it shuffled
    (Duplicator, 3, 4),  # a copy of another position's (unknown) card
    (ProvingSubstituter, 2, 3),  # a substitution proved with its own witness as if honest
    (ReplayedProof, 1, 3),  # an honest shuffle with the valid proof of another shuffle
]


@pytest.mark.parametrize("cls,seat,n", AT_ONCE, ids=[c[0].__name__ for c in AT_ONCE])
def test_a_bad_shuffle_is_named_at_once_by_its_proof(cls: type[Machine], seat: int, n: int, tmp_path: Path) -> None:
    _, t = first_chance(cls, seat, n)
    cheat = t.ms[seat].cheat_seq  # type: ignore[attr-defined]
    assert t.verdict_seats() == {seat}  # every honest peer, at once; nobody else
    for i, m in enumerate(t.ms):
        if i != seat:
            assert m.verdict is not None and m.verdict.rule == "entry" and m.verdict.seq == cheat, m.verdict
            assert "shuffle proof rejected" in m.verdict.msg, m.verdict.msg
    entries = [decode_entry(raw) for raw in t.raws]
    assert not any(e.kind == Kind.SHUFFLE and e.seq == cheat for e in entries)  # the bad step never entered the log
    posted = [decode_body(e.body) for e in entries if e.kind == Kind.EVIDENCE]
    assert [b["what"] for b in posted] == ["entry"]
    assert decode_entry(posted[0]["raw"]).author == seat
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    assert {f.seat for f in res.findings} == {seat}, res.text()


def test_an_equivocating_shuffler_with_two_valid_proofs_is_named_for_equivocation() -> None:
    t = Table(3, seed=1, cheats={1: Equivocator}).run()
    assert t.ms[1].cheat_seq is not None  # type: ignore[attr-defined]
    assert t.verdict_seats() == {1}
    assert all(m.verdict is not None and m.verdict.rule == "equivocation" for i, m in enumerate(t.ms) if i != 1)


def test_without_proofs_a_card_that_is_no_card_stops_the_game_and_the_audit_names_the_shuffler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(setup, "verify_shuffle_proof", lambda *a, **k: None)  # the proof check broken
    t = Table(N, seed=1, cheats={SEAT: Garbler}).run()
    assert t.ms[SEAT].cheat_seq is not None  # type: ignore[attr-defined]
    assert t.verdict_seats() == {None}  # at once: a corrupt deck, nobody to blame yet
    assert all(m.verdict is not None and m.verdict.rule == "deck" for i, m in enumerate(t.ms) if i != SEAT)
    assert t.abandoned is None
    posted = [decode_body(e.body) for e in map(decode_entry, t.raws) if e.kind == Kind.EVIDENCE]
    assert [b["what"] for b in posted] == ["nocard"]  # the card was dealt to one player: its learner's proof
    monkeypatch.undo()  # the offline audit, with the proof check back, still names only the shuffler
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.ok and res.tampered is None
    blamed = {(f.seat, f.rule) for f in res.findings if f.seat is not None}
    assert SEAT in {s for s, _ in blamed} and {s for s, _ in blamed} == {SEAT}, res.text()


async def test_over_the_network_every_peer_names_the_shuffler_at_once(tmp_path: Path) -> None:
    g = await net_game(tmp_path, N, 1, {SEAT: Garbler})
    assert g.cheats
    logs = g.honest_logs()
    assert all(log == logs[0] for log in logs)
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.verdict is not None and o.verdict.startswith(f"{g.who(SEAT)}: entry: "), g.heard(i)
    res = g.audit()
    assert {f.seat for f in res.findings} == {SEAT}, res.text()
