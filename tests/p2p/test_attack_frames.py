"""Red team (2026-11-26): a seated cheater's rule-breaking entry as large as a frame may carry (an event, or the
end-of-game `secrets`). The evidence in its
place would carry it whole (`raw`) and not fit a frame: every honest peer crashed on sending it (FrameTooLarge out of
`_flush`), and without the crash each would hold its own unsendable evidence (split). Now an entry too large for the
evidence about it is dropped unread (p2p/peer/common.py, `entry_fits`), and an unsendable entry never crashes a peer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
from adp2p.p2p.framing import DEFAULT_MAX_FRAME
from adp2p.p2p.protocol import Kind, decode_body, encode_body
from adp2p.p2p.secrets_size import MAX_SECRETS_ENTRY
from test_table_bad_input import ATTACKER, Attacker, play


async def test_a_frame_sized_rule_break_is_answered_with_evidence_every_peer_gets(tmp_path: Path) -> None:
    class Bloated(Attacker):
        def wants(self, e: Any) -> bool:  # type: ignore[override]
            return e.kind == Kind.EVENT

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            body = decode_body(e.body)

            def signed(junk: int) -> bytes:  # a link on an entry that answers nothing, `junk` bytes of share
                body["code_link"] = [[[bytes(junk)], b""]]
                return self.sign(e.seq, e.prev_hash, e.kind, encode_body(body))

            size = DEFAULT_MAX_FRAME - 1000
            over = len(msgpack.packb({"t": "m", "m": {"k": "entry", "raw": signed(size)}})) - DEFAULT_MAX_FRAME
            raw = signed(size - over - 64)  # the largest entry a frame carries, nearly
            self.log.append(f"{len(raw)}")
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=Bloated)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert len(t.peers[ATTACKER].log[0]) > 6  # type: ignore[attr-defined]  (an entry of about a frame)
    t.check_logs()  # every honest peer finished, on one log
    for i in t.honest:  # too large for the evidence about it: dropped unread, like any malformed message
        o = t.outcomes[i]
        assert o is not None and (o.verdict is None or f"key {t.label(ATTACKER)}" in o.verdict), t.heard(i)
        assert "too large for its kind" in t.heard(i) or o.verdict, t.heard(i)
        for h in t.honest:
            assert o.abandoned_by != f"p{h}" and not (o.verdict or "").startswith(f"p{h} "), t.heard(i)


async def test_a_bloated_secrets_entry_is_dropped_and_its_author_named_as_the_staller(tmp_path: Path) -> None:
    """A ~900 KiB `secrets` entry with a rule break in it (another seat's deck secret): the evidence carrying it could
    not fit a frame, so every peer drops it unread (over MAX_SECRETS_ENTRY, p2p/secrets_size.py), as silence: the
    table ends on one log with the result it reached (the attacker's true entry, which its own log holds, may still be
    fetched from it; else it is named as the staller), and no honest seat is named. Before, each honest peer held its
    own unsendable evidence about it (a split at the end)."""

    class BloatedSecrets(Attacker):
        def wants(self, e: Any) -> bool:  # type: ignore[override]
            return e.kind == Kind.SECRETS

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            body = decode_body(e.body)
            body["deck_secret"] = bytes(32)
            body["witnesses"] = [*body["witnesses"], *([[99, bytes(60_000)]] * 15)]
            raw = self.sign(e.seq, e.prev_hash, e.kind, encode_body(body))
            self.log.append(f"{len(raw)}")
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=BloatedSecrets)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert MAX_SECRETS_ENTRY < int(t.peers[ATTACKER].log[0]) < DEFAULT_MAX_FRAME  # type: ignore[attr-defined]
    t.check_logs()
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None and o.abandoned_by in (None, f"p{ATTACKER}") and o.verdict is None, t.heard(i)
        assert "too large for its kind" in t.heard(i), t.heard(i)
        assert o.winners, t.heard(i)  # results stand
