"""Hacker's table part (games/hacker/part.py) alone, against a fake fold of plain values (tests/support/fake_fold.py):
seals and their openings, private rolls, the openings of seals left unopened at the end."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from adp2p.games.hacker.part import HackerPart
from adp2p.games.hacker.seals import ROLL_SLOT
from adp2p.p2p.protocol import ProtocolError
from fake_fold import FakeFold, seat_secrets


def _game() -> SimpleNamespace:
    """What the part asks of the game: its bool fields, its chance events, and a state that learns a secret."""
    return SimpleNamespace(
        bool_fields={"check": False},
        is_chance_event=lambda ev: ev.get("t") in ("shuffle", "roll_beacon"),
        learn_secret=lambda st, what, seat, value: ("learned", what, seat, value),
    )


def _seal(seat: int = 1, seq: int = 5, place: int = 3) -> tuple[dict[str, Any], Any]:
    """Seat `seat`'s entry sealing its place at `seq`, made by its own part, and its secrets."""
    me = seat_secrets(seat)
    fold = FakeFold(game=_game(), seat=seat, me=me, entries=seq)
    body = HackerPart().event_body(fold, {"t": "seal", "p": seat, "what": "place", "secret": place})
    return body, me


def test_a_seal_carries_its_commitment_never_its_secret_and_is_kept() -> None:
    body, me = _seal()
    assert "secret" not in body["ev"] and len(body["commits"]) == 1 and me.openings  # the opening is kept, not sent
    part, fold = HackerPart(), FakeFold(game=_game(), seat=0, entries=5)
    ev = part.check_event(fold, 1, body)
    assert part.after_event(fold, 1, body, ev, None) is None  # another seat's seal: nothing learned
    assert part.seals.seals == {"place:1": (5, body["commits"])}
    own = HackerPart()
    mine = FakeFold(game=_game(), seat=1, me=me, entries=5)
    assert own.after_event(mine, 1, body, own.check_event(mine, 1, body), None) == ("learned", "place", 1, 3)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"commits": [bytes(32)]}, "not the tag"),
        ({"commits": [bytes(31)]}, "32-byte commitment"),
        ({"opening": [b"x", bytes(32)]}, "carries"),
    ],
)
def test_a_malformed_seal_names_its_author(change: dict[str, Any], why: str) -> None:
    body, _ = _seal()
    with pytest.raises(ProtocolError, match=why) as info:
        HackerPart().check_event(FakeFold(game=_game(), seat=0), 1, {**body, **change})
    assert info.value.seat == 1


def test_an_unseal_opens_the_seal_or_names_the_seat_that_sent_it() -> None:
    body, me = _seal()
    part, fold = HackerPart(), FakeFold(game=_game(), seat=0, entries=5)
    part.after_event(fold, 1, body, part.check_event(fold, 1, body), None)
    author = HackerPart()
    author.seals.seals = dict(part.seals.seals)
    unseal = {"t": "unseal", "p": 1, "what": "place", "to": 3}
    opening = author.event_body(FakeFold(game=_game(), seat=1, me=me, entries=9), unseal)
    fold.entries = 9
    assert part.check_event(fold, 1, {"ev": unseal, **opening}) == unseal
    part.after_event(fold, 1, {"ev": unseal, **opening}, unseal, None)
    assert part.seals.seals == {}  # opened: forgotten
    part.seals.seals = dict(author.seals.seals)
    with pytest.raises(ProtocolError, match="opened a place other than the one it sealed") as info:
        part.check_event(fold, 1, {"ev": {**unseal, "to": 4}, **opening})
    assert info.value.seat == 1


def test_the_seals_left_unopened_are_revealed_exactly_and_each_opens_its_seal() -> None:
    body, me = _seal()
    part, fold = HackerPart(), FakeFold(game=_game(), seat=0, entries=5)
    part.after_event(fold, 1, body, part.check_event(fold, 1, body), None)
    mine = HackerPart()
    mine.seals.seals = dict(part.seals.seals)
    revealed = mine.author_secret_fields(FakeFold(game=_game(), seat=1, me=me))
    assert [item[:2] for item in revealed["seals"]] == [[5, 0]]
    assert set(part.secret_fields(fold, 1, revealed)["seals"]) == {(5, 0)}
    with pytest.raises(ProtocolError, match="wrongly") as info:
        part.secret_fields(fold, 1, {})
    assert info.value.seat == 1
    seq, k, value, salt = revealed["seals"][0]
    with pytest.raises(ProtocolError, match="does not open its seal"):
        part.secret_fields(fold, 1, {"seals": [[seq, k, value + b"\x00", salt]]})
    assert part.secrets_game_bytes() > 0 and ROLL_SLOT == 31


def test_a_private_roll_is_committed_and_its_dice_known_to_its_seat_after_the_beacon() -> None:
    me = seat_secrets(2)
    author = HackerPart()
    fold = FakeFold(game=_game(), seat=2, me=me, entries=11)
    body = author.event_body(fold, {"t": "private_roll", "p": 2})
    ev = author.check_event(fold, 2, body)
    author.after_event(fold, 2, body, ev, None)
    assert author.seals.rolls[2]["r"] == 22 and author.seals.rolls[2]["b"] is None
    learned = author.note(fold, None, {"t": "roll_beacon", "p": 2, "b": "ab" * 16})
    assert learned[:3] == ("learned", "roll", 2) and all(1 <= d <= 6 for d in learned[3])
    other = HackerPart()
    other.seals.rolls = {2: dict(author.seals.rolls[2], b=None)}
    assert other.note(FakeFold(game=_game(), seat=0), None, {"t": "roll_beacon", "p": 2, "b": "ab" * 16}) is None
