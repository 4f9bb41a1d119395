"""How large a `secrets` entry may be: the most an honest seat can need, from what the log shows, plus margin.

A seat's end-of-game secrets are its deck and box secrets (fixed), one shuffle witness per pile it shuffled (and one a
verdict may have cut short), and its game's openings (`TablePart.secrets_game_bytes`: Access Denied's password
openings, Hacker's seals left unopened). A body larger than `secrets_bound` for its log is malformed, its author's
fault (p2p/machine/ending.py); an entry larger than `MAX_SECRETS_ENTRY` is dropped unread by every peer before any
fold (p2p/peer/common.py, `entry_fits`), like any other entry too large for the evidence about it: the evidence that
carries it in `raw` (with up to 128 KiB of certificates and a reason) must fit one 1 MiB frame at 640 KiB, and the
evidence about that evidence at 768 KiB. docs/protocol.md, "Entry bodies"; measured honest sizes: docs/security.md
(at most 46,399 bytes: Hacker, 6 players, no round limit, 25 piles; about 2.1 to 2.7 KB a reshuffled whole deck).
"""

from __future__ import annotations

MAX_SECRETS_ENTRY = 448 * 1024  # a whole signed secrets entry from the network, at most
BASE_BYTES = 512  # body keys, deck and box secrets (2 x 34), list headers: ~120 bytes; a seat's honest body, no piles
WITNESS_SLACK = 32  # a witness item's headers: [pile, bin] (1 + 5 + 5), the witness's [1, [perm], bin] (1 + 1 + 3 + 5)


def witness_bytes(cards: int) -> int:
    """A `[pile, witness]` item of a pile of `cards` at most: each position a permutation entry (< 1024: at most 3
    bytes of msgpack) and a 32-byte scalar."""
    return 35 * cards + WITNESS_SLACK


def secrets_bound(piles: int, deck_size: int, game_bytes: int) -> int:
    """The largest secrets body an honest seat sends after `piles` shuffled piles (none larger than the deck), with
    its game's openings at most `game_bytes`."""
    return BASE_BYTES + (piles + 1) * witness_bytes(deck_size) + game_bytes
