"""Joint randomness from per-player hash chains, and unbiased derivations.

Each player draws a 32-byte seed ``link_L`` and builds ``link_i = hash32(BEACON_LINK, game_id,
u32(seat), link_{i+1})`` down to the head ``link_0``, which it publishes (signed) at genesis.
Pick k (k = 1..L) consumes link k of every player, revealed in any order; a revealed link is
checked by hashing it forward to the previously known link of that player. The pick output is
``hash32(BEACON, game_id, context, link_k(seat 0), ..., link_k(seat n-1))``.

Derivations from a pick output use a counter-mode expansion
``block_j = hash32(DERIVE, label, seed, u64(j))`` read as big-endian u64 words, with rejection
sampling (no modulo bias): ``uniform_int`` (label ``int``), ``permutation`` (label ``perm``,
Fisher-Yates), ``sample`` (label ``sample``, partial Fisher-Yates).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterator, Sequence

from . import domains
from .errors import BeaconError, MalformedEncoding
from .hashing import hash32, hash32_prefixed, u32, u64

LINK_LEN = 32
MAX_CHAIN = 1 << 20


def next_link(game_id: bytes, seat: int, link: bytes) -> bytes:
    """The link that precedes ``link`` in the chain (the hash step)."""
    return hash32(domains.BEACON_LINK, game_id, u32(seat), link)


def _stepper(game_id: bytes, seat: int) -> Callable[[bytes], bytes]:
    """``next_link`` for one game and seat, with the fixed part of its input hashed once (a chain is thousands of
    steps: framing and hashing the game id and seat at every step was most of its cost)."""
    start = hash32_prefixed(domains.BEACON_LINK, game_id, u32(seat))
    size = LINK_LEN.to_bytes(4, "big")  # frame(link) for a 32-byte link

    def step(link: bytes) -> bytes:
        h = start.copy()
        h.update(size)
        h.update(link)
        return h.digest()

    return step


class BeaconChain:
    """A player's secret hash chain. ``head`` is public from genesis; ``link(k)`` is revealed at pick k."""

    __slots__ = ("_links", "game_id", "seat")

    def __init__(self, game_id: bytes, seat: int, seed: bytes, length: int) -> None:
        if type(seed) is not bytes or len(seed) != LINK_LEN:
            raise MalformedEncoding("beacon seed: expected 32 bytes")
        if not 1 <= length <= MAX_CHAIN:
            raise ValueError("beacon chain length out of range")
        self.game_id, self.seat = game_id, seat
        step = _stepper(game_id, seat)
        links = [seed]
        for _ in range(length):
            links.append(step(links[-1]))
        links.reverse()
        self._links = links  # _links[k] = link_k, _links[0] = head, _links[length] = seed

    @classmethod
    def generate(cls, game_id: bytes, seat: int, length: int) -> BeaconChain:
        return cls(game_id, seat, secrets.token_bytes(LINK_LEN), length)

    @property
    def length(self) -> int:
        return len(self._links) - 1

    @property
    def head(self) -> bytes:
        return self._links[0]

    def link(self, k: int) -> bytes:
        if not 1 <= k <= self.length:
            raise BeaconError(f"pick {k} beyond the chain length {self.length}", seat=self.seat)
        return self._links[k]

    def __repr__(self) -> str:
        return f"BeaconChain(seat={self.seat}, length={self.length}, <secret>)"


def verify_link(game_id: bytes, seat: int, known: bytes, link: bytes, steps: int = 1) -> None:
    """Check that hashing ``link`` forward ``steps`` times gives ``known``; else :class:`BeaconError`."""
    if type(link) is not bytes or len(link) != LINK_LEN:
        raise BeaconError("revealed beacon link is not 32 bytes", seat=seat)
    if not 1 <= steps <= MAX_CHAIN:
        raise BeaconError("beacon link steps out of range", seat=seat)
    x = link
    step = _stepper(game_id, seat)
    for _ in range(steps):
        x = step(x)
    if not hmac.compare_digest(x, known):
        raise BeaconError("revealed beacon link does not hash to the previous link", seat=seat)


def combine(game_id: bytes, context: bytes, links: Sequence[bytes]) -> bytes:
    """The pick output from every player's link for this pick, in seat order."""
    for seat, link in enumerate(links):
        if type(link) is not bytes or len(link) != LINK_LEN:
            raise BeaconError("beacon link is not 32 bytes", seat=seat)
    return hash32(domains.BEACON, game_id, context, *links)


class BeaconTracker:
    """Public beacon state: every player's latest verified link and its index."""

    def __init__(self, game_id: bytes, heads: Sequence[bytes], length: int = MAX_CHAIN) -> None:
        for seat, h in enumerate(heads):
            if type(h) is not bytes or len(h) != LINK_LEN:
                raise BeaconError("beacon head is not 32 bytes", seat=seat)
        self.game_id = game_id
        self.length = length
        self._known: list[tuple[int, bytes]] = [(0, h) for h in heads]
        self._revealed: dict[int, dict[int, bytes]] = {}

    def reveal(self, seat: int, k: int, link: bytes) -> None:
        """Accept seat's link for pick k (k greater than its last revealed index)."""
        if not 0 <= seat < len(self._known):
            raise BeaconError("unknown seat", seat=seat)
        if not 1 <= k <= self.length:
            raise BeaconError(f"pick {k} outside the chain length {self.length}", seat=seat)
        idx, known = self._known[seat]
        if k <= idx:
            if self._revealed.get(k, {}).get(seat) == link:
                return
            raise BeaconError(f"link for pick {k} already revealed or superseded", seat=seat)
        if type(link) is not bytes or len(link) != LINK_LEN:
            raise BeaconError("revealed beacon link is not 32 bytes", seat=seat)
        chain = [link]  # link_k, link_{k-1}, ..., must end at the known link_idx
        for _ in range(k - idx):
            chain.append(next_link(self.game_id, seat, chain[-1]))
        if not hmac.compare_digest(chain[-1], known):
            raise BeaconError(f"revealed link for pick {k} does not hash to the previous link", seat=seat)
        for back, lk in enumerate(chain[:-1]):  # links skipped over are now known too
            self._revealed.setdefault(k - back, {})[seat] = lk
        self._known[seat] = (k, link)

    def ready(self, k: int) -> bool:
        return len(self._revealed.get(k, {})) == len(self._known)

    def missing(self, k: int) -> list[int]:
        got = self._revealed.get(k, {})
        return [s for s in range(len(self._known)) if s not in got]

    def pick(self, k: int, context: bytes) -> bytes:
        got = self._revealed.get(k, {})
        missing = self.missing(k)
        if missing:
            raise BeaconError(f"pick {k} still waits for seats {missing}", seat=missing[0])
        return combine(self.game_id, context, [got[s] for s in range(len(self._known))])


def _words(seed: bytes, label: bytes) -> Iterator[int]:
    if type(seed) is not bytes or len(seed) < 16:
        raise MalformedEncoding("derivation seed: expected at least 16 bytes")
    j = 0
    while True:
        block = hash32(domains.DERIVE, label, seed, u64(j))
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        j += 1


def _below(words: Iterator[int], n: int) -> int:
    """Uniform in [0, n) by rejection sampling 64-bit words."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def uniform_int(seed: bytes, n: int) -> int:
    """Uniform integer in [0, n), n in [1, 2^64)."""
    if type(n) is not int or not 1 <= n < 1 << 64:
        raise ValueError("n must be in [1, 2^64)")
    return _below(_words(seed, b"int"), n)


def permutation(seed: bytes, n: int) -> list[int]:
    """Uniform permutation of range(n) (Fisher-Yates: for i = n-1..1 swap i with uniform j <= i)."""
    if type(n) is not int or not 0 <= n < 1 << 32:
        raise ValueError("n must be in [0, 2^32)")
    words = _words(seed, b"perm")
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def sample(seed: bytes, n: int, k: int) -> list[int]:
    """k distinct integers of range(n), uniformly, in draw order (partial Fisher-Yates from the front)."""
    if type(n) is not int or type(k) is not int or not 0 <= k <= n < 1 << 32:
        raise ValueError("need 0 <= k <= n < 2^32")
    words = _words(seed, b"sample")
    pool = list(range(n))
    for i in range(k):
        j = i + _below(words, n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]
