"""Every secret of a test game from one table seed: identities, the game id, each seat's deck key and beacon seed,
and (through `seeded`) every shuffle. The in-process zoo table (`_zoo.Table`) and the networked one (`_net`) draw
them in the same order, so one seed gives the same game in both, and a seed where a cheater found its chance in
process gives it the same chance over the network. Test-only: real peers draw every secret from the OS."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.deck import Share, ShuffleWitness, apply_shuffle, encode_deck
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Machine, SeatSecrets
from adp2p.p2p.machine.dealer import Dealer, Dealing
from adp2p.p2p.peer import TablePeer
from adp2p.p2p.peer.draws import Draws
from adp2p.p2p.protocol import Genesis
from adp2p.p2p.roster import Terms, game_id_of, roster_digest, statement
from nacl.bindings import crypto_core_ed25519_scalar_reduce as scalar_reduce


@dataclass
class Seeds:
    rng: random.Random  # after the draws below: the shuffles
    ids: list[SecretIdentity]  # in seat order (the roster is sorted by signing key)
    game_id: bytes
    secrets: list[SeatSecrets]
    cheaters: set[int] = field(default_factory=set)  # the seats that cheat (the networked table's peers ask)


def draw(n: int, seed: int) -> Seeds:
    rng = random.Random(seed)
    ids = sorted(
        (SecretIdentity.from_seeds(rng.randbytes(32), rng.randbytes(32)) for _ in range(n)),
        key=lambda s: s.public.sign_pk,
    )
    gid = rng.randbytes(16)
    secrets = [SeatSecrets(i, ids[i], scalar_reduce(rng.randbytes(64)), rng.randbytes(32)) for i in range(n)]
    return Seeds(rng, ids, gid, secrets)


def lobby_game_id(
    seeds: Seeds, *, table: str, game: str, profile: str, round_limit: int | None, goal: int | None = None,
    stalemate: int | None = None,
) -> bytes:
    """The game id a networked lobby of these seeded peers derives (p2p/roster.py): each seat, named p0, p1, ...,
    agrees once (turn 1) with the seeds' game id as its nonce (`SeededDraws`). An in-process game meant to repeat a
    networked one (the zoo's `first_chance` for `_net`) plays under this id."""
    n = len(seeds.ids)
    terms = Terms(table, game, profile, goal, round_limit, stalemate, n)
    digest = roster_digest(terms, [make_bundle(seeds.ids[i], f"p{i}") for i in range(n)])
    nonce = seeds.game_id
    rows = [(1, nonce, ident.sign(domains.ROSTER_AGREE, statement(digest, 1, nonce))) for ident in seeds.ids]
    return game_id_of(digest, rows)


class SeededDealer(Dealer):
    """A dealer whose shuffle steps draw their permutation and re-masking scalars from the table's rng, and whose
    private rolls come from the game (itself from the table seed); its shares are those of the dealer it wraps (the
    machine's own, or a cheater's)."""

    def __init__(self, rng: random.Random, inner: Dealer) -> None:
        self.rng, self.inner = rng, inner

    def shuffle(self, fold: Dealing, deck: list[Any]) -> tuple[list[Any], ShuffleWitness]:
        perm = list(range(len(deck)))
        self.rng.shuffle(perm)
        w = ShuffleWitness(perm, [scalar_reduce(self.rng.randbytes(64)) for _ in deck])
        out = apply_shuffle(deck, fold.joint_pk, w)
        fold.own_shuffle = (encode_deck(out), out)  # as the Dealer's: its own output is not re-checked
        return out, w

    def shares(self, fold: Dealing) -> dict[str, Any]:
        return self.inner.shares(fold)

    def share(self, fold: Dealing, h: int, ct: Any, mode: str) -> Share:
        return self.inner.share(fold, h, ct, mode)

    def draw_secret(self, fold: Dealing, what: str, index: int) -> bytes | None:
        """A Hacker seat's private roll from the game (itself from the table seed): the dice decide the game's
        course, so a seeded game repeats only if they do."""
        assert fold.me is not None and what == "roll"
        seed = b"test roll" + fold.game_id + bytes([fold.me.seat]) + index.to_bytes(8, "big")
        return hashlib.blake2b(seed).digest()[:32]


MakeMachine = Callable[[Genesis, SeatSecrets | None], Machine]


def seeded(make: MakeMachine, rng: random.Random) -> MakeMachine:
    """Makes the folds of `make` (`Machine`, a cheater, any callable with Machine's arguments) with their shuffles from
    `rng` (a `SeededDealer` around the fold's own dealer) and their proofs derandomised (from the witness and the
    statement): reproducible logs."""

    def seeded_machine(genesis: Genesis, me: SeatSecrets | None) -> Machine:
        m = make(genesis, me)
        m.dealer = SeededDealer(rng, m.dealer)
        m.proof_seed = bytes(32)
        return m

    return seeded_machine


class SeededDraws(Draws):
    """A peer's draws from `seeds`: its game id (if it authors the genesis) and its seat's secrets."""

    def __init__(self, seeds: Seeds) -> None:
        self.seeds = seeds

    def game_id(self) -> bytes:
        return self.seeds.game_id

    def seat_secrets(self, seat: int, identity: SecretIdentity, game_id: bytes) -> SeatSecrets:
        s = self.seeds.secrets[seat]
        return SeatSecrets(seat, identity, s.deck_secret, s.beacon_seed)


def seeded_peer(cls: type[TablePeer], seeds: Seeds) -> Callable[..., TablePeer]:
    """Makes `cls` (a TablePeer or an attacker) drawing its secrets from `seeds` and shuffling with `seeds.rng`; call
    it with a TablePeer's arguments, `identity=seeds.ids[seat]` and a seeded bot."""

    def make(*args: Any, **kw: Any) -> TablePeer:
        return cls(*args, draws=SeededDraws(seeds), machine_class=seeded(cls.machine_class, seeds.rng), **kw)

    return make


def seeded_table(n: int, seed: int, **kw: Any) -> LocalTable:
    """An honest in-process `LocalTable` whose secrets, shuffles and bots all come from `seed` (keyword
    arguments go to LocalTable: profile, round_limit, bots...)."""
    s = draw(n, seed)
    return LocalTable(n, seed=seed, secrets=s.secrets, game_id=s.game_id, machine=seeded(Machine, s.rng), **kw)
