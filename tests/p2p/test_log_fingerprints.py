"""Seeded table games, pinned byte for byte: the same seed must write the very same log.

Every secret of a seeded test game comes from its seed (`support.seeds`: identities, game id, deck keys, beacon
seeds, shuffles, Hacker rolls; Classified's answer proofs: from the table's proof seed); the rest of the table's
randomness (proof nonces, commitment salts and blinds
through `secrets.token_bytes`, the private boxes' nonces through `nacl.public.random`) this test draws from a
seeded stream. A refactor that changes no behaviour keeps these hashes; a change of the protocol, a rule or a bot
changes them: regenerate them then (print `_fingerprint(...)` for each row) and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random
import secrets

import nacl.public
import pytest
from support.seeds import seeded_table

PINNED = [  # game, players, seed, LocalTable keywords, entries, sha256 of the framed log (first 16 hex digits)
    ("access-denied", 3, 1, {"profile": "classic"}, 128, "67293be340e412a8"),
    ("access-denied", 2, 2, {"profile": "two-player", "bots": "random,deduction"}, 604, "1cf68dbfee2cf2d5"),
    ("hacker", 3, 1, {"profile": "basic", "bots": "planner"}, 1339, "78db258fb6236aed"),
    ("hacker", 4, 4, {"profile": "advanced", "bots": "random,planner"}, 2637, "768839badb574074"),
    ("classified", 2, 3, {"profile": "standard", "bots": "random"}, 61, "bb100c33c54ad2bc"),
    ("classified", 2, 3, {"profile": "four-card", "bots": "random,deduction"}, 71, "4d387e75c85db63f"),
]


def _fingerprint(monkeypatch: pytest.MonkeyPatch, game: str, n: int, seed: int, kw: dict) -> tuple[int, str]:
    stream = random.Random(f"log fingerprint {seed}")
    monkeypatch.setattr(secrets, "token_bytes", lambda k=32: stream.randbytes(k))
    monkeypatch.setattr(nacl.public, "random", lambda k=32: stream.randbytes(k))  # the private boxes' nonces
    t = seeded_table(n, seed, game=game, **kw)
    t.run()
    framed = b"".join(len(r).to_bytes(4, "big") + r for r in t.raws)
    return len(t.raws), hashlib.sha256(framed).hexdigest()[:16]


@pytest.mark.parametrize("game, n, seed, kw, entries, digest", PINNED)
def test_seeded_logs_are_unchanged(
    monkeypatch: pytest.MonkeyPatch, game: str, n: int, seed: int, kw: dict, entries: int, digest: str
) -> None:
    assert _fingerprint(monkeypatch, game, n, seed, kw) == (entries, digest)
