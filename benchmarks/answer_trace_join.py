"""`ad-p2p join` with a timestamp at every step an entry takes through this peer (bench_answer_trace.py runs it).

The product is not changed: a few methods are wrapped here, in this process only, and each wrapper appends
`monotonic process-time event seq extra` to the file named by ADP2P_TRACE. The steps: a frame decoded off a
connection (`rx`), a message handled (`handle0/1`), an entry taken in (`take0/1`), its signature and chain checked
(`check0/1`), folded by the machine (`fold0/1`: every proof on it checked), appended to the log (`append0/1`, with
`durable=True` for our own entries: the fsync), a reaction-window decision (`window0/1`) and any decision
(`decide0/1`: the bot runs in a worker thread), our entry made (`author0/1`), work done ahead (`prep0/1`) and what we
broadcast (`bcast`). Run as `python benchmarks/answer_trace_join.py join ...` (the arguments of `ad-p2p join`).
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from adp2p.cli.main import main
from adp2p.crypto.entries import decode_entry
from adp2p.p2p import framing
from adp2p.p2p.logstore import LogStore
from adp2p.p2p.machine.machine import Machine
from adp2p.p2p.peer.intake import Intake
from adp2p.p2p.peer.net import Net
from adp2p.p2p.peer.table_peer import TablePeer
from adp2p.p2p.transport import streams
from adp2p.p2p.transport.mesh import Mesh

_out = open(os.environ["ADP2P_TRACE"], "a", buffering=1)  # noqa: SIM115  (open for the whole process)


def mark(event: str, seq: object = "-", extra: str = "") -> None:
    _out.write(f"{time.monotonic():.6f} {time.process_time():.6f} {event} {seq} {extra}\n")


def seq_of(raw: object) -> object:
    try:
        return decode_entry(raw).seq  # type: ignore[arg-type]
    except Exception:
        return "?"


def _decode_payload(payload: bytes, *a: Any, **k: Any) -> Any:
    obj = _real_decode(payload, *a, **k)
    if isinstance(obj, dict) and obj.get("t") == "m" and isinstance(obj.get("m"), dict):
        m = obj["m"]
        if m.get("k") == "entry":
            mark("rx", seq_of(m.get("raw")), "entry")
        elif m.get("k") == "pass":
            mark("rx", m.get("seq"), f"pass_j={m.get('j')}_seat={m.get('seat')}")
        else:
            mark("rx", m.get("seq", "-"), str(m.get("k")))
    return obj


_real_decode = framing.decode_payload
framing.decode_payload = _decode_payload
streams.decode_payload = _decode_payload  # type: ignore[attr-defined]


def wrap(cls: type, name: str, event: str, seq: Callable[..., object] | None = None) -> None:
    f = getattr(cls, name)
    if inspect.iscoroutinefunction(f):

        @functools.wraps(f)
        async def g(*a: Any, **k: Any) -> Any:
            s = seq(*a, **k) if seq else "-"
            mark(event + "0", s)
            try:
                return await f(*a, **k)
            finally:
                mark(event + "1", s)

        setattr(cls, name, g)
    else:

        @functools.wraps(f)
        def h(*a: Any, **k: Any) -> Any:
            s = seq(*a, **k) if seq else "-"
            mark(event + "0", s)
            try:
                return f(*a, **k)
            finally:
                mark(event + "1", s)

        setattr(cls, name, h)


wrap(Net, "handle", "handle", lambda _s, _fp, _l, msg: seq_of(msg["raw"]) if msg.get("k") == "entry" else msg["k"])
wrap(Intake, "_take_entry", "take", lambda _s, e, **_k: e.seq)
wrap(LogStore, "check_entry", "check", lambda _s, e, **_k: e.seq)
wrap(LogStore, "append", "append", lambda _s, raw, **k: f"{seq_of(raw)} durable={k.get('durable', True)}")
wrap(Machine, "fold", "fold", lambda _s, a: a.entry.seq)
wrap(Machine, "prepare_ahead", "prep")
wrap(Machine, "author_next", "author")
wrap(TablePeer, "decide", "decide")
wrap(TablePeer, "decide_window", "window")
_real_broadcast = Mesh.broadcast


async def _broadcast(self: Mesh, msg: dict[str, Any]) -> list[str]:
    if msg.get("k") == "entry":
        mark("bcast", seq_of(msg.get("raw")), "entry")
    else:
        mark("bcast", msg.get("seq", "-"), str(msg.get("k")))
    return await _real_broadcast(self, msg)


Mesh.broadcast = _broadcast  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
