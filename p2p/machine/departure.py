"""A seat that left after an abandonment it saw stand: the proof an abandon may carry (`left`) that the seat it names
is not silent but gone — it wrote an abandon at an earlier seq of this log, which the seat that abandon named set aside
by answering after all, and it has signed nothing in this log since (docs/protocol.md, "Abandonment and resume",
rule 7). Such an abandon ends the game and names nobody; results reached stand.

`abandon` checks the abandon entry itself. Pure: it reads what the machine recorded of the log (`Finality`: the id
each entry builds on, its author, the seats whose tokens it carries) and checks one signed entry against it."""

from __future__ import annotations

from typing import Any

from adp2p.crypto.entries import decode_entry, verify_entry
from adp2p.crypto.errors import CryptoError, MalformedEncoding
from adp2p.p2p.protocol import BodyError, Kind, ProtocolError, decode_body, need


def abandon(m: Any, duty: Any, author: int, body: dict[str, Any]) -> tuple[int, int | None]:
    """An abandon entry: `{"silent": seat, "seq": this seq}` by another seat than the silent one, naming the seat on
    duty (`duty`). Whether its author waited long enough is for each peer to judge before it applies it (see
    p2p/peer/ and docs/protocol.md, "Abandonment"): the machine checks what the log alone shows. Returns the silent
    seat (the game ends there) and, when the seat on duty left after an abandonment it saw stand (`left`: nobody is
    named), the seq at which that abandon stood."""
    if set(body) - {"passes", "left"} != {"silent", "seq"}:
        raise BodyError("an abandon body is {silent, seq} and perhaps passes and left")
    silent, seq = need(body, "silent", int), need(body, "seq", int)
    if seq != m.entries:
        raise ProtocolError(author, f"an abandon for seq {seq} at seq {m.entries}")
    if silent != duty.seat:
        raise ProtocolError(author, f"an abandon naming seat {silent + 1}, but seat {duty.seat + 1} is on duty")
    if author == silent:
        raise ProtocolError(author, "an abandon naming its own author")
    return silent, (check_left(m, silent, body["left"]) if "left" in body else None)


def check_left(m: Any, silent: int, raw: Any) -> int:
    """The seq at which `silent`'s own abandon `raw` stood before the seat it named answered after all; BodyError
    (the fault of the entry that carries it) unless every part holds: an abandon signed by `silent` for this game, at
    a seq 1..now of this log, after the very entry the log holds before that seq, not the entry the log holds there,
    naming a seat other than `silent` whose own entry (or pass token) is the one the log holds there, and `silent`
    signed nothing in this log after it (no entry from that seq on, no pass token after it, none in the entry being
    applied)."""
    if not isinstance(raw, bytes):
        raise BodyError("`left` is a signed entry")
    try:
        e = decode_entry(raw)
        if e.game_id != m.game_id or e.author != silent or e.kind != Kind.ABANDON:
            raise BodyError("`left` is not an abandon of this game by the seat it names")
        verify_entry(e, m.ids[silent])
        body = decode_body(e.body)
    except (MalformedEncoding, CryptoError, ValueError, TypeError) as exc:
        raise BodyError(f"`left` is no signed entry of that seat ({type(exc).__name__})") from None
    k = e.seq
    if not 1 <= k < m.entries:
        raise BodyError(f"`left` is an abandon at seq {k}, not an earlier seq of this log")
    here = m.prev if k == m.entries - 1 else m.id_at(k)
    if m.prev_at(k) != e.prev_hash or here is None or here == e.id:
        raise BodyError(f"`left` is not an abandon this log set aside at seq {k}")
    named = body.get("silent") if isinstance(body, dict) else None
    if not isinstance(named, int) or isinstance(named, bool) or not 0 <= named < m.n or named == silent:
        raise BodyError("`left` names no other seat")
    if not (m.finality.authors[k - 1] == named or m.finality.token_seats[k - 1] >> named & 1):
        raise BodyError(f"`left`: seat {named + 1} did not answer at seq {k} of this log")
    # its pass tokens at seq k came before the decision it gave up on there (the entry at k may carry them); an entry
    # of its own from seq k on, or a token after seq k (the entry being applied included), it signed after it left
    signed = m.signed_after(silent, k)
    if m.finality.authors[k - 1] == silent or signed is not None or m._tokens_now >> silent & 1:
        raise BodyError(f"`left`: seat {silent + 1} signed entries after its abandon at seq {k}: it did not leave")
    return k
