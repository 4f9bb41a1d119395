"""Malformed table messages for fuzzing a live peer (tests/p2p/test_table_bad_input.py, benchmarks/bench_fuzz_net.py):
each is a real message (lobby, entry, head, get) with one field replaced by a random value, removed, added or, for
bytes, flipped, cut or lengthened; or a message of an unknown kind. Seeded: `junk(random.Random(seed), real)`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random msgpack value: scalars of every type (booleans, huge and negative integers, floats), nested
    lists and maps."""
    r = rng.random()
    if depth < 4 and r < 0.12:
        return [value(rng, depth + 1) for _ in range(rng.randrange(6))]
    if depth < 4 and r < 0.2:
        return {rng.choice(["k", "raw", "seq", "id", "from", "x", ""]): value(rng, depth + 1) for _ in range(3)}
    return rng.choice(
        [None, True, False, 0, 1, -1, 2**63, -(2**63), 2**64 - 1, 1.5, float("nan"), float("inf"),
         rng.randrange(-5000, 5000), rng.randbytes(rng.choice([0, 1, 31, 32, 33, 200])), "", "entry",
         "a" * rng.randrange(300)]
    )  # fmt: skip


def _bend(rng: random.Random, b: bytes) -> bytes:
    how = rng.randrange(4)
    if how == 0 and b:
        i = rng.randrange(len(b))
        return b[:i] + bytes([b[i] ^ (1 << rng.randrange(8))]) + b[i + 1 :]
    if how == 1:
        return b[: rng.randrange(len(b) + 1)]
    if how == 2:
        return b + rng.randbytes(rng.randrange(1, 64))
    return rng.randbytes(len(b))


def junk(rng: random.Random, real: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Endless malformed variants of the messages in `real`."""
    while True:
        msg = dict(rng.choice(real))
        how = rng.randrange(6)
        key = rng.choice(sorted(msg))
        if how == 0:
            msg[key] = value(rng)
        elif how == 1:
            del msg[key]
        elif how == 2:
            msg[rng.choice(["x", "extra", "k2", "peers", "raw"])] = value(rng)
        elif how == 3 and any(isinstance(v, bytes) for v in msg.values()):
            key = rng.choice([k for k, v in msg.items() if isinstance(v, bytes)])
            msg[key] = _bend(rng, msg[key])
        elif how == 4:
            msg["k"] = rng.choice(["lobby", "entry", "head", "get", "bye", "", "ENTRY", 3, None, b"entry"])
        else:
            msg = {"k": rng.choice(["entry", "head", "get", "lobby"]), **{key: value(rng)}}
        yield msg
