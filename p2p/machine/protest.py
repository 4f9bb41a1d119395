"""Evidence after the end (docs/protocol.md, "Evidence after the end"): an honest seat whose timely proof of a fault
in a box sealed to it reached the table only after the table held the game's end (so every other peer refused it at
its seq: `FinalityPart.displaces`) folds the entry it rejected *under protest* — its own private check of that box set
aside, every public check kept, exactly as an observer folds it — follows the table's branch, and posts its proof at
the head wrapped as `{what: "protest", raw}`. Every fold checks the wrapped proof from the log alone (the box is in the
log, the box secret is checked against its seat's published key) before it names anyone: a proof that does not hold
names its poster. A protest names the accused seat and sets nothing aside: results stand but the accused's own share.

Functions on a `Machine` (p2p/machine/machine.py), called from its evidence part; the peer's side is
p2p/peer/protest.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.crypto.encoding import unpack_canonical
from adp2p.crypto.entries import Entry, decode_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.crypto.hashing import u64
from adp2p.crypto.private import audit_open_private
from adp2p.p2p import published
from adp2p.p2p.machine.common import Verdict, carried_entry
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, decode_body, need

Machine = Any  # the fold these functions work on (p2p/machine/machine.py, which imports this module: no import back)

MAX_PROTESTS = 4  # `protest` entries one log may carry (each names one seat; one per accuser at most)


def fold_under_protest(m: Machine, e: Entry) -> None:
    """Apply entry `e`, which this seat rejected for a fault in a box sealed to it, as an observer folds it: no box is
    opened with this seat's key (`_box_viewer` is None in a fold one level down, as in a copy judging evidence), every
    public check is made (a public fault still raises `ProtocolError`). The seq and author are recorded in
    `m.protested`: what this seat still owes the table is its proof at the head (`protest_body`)."""
    depth = m._depth
    m._depth = depth + 1
    try:
        m.apply_entry(e)
    finally:
        m._depth = depth
    m.protested = (*getattr(m, "protested", ()), (e.seq, e.author))


def sealed_to(m: Machine, seq: int, sender: int, to: int) -> bool:
    """Whether the log holds a box of shares that `sender` sealed to `to` in its entry at `seq`."""
    return any(s == seq and f == sender and t == to for s, f, t, _box, _due in m.sealed_log)


def protest_verdict(m: Machine, poster: int, body: dict[str, Any], seq: int) -> Verdict:
    """`{what: "protest", raw}` at seq `seq`: `raw` is the poster's own `entry` evidence for an earlier seq `s` of this
    log (signed by it, on this log's entry `s - 1`), accusing the very entry this log holds at `s`, carrying the
    poster's box secret (its published one); the game ended after `s`; the poster signed nothing in this log after
    `s` (evidence is due at once); and the shares the accused sealed to the poster at `s` do not check out with that
    secret. Its verdict names the accused. Anything else is the poster's false evidence."""
    e = carried_entry(body, m.ids, poster)
    if e.author != poster or e.game_id != m.game_id or e.kind != Kind.EVIDENCE or not 1 <= e.seq < seq:
        raise ProtocolError(poster, f"false evidence: not the poster's own evidence entry before seq {seq}")
    s = e.seq
    if e.prev_hash != m.prev_at(s):
        raise ProtocolError(poster, f"false evidence: that evidence is not on entry {s - 1} of this log")
    try:
        inner = decode_body(e.body)
        accused = decode_entry(need(inner, "raw", bytes))
        secret = need(inner, "box_secret", bytes, size=32)
    except (BodyError, CryptoError, MalformedEncoding, TypeError) as exc:
        raise ProtocolError(poster, f"false evidence: no sealed-box evidence: {exc}") from None
    if not isinstance(inner, dict) or inner.get("what") != "entry" or accused.id != m.id_at(s):
        raise ProtocolError(poster, f"false evidence: it does not accuse the entry this log holds at seq {s}")
    if m.ended_at is None or m.ended_at <= s:
        raise ProtocolError(poster, f"false evidence: the game did not end after entry {s} (the proof takes its seq)")
    t = m.signed_after(poster, s)
    if t is not None:
        raise ProtocolError(poster, f"late: it signed entry {t} on top of entry {s} first (evidence is due at once)")
    ids = getattr(m, "_protest_ids", frozenset())
    if e.id in ids or len(ids) >= MAX_PROTESTS:
        raise ProtocolError(poster, "false evidence: that protest was posted in this log already, or enough were")
    published.box_secret(m.ids, poster, secret, poster)  # check before blame: the poster's own published key
    sender = accused.author
    boxes = [(box, due) for q, f, to, box, due in m.sealed_log if q == s and f == sender and to == poster]
    if not boxes:
        raise ProtocolError(poster, f"false evidence: seat {sender + 1} sealed no shares to it at entry {s}")
    box, due = boxes[0]
    fault = _box_fault(m, sender, poster, s, secret, box, due)
    if fault is None:
        raise ProtocolError(poster, f"false evidence: the shares seat {sender + 1} sealed to it at {s} check out")
    m._protest_ids = ids | {e.id}  # (a new set: undone with the fold if this entry fails)
    why = (
        f"seat {sender + 1}'s shares sealed to seat {poster + 1} at entry {s} do not check out: {fault} (proven by "
        f"seat {poster + 1} after the end, which came before its proof: nothing is set aside)"
    )
    return Verdict(sender, "sealed_shares", why, seq)


def _box_fault(m: Machine, sender: int, to: int, s: int, secret: bytes, box: bytes, due: dict[int, str]) -> str | None:
    """What is wrong with the box `sender` sealed to `to` at `s` (opened with `to`'s checked box secret), or None if
    every share in it is the one due, with a proof that holds (the checks the recipient makes on arrival)."""
    ctx = b"adp2p/shares" + m.game_id + u64(s) + bytes([sender, to])
    try:
        payload = audit_open_private(secret, m.ids[sender], m.ids[to], ctx, box)
        items = unpack_canonical(payload, "sealed shares")
        if not isinstance(items, list):
            return "sealed shares are not a list"
        got = {}
        recs = getattr(m, "sealed_openings", {}).get((s, sender, to), {})
        for item in items:
            h, shares, opened = m.reveals.decode_item(m, sender, item)
            got[h] = shares
            # the opening shown with the card, as the recipient checked it on arrival (`Reveals.shares`): one not due,
            # one missing, or one that does not open its commitment is a fault like a wrong share
            m.part.check_recorded_opening(m, sender, h, recs.get(h), opened)
        if set(got) != set(due):
            return f"shares for handles {sorted(got)}, due {sorted(due)}"
        for h, shares in got.items():  # in line (never a worker's check: the verdict depends on it)
            want = set(range(m.n)) if due[h] == "cert" else {sender}
            if set(shares) != want:
                return f"handle {h}: shares of seats {sorted(shares)}, due {sorted(want)}"
            for q, share in shares.items():
                published.share(m.game_id, m.keys[q][0], h, m.hmap[h], share, sender)
    except (ProtocolError, CryptoError, BodyError, TypeError, ValueError, IndexError, KeyError) as exc:
        return str(exc)[:300] or type(exc).__name__
    return None


def protest_body(m: Machine, evidence_raw: bytes) -> dict[str, Any]:
    """The body this seat posts at the head for its refused evidence entry `evidence_raw`."""
    return {"what": "protest", "raw": evidence_raw}


def follow_under_protest(before: Machine, branch: list[Entry]) -> Machine | None:
    """The table's branch from the entry this seat rejected (`branch[0]`, for the seq after `before`, the fold of the
    log before it) on: a new fold with `branch[0]` folded under protest and the rest as usual, if it holds and holds
    the game's end; else None (the branch is no reason to set this seat's proof aside: it stays at its seq)."""
    m = before.snapshot()
    try:
        fold_under_protest(m, branch[0])
        for e in branch[1:]:
            m.apply_entry(e)
    except (ProtocolError, BodyError):
        return None
    return m if m.ended_at is not None and m.ended_at > branch[0].seq else None


MAX_FORKS = 16  # forks the search below takes (a snapshot of the fold per version); a table's branch has none


def follow_tree(
    before: Machine, root: Entry, children: Callable[[Entry], list[Entry]]
) -> tuple[Machine, list[Entry]] | None:
    """`follow_under_protest` where the entries held after the rejected entry `root` may fork: a cheater sent this
    seat two versions of its own entry on the table's branch, one of them for it alone. Of every chain from `root` on
    (`children(e)`: the entries held at the next seq that build on `e`), the one taken is the longest whose fold holds
    and holds the game's end: the branch the others built on to the end and past it (their `secrets`); of two as long,
    the one whose first differing entry has the lower id (rule 8's choice between two versions of the ending entry).
    Each entry is folded once; a version that does not fold, or leads to no end, is left. Returns (its fold, the
    chain), or None. At most `MAX_FORKS` forks are searched (past them, the lowest id only)."""
    m = before.snapshot()
    try:
        fold_under_protest(m, root)
    except (ProtocolError, BodyError):
        return None
    best: list[tuple[Machine, list[Entry]]] = []
    forks = [0]

    def walk(m: Machine, chain: list[Entry]) -> None:
        while True:
            kids = sorted(children(chain[-1]), key=lambda e: e.id)
            if len(kids) > 1 and forks[0] < MAX_FORKS:
                forks[0] += 1
                _keep(best, m, chain, root)  # (the chain up to the fork, if every version past it fails)
                for e in kids:
                    trial = m.snapshot()
                    try:
                        trial.apply_entry(e)
                    except (ProtocolError, BodyError):
                        continue
                    walk(trial, [*chain, e])
                return
            if kids:
                trial = m.snapshot() if _ends(m, root) else m  # (a chain that holds the end is kept as it is)
                try:
                    trial.apply_entry(kids[0])
                except (ProtocolError, BodyError):
                    kids = []
                else:
                    if trial is not m:
                        _keep(best, m, chain, root)
                    m, chain = trial, [*chain, kids[0]]
                    continue
            _keep(best, m, chain, root)
            return

    walk(m, [root])
    return best[0] if best else None


def _ends(m: Machine, root: Entry) -> bool:
    return m.ended_at is not None and m.ended_at > root.seq


def _keep(best: list[tuple[Machine, list[Entry]]], m: Machine, chain: list[Entry], root: Entry) -> None:
    """Keep chain `chain` (folded: `m`) in `best` if it holds the end and is longer than the one kept (the first
    found of two as long: the lower ids)."""
    if _ends(m, root) and (not best or len(chain) > len(best[0][1])):
        best[:] = [(m, chain)]
