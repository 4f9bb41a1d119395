"""The roster agreement before a networked genesis (docs/protocol.md, "Roster agreement").

Before a game begins, every player it seats agrees to exactly that roster under exactly those settings: a person
sees who is at the table (names, short key fingerprints, whether the table has a word) and confirms; a bot (or
`join --yes`) confirms by itself. An agreement is the player's signature (an `agree` message); the genesis carries
one from every seat, and its game id is derived from them. So:

- a genesis cannot seat a player that did not agree: a joiner checks every seat's signature, and takes only a
  genesis that carries its *own latest* agreement;
- one set of agreements makes one genesis (its body is determined by them and Ed25519 signatures are
  deterministic): the seat holding the pen cannot start two games from the same agreements;
- a seat that holds the table up — it is on this peer's roster and has not agreed to it, or it holds the pen (seat 0)
  and has not signed once everyone agreed — is passed over after `patience` seconds of holding it up *here*
  (counted in total: leaving and coming back does not restart it). This peer's next roster leaves it out, and the
  next seat in key order takes the pen. Only time that seat is the one the table waits for is counted, so a cheater
  cannot make an honest seat look slow; an honest peer that is passed over (a person who did not answer in time)
  simply finds the table gone on without it;
- an agreement carries its signer's turn (a count): a later one replaces an earlier one. A game whose genesis
  carries an earlier agreement of a seat that has not signed an entry in it is void once that seat's later
  agreement arrives (it moved on before the genesis reached it): the game ends there, naming nobody.

This module is the round's state and its checks (no I/O); the lobby (p2p/peer/lobby.py) drives it.
"""

from __future__ import annotations

import secrets as pysecrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adp2p.crypto import domains
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.hashing import hash32
from adp2p.crypto.identity import SecretIdentity, open_bundle
from adp2p.p2p.protocol import PROTOCOL_VERSION, Genesis

MAX_AGREEMENTS = 64  # players whose latest agreement a peer keeps (as many as it may meet in a lobby)
MAX_RELAYS = 16  # agreements of one signer a peer relays to the others (an honest one makes a few per lobby)
MIN_PATIENCE = 10.0  # seconds: a seat is never passed over sooner (a lobby on a loaded machine takes a few seconds
# to form; a shorter patience passed honest players over, whose views of the lobby had not met yet)
MAX_TICK = 1.5  # seconds one step of the round may charge: a peer that did not run for a while blames nobody


@dataclass(frozen=True)
class Terms:
    """What players agree to besides the roster: the game's settings at this table."""

    table: str
    game: str
    profile: str
    goal: int | None
    round_limit: int | None
    stalemate: int | None
    want: int
    version: int = PROTOCOL_VERSION

    @classmethod
    def of_genesis(cls, g: Genesis) -> Terms:
        return cls(g.table, g.game, g.profile, g.goal, g.round_limit, g.stalemate, len(g.roster), g.version)


@dataclass(frozen=True)
class Agreement:
    """One player's latest agreement: to `roster` (key fingerprints in seat order), its `turn`, `nonce` and `sig`."""

    roster: tuple[str, ...]
    turn: int
    nonce: bytes
    sig: bytes


def roster_digest(terms: Terms, bundles: Sequence[bytes]) -> bytes:
    """What the players of `bundles` (seat order) agree to: the settings and the roster, hashed."""
    def num(v: int | None) -> bytes:
        return (v or 0).to_bytes(4, "big")

    return hash32(
        domains.ROSTER,
        terms.version.to_bytes(2, "big"),
        terms.table.encode(),
        terms.game.encode(),
        terms.profile.encode(),
        num(terms.goal),
        num(terms.round_limit),
        num(terms.stalemate),
        num(terms.want),
        *bundles,
    )


def statement(digest: bytes, turn: int, nonce: bytes) -> bytes:
    """The bytes an agreement signs (after the domain ROSTER_AGREE)."""
    return digest + turn.to_bytes(4, "big") + nonce


def game_id_of(digest: bytes, agreed: Sequence[tuple[int, bytes, bytes]]) -> bytes:
    """A networked game's id: from what its seats agreed to and their agreements (16 bytes)."""
    return hash32(domains.ROSTER_GAME_ID, digest, *(t.to_bytes(4, "big") + n + s for t, n, s in agreed))[:16]


def genesis_mismatch(g: Genesis, mine: Agreement | None, my_fp: str) -> str | None:
    """Why a networked genesis is not the one its seats agreed to (None: it is): every seat's agreement must verify
    over this genesis's settings and roster, the game id must be the one they make, and if it seats us it must carry
    our own latest agreement (not one we have since replaced). In English (a detail for the log and the line)."""
    if not g.agreed:
        return "it carries no agreement of its players"
    digest = roster_digest(Terms.of_genesis(g), g.roster)
    ids = g.identities()
    for seat, (ident, (turn, nonce, sig)) in enumerate(zip(ids, g.agreed, strict=True)):
        try:
            ident.verify(domains.ROSTER_AGREE, statement(digest, turn, nonce), sig)
        except CryptoError:
            return f"seat {seat + 1} did not agree to this roster"
    if g.game_id != game_id_of(digest, g.agreed):
        return "its game id is not the one its seats' agreements make"
    for ident, (turn, nonce, _sig) in zip(ids, g.agreed, strict=True):
        if ident.fingerprint() == my_fp and (mine is None or (turn, nonce) != (mine.turn, mine.nonce)):
            return "it carries an agreement of ours that we have replaced since (we moved on)"
    return None


def moved_on(g: Genesis, seat: int, later: Agreement) -> bool:
    """Whether `later` (a verified agreement of `seat`) replaces the one the genesis carries for it."""
    return bool(g.agreed) and later.turn > g.agreed[seat][0]


class RosterRound:
    """This peer's side of the agreement round: its own agreement, the others' latest ones, and how long each seat
    has held the table up here."""

    def __init__(self, identity: SecretIdentity, terms: Terms, patience: float, *, nonce: bytes | None = None) -> None:
        self.identity = identity
        self.fp = identity.public.fingerprint()
        self.terms = terms
        self.patience = max(MIN_PATIENCE, patience)
        self.nonce = nonce or pysecrets.token_bytes(16)  # one per lobby: another game with the same keys, another id
        self.turn = 0
        self.mine: Agreement | None = None
        self.latest: dict[str, Agreement] = {}  # fingerprint -> its latest verified agreement (bounded)
        self.held: dict[str, float] = {}  # fingerprint -> seconds it held the table up here (bounded like latest)
        self.passed: set[str] = set()  # seats passed over: our rosters leave them out
        self.approved: set[str] = {self.fp}  # players our person confirmed (a bot confirms every roster)
        self._ticked: float | None = None

    def agree(self, roster: tuple[str, ...], bundles: Mapping[str, bytes]) -> dict[str, Any]:
        """Sign our agreement to `roster` (fingerprints in seat order); the message that tells the table."""
        self.turn += 1
        digest = roster_digest(self.terms, [bundles[f] for f in roster])
        sig = self.identity.sign(domains.ROSTER_AGREE, statement(digest, self.turn, self.nonce))
        self.mine = Agreement(roster, self.turn, self.nonce, sig)
        self.latest[self.fp] = self.mine
        return self.message()

    def message(self) -> dict[str, Any]:
        assert self.mine is not None
        a = self.mine
        return {"k": "agree", "by": self.fp, "roster": list(a.roster), "turn": a.turn, "nonce": a.nonce, "sig": a.sig}

    def take(self, msg: dict[str, Any], bundles: Mapping[str, bytes]) -> Agreement | None:
        """An `agree` message (schema checked; from its signer `by` or relayed, the signature tells): the agreement
        if it is news and verifies; None if it is ours, old, or names a player we never met (it is sent again every
        second). ValueError: not a valid agreement."""
        fp = msg["by"]
        roster = tuple(msg["roster"])
        if fp not in roster:
            raise ValueError("an agreement to a roster without its signer")
        if fp == self.fp:
            return None
        if any(f not in bundles for f in roster):
            return None
        prev = self.latest.get(fp)
        if prev is not None and msg["turn"] <= prev.turn:
            return None
        if prev is None and len(self.latest) >= MAX_AGREEMENTS:
            return None
        keys = [open_bundle(bundles[f])[0].sign_pk for f in roster]
        if keys != sorted(keys):
            raise ValueError("an agreement to a roster out of key order")
        digest = roster_digest(self.terms, [bundles[f] for f in roster])
        ident = open_bundle(bundles[fp])[0]
        try:
            ident.verify(domains.ROSTER_AGREE, statement(digest, msg["turn"], msg["nonce"]), msg["sig"])
        except CryptoError:  # forged, or made under other settings (a player who asked for other rules): ignored
            return None
        a = Agreement(roster, msg["turn"], msg["nonce"], msg["sig"])
        self.latest[fp] = a
        return a

    def needs_person(self, roster: tuple[str, ...]) -> bool:
        """Whether our person has yet to confirm a player of `roster`."""
        return not set(roster) <= self.approved

    def complete(self, roster: tuple[str, ...]) -> bool:
        """Every seat of `roster` (we too) agrees to it now."""
        return all((a := self.latest.get(f)) is not None and a.roster == roster for f in roster)

    def rows(self, roster: tuple[str, ...]) -> tuple[tuple[int, bytes, bytes], ...]:
        """The agreements a genesis for `roster` carries, in seat order (the roster must be complete)."""
        return tuple((a.turn, a.nonce, a.sig) for a in (self.latest[f] for f in roster))

    def genesis(self, roster: tuple[str, ...], bundles: Mapping[str, bytes]) -> Genesis:
        """The one genesis the agreements to `roster` make (its seat 0 signs it)."""
        t = self.terms
        rows = self.rows(roster)
        order = [bundles[f] for f in roster]
        return Genesis(
            t.table, t.profile, t.goal, t.round_limit, tuple(order),
            game_id_of(roster_digest(t, order), rows), stalemate=t.stalemate, game=t.game, agreed=rows,
        )

    def waiting_on(self, roster: tuple[str, ...]) -> list[str]:
        """The seats the table waits for, as this peer sees it: those who have not agreed to `roster`, or, when all
        have, its pen holder (seat 0) unless that is us. If `roster` seats us, only once we agreed to it ourselves
        (our own person's time blames nobody); if not, we watch it all the same (else a player the next roster
        seats would never pass the first one's pen holder over, and would itself be passed over for it)."""
        if self.fp in roster and (self.mine is None or self.mine.roster != roster):
            return []
        if self.complete(roster):
            return [roster[0]] if roster[0] != self.fp else []
        return [f for f in roster if f != self.fp and (f not in self.latest or self.latest[f].roster != roster)]

    def tick(self, now: float, roster: tuple[str, ...] | None) -> list[str]:
        """Charge the seats the table waits for with the time since the last tick (at most MAX_TICK: time this
        process did not run blames nobody); the seats whose total passed `patience`, now passed over."""
        dt = 0.0 if self._ticked is None else min(MAX_TICK, max(0.0, now - self._ticked))
        self._ticked = now
        out: list[str] = []
        for f in self.waiting_on(roster) if roster is not None else []:
            if f not in self.held and len(self.held) >= MAX_AGREEMENTS:
                continue
            self.held[f] = self.held.get(f, 0.0) + dt
            if self.held[f] >= self.patience and f not in self.passed:
                self.passed.add(f)
                out.append(f)
        return out
