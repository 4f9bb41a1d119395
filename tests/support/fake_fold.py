"""A fake fold of plain values: the members of `Fold` (p2p/machine/game_part.py) a game's table part may read and
call, with nothing behind them, so that a part is tested alone (tests/games/<game>/)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from adp2p.crypto.errors import CryptoError


@dataclass
class FakeFold:
    game: Any = None
    n: int = 3
    seat: int | None = None
    me: Any = None
    game_id: bytes = bytes(range(16))
    ids: list[Any] = field(default_factory=list)
    version: int = 5
    table: Any = None
    state: Any = None
    entries: int = 1
    keys: list[Any] = field(default_factory=list)
    hmap: dict[int, Any] = field(default_factory=dict)
    shares: dict[int, dict[int, Any]] = field(default_factory=dict)
    deck_key: Any = None
    round: Any = None
    openings_shown: dict[int, tuple[int, bytes]] = field(default_factory=dict)
    sources: list[tuple[int, int | None]] = field(default_factory=list)
    revealed: dict[int, dict[str, Any]] = field(default_factory=dict)
    proof_seed: bytes | None = None
    finished: bool = False
    certs: dict[int, list[Any]] = field(default_factory=dict)  # what `cert` hands out: handle -> a certificate
    proof_checks: list[Any] = field(default_factory=list)  # the functions `proof_check` was asked to run

    def duty(self) -> Any:
        return None

    def cert(self, h: int) -> list[Any] | None:
        return self.certs.get(h)

    def box_viewer(self) -> int | None:
        return None

    def open_box(self, sender: int, viewer: int, ctx: bytes, box: bytes) -> bytes:
        raise CryptoError("a fake fold opens no box")

    def check_shares(self, seat: int, h: int, ct: Any, todo: list[Any]) -> None:
        pass

    def proof_check(self, fn: Any, *args: Any) -> None:
        self.proof_checks.append(fn)
        fn(*args)

    def draw_secret(self, what: str, index: int) -> bytes | None:
        return None


def seat_secrets(seat: int) -> SimpleNamespace:
    """What a part reads of a seat's secrets: its seat and its openings (kept by the part as it authors)."""
    return SimpleNamespace(seat=seat, openings={})
