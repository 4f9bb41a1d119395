"""The hand mix's `mix` field at the table (games/classified/mixing.py), checked alone on a fake fold: an honest mix
verifies and its output takes the rules' new handles in order; every malformed, misplaced or false mix is the
author's ProtocolError with rule `hand_mix` (never another exception); the seeded mixer repeats."""

from __future__ import annotations

from typing import Any

import pytest
from adp2p.crypto import deck
from adp2p.crypto.group import CardTable
from adp2p.engine.classified import api
from adp2p.engine.classified.scenario import Scene
from adp2p.games.classified import mixing
from adp2p.games.classified.game import GAME
from adp2p.games.classified.table_state import TableState
from adp2p.p2p.piles import HandleMap
from adp2p.p2p.protocol import ProtocolError
from support.fake_fold import FakeFold

GID = bytes(range(16))


def fold_at_mix() -> FakeFold:
    """Seat 0's mix is due (a card of its hand was shown after a failed attempt); a real 18-card deck under two keys."""
    s = Scene(hands={0: [4, 5], 1: [1, 6]}, suitcases={0: 8, 1: 3}, deck=[2, 7, 9, 9, 6, 2], start=0)
    s.guard(0, 4)
    s.assassin(1, 1, s.h(0, 4, "guard")).pass_().answer().show(0)
    assert api.pending(s.st).kind == "mix"
    keys = [deck.DeckKey(GID, i, deck.DeckKey.generate(GID, i).secret) for i in range(2)]
    pk = deck.joint_key(GID, [(k.public, k.proof) for k in keys])
    hmap = HandleMap()
    hmap.add_mixed(0, deck.initial_deck(GID, pk, CardTable.linear(GID, [i // 2 + 1 for i in range(18)])))
    return FakeFold(game=GAME, n=2, seat=0, game_id=GID, state=TableState(s.st), entries=40,
                    keys=[(k.public, k.proof) for k in keys], hmap=hmap)  # type: ignore[arg-type]


def honest(fold: FakeFold) -> dict[str, Any]:
    return mixing.Mixer().body(fold)


def test_an_honest_mix_verifies_and_takes_the_new_handles_in_order() -> None:
    fold = fold_at_mix()
    body = honest(fold)
    out = mixing.check(fold, 0, body, {"t": "mix", "p": 0})
    assert out is not None and fold.proof_checks == [mixing.verify_mix]
    hand = mixing.hand_cts(fold, 0)
    assert len(out) == len(hand) and not {c.c1 for c in out} & {c.c1 for c in hand}
    fold.state = GAME.apply(fold.state, {"t": "mix", "p": 0})
    mixing.record(fold, 0, out)
    first = fold.state.eng.next_handle - len(out)
    assert [fold.hmap[first + j] for j in range(len(out))] == out and fold.hmap.next_handle == first + len(out)


def _bad_bodies(fold: FakeFold) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    body = honest(fold)
    raw, proof = body["mix"]
    hand = mixing.hand_cts(fold, 0)
    mix = {"t": "mix", "p": 0}
    return [
        ("no mix", {}, mix),
        ("not a list", {"mix": raw}, mix),
        ("one element", {"mix": [raw]}, mix),
        ("a str", {"mix": ["x", proof]}, mix),
        ("short deck", {"mix": [raw[:-64], proof]}, mix),
        ("ragged deck", {"mix": [raw[:-1], proof]}, mix),
        ("garbage points", {"mix": [bytes(len(raw)), proof]}, mix),
        ("not re-masked", {"mix": [deck.encode_deck(hand), proof]}, mix),
        ("a card repeated", {"mix": [raw[:64] * (len(raw) // 64), proof]}, mix),
        ("another order", {"mix": [raw[64:] + raw[:64], proof]}, mix),
        ("no proof", {"mix": [raw, b""]}, mix),
        ("a flipped proof", {"mix": [raw, proof[:-1] + bytes([proof[-1] ^ 1])]}, mix),
        ("another seq's proof", {"mix": [raw, proof]}, mix),  # (fold.entries changed below)
        ("a mix on an action", {"mix": [raw, proof]}, {"t": "encrypt", "p": 0, "h": 0}),
    ]


@pytest.mark.parametrize("i", range(14))
def test_a_bad_mix_names_its_author_with_rule_hand_mix(i: int) -> None:
    fold = fold_at_mix()
    what, body, ev = _bad_bodies(fold)[i]
    if what == "another seq's proof":
        fold.entries += 1
    with pytest.raises(ProtocolError) as got:
        mixing.check(fold, 0, body, ev)
    assert (got.value.seat, got.value.rule) == (0, mixing.RULE_MIX), what


def test_a_mix_where_none_is_due_is_left_to_the_rules() -> None:
    """Seat 1 is not asked to mix: the check does not look at its field (the rules refuse the event, naming it)."""
    fold = fold_at_mix()
    assert mixing.check(fold, 1, {"mix": [b"", b""]}, {"t": "mix", "p": 1}) is None
    with pytest.raises(GAME.illegal):
        GAME.apply(fold.state, {"t": "mix", "p": 1})


def test_a_seeded_mixer_repeats_and_a_fresh_one_does_not() -> None:
    a, b = fold_at_mix(), fold_at_mix()
    b.keys, b.hmap, b.game_id = a.keys, a.hmap, a.game_id
    a.proof_seed = b.proof_seed = bytes(32)
    assert honest(a) == honest(b)
    a.proof_seed = b.proof_seed = None
    assert honest(a)["mix"][0] != honest(b)["mix"][0]
