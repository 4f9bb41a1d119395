"""The table's branch a peer watches past an entry it rejected for a bad box sealed to it (p2p/peer/protest.py,
`Watch`), alone: real signed entries, no fold."""

from __future__ import annotations

from adp2p.crypto.entries import Entry, decode_entry, encode_entry, verify_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.p2p.peer.protest import MAX_BRANCH, PER_SLOT, Watch, _children
from adp2p.p2p.protocol import Kind, encode_body

GID = bytes(16)
IDS = [SecretIdentity.from_seeds(bytes([i]) * 32, bytes([i + 100]) * 32) for i in range(3)]


def _signed(e: Entry) -> None:
    """Signed by the seat it names."""
    verify_entry(e, IDS[e.author].public)


def _branch(w: Watch) -> list[Entry]:
    """The chain on the rejected entry as far as it does not fork (what `follow_tree` folds when nobody forks)."""
    out = [decode_entry(w.raw)]
    while len(kids := _children(_signed, w, out[-1])) == 1:
        out.append(kids[0])
    return out


def entry(author: int, seq: int, prev: bytes, tag: int = 0) -> bytes:
    return encode_entry(IDS[author], GID, seq, prev, author, int(Kind.SHARES), encode_body({"tag": tag}))


def test_the_branch_is_the_chain_of_entries_on_the_rejected_one_in_any_order_of_arrival() -> None:
    bad = entry(1, 10, bytes(32))
    a = entry(2, 11, decode_entry(bad).id)
    b = entry(1, 12, decode_entry(a).id)
    w = Watch(10, bad)
    assert w.keep(decode_entry(b)) and w.keep(decode_entry(a))  # (the later one first)
    assert not w.keep(decode_entry(a))  # kept once
    assert [e.seq for e in _branch(w)] == [10, 11, 12]
    assert not w.keep(decode_entry(entry(2, 10, bytes(32))))  # not after the rejected entry
    assert not w.keep(decode_entry(entry(2, 10 + MAX_BRANCH + 1, bytes(32))))  # too far


def test_one_seats_flood_does_not_crowd_out_another_seats_entries() -> None:
    bad = entry(1, 10, bytes(32))
    w = Watch(10, bad)
    for seq in range(11, 11 + MAX_BRANCH):
        for tag in range(PER_SLOT + 3):
            w.keep(decode_entry(entry(1, seq, bytes(32), tag)))  # the cheater's junk, many versions a seq
    assert len(w.at(11)) == PER_SLOT
    honest = entry(2, 11, decode_entry(bad).id)
    assert w.keep(decode_entry(honest))  # another seat's slot has room
    assert [e.seq for e in _branch(w)] == [10, 11]


def test_two_versions_of_one_entry_are_both_children_and_a_badly_signed_one_is_none() -> None:
    bad = entry(1, 10, bytes(32))
    w = Watch(10, bad)
    a, b = entry(1, 11, decode_entry(bad).id, 1), entry(1, 11, decode_entry(bad).id, 2)
    forged = encode_entry(IDS[2], GID, 11, decode_entry(bad).id, 0, int(Kind.SHARES), encode_body({"tag": 3}))
    for raw in (a, b, forged):
        assert w.keep(decode_entry(raw))  # (seat 1's slot holds its two versions, seat 0's the forgery)
    assert {e.raw for e in _children(_signed, w, decode_entry(bad))} == {a, b}
