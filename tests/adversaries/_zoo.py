"""The adversary zoo's table: `p2p.local.LocalTable` (N game machines in one process, fed one signed entry at a
time through the real entry codec and signatures: the real protocol minus sockets; its log can be audited
offline by `p2p.audit`) with cheaters among the seats, and what peers do about them: an entry signed by another
key than its author's is dropped (`forged_from` notes the seat it came from); an entry an honest machine rejects
is not appended, and the first honest rejecter posts it as an EVIDENCE entry, which every machine verifies
(`rejected` says who rejected the last bad entry and why); a cheater's own machine rejecting its lie does not
stop it, and only honest machines post the evidence their immediate checks found; a seat that stays silent on
its duty ends the game as abandoned (`abandoned`).

Cheaters are small Machine subclasses (below): each cheats in one way, once, and records the seq of its cheat. A
cheater changes the fold only through the seams `Machine` gives, objects it holds that the cheater replaces, and
overrides none of its methods (tests/test_architecture.py): what it sends is its `author` (a `Machine.author`:
`Blind.Author` sends its `lie` in place of the bot's choice; a subclass's `Author` wraps its parent's), its shuffles and
shares its `dealer`, how its own moves are judged its `referee`, and a lie about the game's own committed secrets is a
piece of the game's table part replaced (`part_factory`: e.g. `AccessDeniedPart(answers=ForgingAnswers)`). Each of
these is called with the cheater's machine as its fold, and reads its state there (`cheat_seq`, `cheated()`, `lie`).
Some cheats need the others to ask something of the cheater: `DumpsterDiver` (a bot wrapper; `Table(dumpster_at=)`)
makes every other seat play Dumpster Diving against the cheater's sector whenever it can, so that the cheater must
show one of its password cards.
"""

from __future__ import annotations

import copy
import hashlib
import os
from typing import Any

import pytest
from adp2p.crypto import card_link
from adp2p.crypto.code_proofs import (
    Commitments,
    PasswordOpening,
    ProofContext,
    commit_codes,
    encode_commitments,
    password_commitments,
    pedersen_commit,
    prove_distinct,
)
from adp2p.crypto.deck import Ciphertext, Share, ShuffleWitness, decode_deck, encode_deck, shuffle
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.group import add, base_mul, mul, random_scalar, scalar_from_int
from adp2p.crypto.private import seal_private
from adp2p.crypto.shuffle_proof import ShuffleContext, prove_shuffle
from adp2p.engine.access_denied.catalog import card
from adp2p.engine.access_denied.state import GameState
from adp2p.games.access_denied.answers import PURPOSE_PASSWORD, Answers, answer_context, attempt_of
from adp2p.games.access_denied.links import Links
from adp2p.games.access_denied.part import AccessDeniedPart
from adp2p.p2p import local
from adp2p.p2p.game import DEFAULT_GAME, get_game
from adp2p.p2p.local import LocalTable
from adp2p.p2p.machine import Chooser, Duty, Machine, ProtocolError
from adp2p.p2p.machine.authoring import Author as HonestAuthor
from adp2p.p2p.machine.dealer import Dealer
from adp2p.p2p.machine.referee import Referee, Step
from adp2p.p2p.protocol import Kind
from seeds import draw, lobby_game_id, seeded

Event = dict[str, Any]
DUMPSTER_DIVING = next(f for f in range(63) if card(f).effect == "show_random_code")  # its one card in the deck


class DumpsterDiver:
    """A test bot: plays Dumpster Diving against a sector of seat `target` whenever it legally can (the
    controller must then show it one of the sector's password cards, chosen at random), and keeps the card for
    that: it never plays it elsewhere, nor hands, discards or locks it in a password while it has another
    choice. Every other decision is `inner`'s (the deduction bot). `dived` counts its Dumpster Divings."""

    def __init__(self, inner: Chooser, target: int) -> None:
        self.inner = inner
        self.target = target
        self.dived = 0

    def __call__(self, seen: GameState, seat: int, options: list[Event]) -> Event:
        for ev in options:
            if ev.get("t") == "play" and ev["face"] == DUMPSTER_DIVING and seen.controller[ev["s"]] == self.target:
                self.dived += 1
                return ev
        dd = {h for h in seen.hands[seat] if seen.faces.get(h) == DUMPSTER_DIVING}
        keep = [
            ev
            for ev in options
            if not dd & set(ev.get("cards") or []) and not (ev.get("t") in ("play", "trade") and ev["card"] in dd)
        ]
        return self.inner(seen, seat, keep or options)


def dumpster_dived(m: Machine, seq: int | None = None) -> bool:
    """Whether the last card played (in m's fold, before entry `seq`) is Dumpster Diving."""
    events = zip(m.events, m.sources, strict=True)
    plays = [ev for ev, (at, _) in events if ev.get("t") == "play" and (seq is None or at < seq)]
    return bool(plays) and plays[-1]["face"] == DUMPSTER_DIVING


def dumpster_shown(m: Machine) -> list[tuple[int, int]]:
    """(handle, seq) of every password card that Dumpster Diving made its controller show, in m's fold (the seq
    is the entry after which the random pick was derived)."""
    out: list[tuple[int, int]] = []
    diving = False
    for ev, (at, _) in zip(m.events, m.sources, strict=True):
        if ev.get("t") == "play":
            diving = ev["face"] == DUMPSTER_DIVING
        elif ev.get("t") == "random" and diving:
            out.append((ev["picks"][0], at))
            diving = False
    return out


def dumpster_chance(m: Machine, cheat_seq: int | None) -> bool:
    """Whether a cheat (at `cheat_seq`) concerns a password card Dumpster Diving made the cheater show, judged
    from an honest peer's fold `m`: the cheat is the showing itself (the last card played before it is Dumpster
    Diving), or the card shown is one the cheater committed falsely at `cheat_seq`."""
    if cheat_seq is None:
        return False
    shown = dumpster_shown(m)
    at_show = dumpster_dived(m, cheat_seq) and any(at < cheat_seq for _, at in shown)
    return at_show or any(m.part.records.committed.get(h, (None, None))[1] == cheat_seq for h, _ in shown)


class Repeatable:
    """A test bot: a uniformly random legal event, drawn from the decision itself (the table seed, the seat, how far
    the game has gone, the options) rather than from a stream. A peer may ask its bot more often than an in-process
    table does (a reaction window's look-ahead decides ahead as if the seats before it pass, and drops the answer
    when one acts; a decision cancelled when the game moved on is asked again): a streamed bot (`random`) then
    chooses differently from there on, and a networked game leaves the in-process one it was seeded to repeat, as
    the timing of the run decides. This one answers the same decision the same way however often it is asked."""

    def __init__(self, seed: int, seat: int) -> None:
        self.seed, self.seat = seed, seat

    def __call__(self, seen: Any, seat: int, options: list[Event]) -> Event:
        where = len(getattr(seen, "history", ()))  # (Hacker's engine history: one entry per event applied)
        key = repr((self.seed, self.seat, where, options)).encode()
        return options[int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % len(options)]


def make_bots(
    names: str, seed: int, n: int, dumpster_at: int | None = None, game: str = DEFAULT_GAME
) -> list[Chooser]:
    """The table's bots (`p2p.local.make_bots`: the strategies in turn, seeded from the table seed; `repeatable`:
    a `Repeatable` at every seat); with `dumpster_at`, every other seat is a `DumpsterDiver` against that seat."""
    if names == "repeatable":
        return [Repeatable(seed, i) for i in range(n)]
    bots = local.make_bots(names, seed, n, get_game(game))
    return [b if dumpster_at is None or i == dumpster_at else DumpsterDiver(b, dumpster_at) for i, b in enumerate(bots)]


class Table(LocalTable):
    """`LocalTable` with cheaters at the seats of `cheats` (see module docstring); off the honest path it does
    what peers do: a rejected entry is not appended, an honest rejecter posts it as evidence, and a seat silent on
    its duty ends the game (`abandoned`)."""

    def __init__(
        self,
        n: int,
        *,
        profile: str = "classic",
        round_limit: int | None = 12,
        seed: int = 1,
        cheats: dict[int, type[Machine]] | None = None,
        bots: str = "deduction",
        dumpster_at: int | None = None,
        game: str = DEFAULT_GAME,
        as_lobby: str | None = None,
    ) -> None:
        """`as_lobby`: the name of a table whose networked lobby this game repeats (its game id as the lobby derives
        it: `seeds.lobby_game_id`); None: the seeds' own game id."""
        # Every secret (identities, deck keys, beacon seeds, shuffles) comes from the seed, so a zoo game is
        # reproducible: the situation a cheater needs arises (or not) the same way on every run (and over the
        # network, see _net.py, where the peers draw the same secrets).
        seeds = draw(n, seed)
        cheats = cheats or {}
        self.cheaters = set(cheats)
        super().__init__(
            n,
            profile=profile,
            round_limit=round_limit,
            bots=make_bots(bots, seed, n, dumpster_at, game),
            secrets=seeds.secrets,
            game_id=seeds.game_id
            if as_lobby is None
            else lobby_game_id(seeds, table=as_lobby, game=game, profile=profile, round_limit=round_limit),
            machine=lambda g, s: seeded(cheats.get(s.seat, Machine), seeds.rng)(g, s),
            game=game,
        )
        self.rejected: list[tuple[int, ProtocolError]] = []  # (seat that rejected, why) of the last bad entry
        self.referee = min(set(range(n)) - self.cheaters)  # a cheater's machine may think the game goes on
        self.forged_from: int | None = None
        self.abandoned: int | None = None

    # -- entries -------------------------------------------------------------------------------------------
    def deliver(self, raw: bytes, via: int | None = None) -> bool:
        """Every machine checks the entry (signature and chain, then its rules); True if it was appended.
        A rejected entry is not appended: an honest rejecter posts it as evidence."""
        try:
            e = self.pipeline.check(raw, seq=len(self.raws), prev=self.head).entry
        except (CryptoError, IndexError):
            self.forged_from = via  # nobody can be blamed by the signature: the connection it came on is noted
            return False
        # only sealed items can be accepted by some peers and rejected by others: snapshot for share cheaters
        # (and events whose lie only a peer knowing a hidden face can see)
        risky = e.author in self.cheaters and (
            e.kind == Kind.EVENT or (e.kind == Kind.SHARES and getattr(self.ms[e.author], "bad_shares", False))
        )
        snaps = [m.snapshot() for m in self.ms] if risky else None
        self.rejected = []
        for seat, m in enumerate(self.ms):
            try:
                self.fold(m, raw)
            except ProtocolError as exc:
                self.rejected.append((seat, exc))
        if all(s in self.cheaters for s, _ in self.rejected):  # a cheater's own machine does not block others
            self.append(e)
            return True
        if snaps is not None:
            self.ms = snaps
        accuser = next((s for s, _ in self.rejected if s not in self.cheaters and s != e.author), None)
        if accuser is not None and e.kind != Kind.EVIDENCE:
            self.post_evidence(accuser, self.ms[accuser].evidence_for_entry(raw, dict(self.rejected)[accuser]))
        return False

    def evidence(self) -> tuple[int, dict[str, Any]] | None:
        """The first honest machine's evidence (a cheater's machine may hold some against its own lie: it keeps
        quiet)."""
        found = ((s, m.pending_evidence()) for s, m in enumerate(self.ms) if s not in self.cheaters)
        return next(((s, ev) for s, ev in found if ev is not None), None)

    def silent(self, d: Duty) -> bool:
        """Silent on its duty: the lowest other seat writes the abandon entry naming it, and the game ends."""
        self.abandoned = d.seat
        author = next(s for s in range(self.n) if s != d.seat and s not in self.cheaters)
        self.deliver(self.sign(author, Kind.ABANDON, {"silent": d.seat, "seq": len(self.raws)}))
        return False

    def post(self, seat: int, kind: Kind, body: dict[str, Any], *, author_seconds: float = 0.0) -> bool:
        """A forger first sends an entry in the next seat's name signed with its own key; an equivocator signs a
        second body for the same seq, and an honest peer that sees both posts them as evidence."""
        m = self.ms[seat]
        forged = getattr(m, "forge", None)
        if forged is not None:
            m.forge = None  # type: ignore[attr-defined]
            self.deliver(self.sign((seat + 1) % self.n, *forged, key=self.ids[seat]), via=seat)
        other = getattr(m, "extra_entry", None)
        if other is None:
            return super().post(seat, kind, body, author_seconds=author_seconds)
        m.extra_entry = None  # type: ignore[attr-defined]
        a, b = self.sign(seat, kind, body), self.sign(seat, kind, other)
        self.deliver(a)  # the log holds a; one peer was sent b and sees both when the entries are gossiped
        witness = next(s for s in range(self.n) if s != seat and s not in self.cheaters)
        self.post_evidence(witness, {"what": "equivocation", "a": a, "b": b})
        return True

    # -- results -------------------------------------------------------------------------------------------
    def verdict_seats(self) -> set[int | None]:
        return {m.verdict.seat for m in self.ms if m.verdict is not None and m.seat not in self.cheaters}


DUMPSTER_PLAYERS = 5
DUMPSTER_SEEDS = range(3, 10)  # with 5 players, seeds 3, 4, 6-9, 11, 12 and 14 of 1-15 give the chance


def first_chance(cls: type[Machine], seat: int, n: int = 3, tries: int = 25, **kw: Any) -> tuple[int, Table]:
    """The first table seed (tries of them, from the cheater's `chance_from`) where the cheater `cls` at `seat`
    finds its chance, and that finished table; fails the test when no seed gave it."""
    start = getattr(cls, "chance_from", 1)
    for seed in range(start, start + tries):
        t = Table(n, seed=seed, cheats={seat: cls}, **kw).run()
        if getattr(t.ms[seat], "cheat_seq", None) is not None:
            return seed, t
    pytest.fail(f"{cls.__name__} found no chance to cheat in {tries} seeded games: pick other seeds")


def dumpster_game(cls: type[Machine], **kw: Any) -> tuple[int, Table] | None:
    """The first seeded game (DUMPSTER_PLAYERS, DUMPSTER_SEEDS) where Dumpster Diving makes the cheater `cls`
    show a password card it lies about: it sits at seat 0 (the lowest, so it supplies the certificate of its own
    password card, and the opening) and every other seat plays Dumpster Diving against its sector whenever it
    can. Returns (seed, finished table), or None when no seed gave the chance."""
    for seed in DUMPSTER_SEEDS:
        t = Table(DUMPSTER_PLAYERS, seed=seed, cheats={0: cls}, dumpster_at=0, **kw).run()
        if dumpster_chance(t.ms[1], getattr(t.ms[0], "cheat_seq", None)):
            return seed, t
    return None


# ======================================================================================================
# cheaters


class BlindReferee(Referee):
    """A cheater's referee judges its own moves as the other peers can (public faces only), so that a lie the others
    cannot see at once does not stop the liar's own machine; it still knows its faces for choosing."""

    def judge(self, fold: Any, seat: int | None, ev: Event, step: Step) -> None:
        before = fold.state  # left as it is: the checks after the engine (answer proofs) read its faces
        private = before.faces
        fold.state = copy.copy(before)
        fold.state.faces = {h: f for h, f in private.items() if before.known.get(h, 0) == before.all_mask}
        try:
            step(seat, ev)
        except BaseException:
            fold.state = before
            raise
        for h, f in private.items():
            fold.state.faces.setdefault(h, f)


class Blind(Machine):
    """A cheater whose engine judges its own moves as the other peers can (`BlindReferee`)."""

    cheat_seq: int | None = None
    referee = BlindReferee()

    def cheated(self) -> None:
        if self.cheat_seq is None:
            self.cheat_seq = self.entries

    class Author(HonestAuthor):
        """Sends the fold's `lie` in place of its bot's choice, once; honest otherwise."""

        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.seat == fold.seat and d.kind == Kind.EVENT and fold.cheat_seq is None:
                seen = fold.game.view(fold.state, d.seat)
                ev = fold.lie(seen, d.seat, fold.game.legal(seen, d.seat), d.what)
                if ev is not None:
                    fold.cheated()
                    return super().author_next(fold, lambda *_: ev)
            return super().author_next(fold, choose)

    author = Author()

    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        return None


class FacesBackReferee(BlindReferee):
    """`BlindReferee`, whose faces also go back into a Hacker engine after each step."""

    def judge(self, fold: Any, seat: int | None, ev: Event, step: Step) -> None:
        super().judge(fold, seat, ev, step)
        fold.state.faces = dict(fold.state.faces)  # (through the setter: a TableState's engine knows them again)


class SeesOwnFaces(Blind):
    """`Blind`, whose faces also go back into a Hacker engine after each step. `Blind` puts them back into the
    state's `faces`; a Hacker `TableState` keeps its engine's faces apart (its `faces` setter fills both), so there
    the engine, the seat's view and its bot were left without a private face: the bot chose blind to its own hand (it
    kept back cards it must lay), and a cheater's `lie` never saw what it looked for."""

    referee = FacesBackReferee()


def ad_part(**pieces: Any) -> Any:
    """A `part_factory` for a cheater: Access Denied's table part with these pieces replaced."""
    return staticmethod(lambda game: AccessDeniedPart(**pieces))


class ForgingAnswers(Answers):
    def prove_answer(self, fold: Any, cs: Any, op: Any, x: int, matched: bool, ctx: Any) -> bytes:
        if (x in op.codes) == matched:
            return super().prove_answer(fold, cs, op, x, matched, ctx)
        other = next(c for c in range(6) if (c in op.codes) == matched)
        return super().prove_answer(fold, cs, op, other, matched, ctx)


class ForgesAnswerProofs(Blind):
    """A controller that lies about an answer cannot prove it: it sends, for each handed card it lies about, the
    valid proof of its claim about ANOTHER code (a true statement it can prove), the best forgery it has."""

    part_factory = ad_part(answers=ForgingAnswers)


class DenyingController(ForgesAnswerProofs):
    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        if what == "answer" and options and any(options[0]["match"]):
            m = list(options[0]["match"])
            m[m.index(True)] = False
            return {"t": "answer", "p": p, "match": m}
        return None


class GrantingController(ForgesAnswerProofs):
    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        if what == "answer" and options and not all(options[0]["match"]):
            return {"t": "answer", "p": p, "match": [True] * len(options[0]["match"])}
        return None


class JunkAnswers(Answers):
    def answer_fields(self, fold: Any, ev: Event) -> dict[str, Any]:
        out = super().answer_fields(fold, ev)
        if fold.cheat_seq is None:
            fold.cheated()
            att, _pw, _hs = attempt_of(fold.state)
            me = fold.me
            out["proof"] = seal_private(me.identity, fold.ids[att], answer_context(fold, me.seat, att), b"")
        return out


class UnprovenAnswer(Blind):
    """Answers truly, but seals junk to the attempter instead of its proofs (a box that opens to no proofs)."""

    part_factory = ad_part(answers=JunkAnswers)


class RepeatedCodePassword(Blind):
    """Sets a password with a repeated code; it cannot prove the codes distinct, so it sends the valid distinct
    proof of other commitments."""

    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        if what != "password":
            return None
        hand = seen.hands[p]
        for i, a in enumerate(hand):
            for b in hand[i + 1 :]:
                if card(seen.faces[a]).code == card(seen.faces[b]).code:
                    third = next(x for x in hand if x not in (a, b))
                    return {
                        "t": "password",
                        "p": p,
                        "s": options[0].get("s", seen.stack[-1].get("s")),
                        "cards": [a, b, third],
                    }
        return None

    class Pieces(Answers):
        def prove_distinct(self, fold: Any, cs: Any, op: Any, ctx: Any) -> bytes:
            if len(set(op.codes)) == 3:
                return super().prove_distinct(fold, cs, op, ctx)
            other_cs, other_op = commit_codes([0, 1, 2])
            return prove_distinct(other_cs, other_op, ctx)

    part_factory = ad_part(answers=Pieces)


class ForgingLinks(Links):
    def prove_link(
        self,
        fold: Any,
        c1: bytes,
        c2p: bytes,
        secret: bytes,
        commitment: bytes,
        code: int,
        blind: bytes,
        face: int,
        ctx: Any,
    ) -> bytes:
        true = card(face).code
        if commitment == pedersen_commit(true, blind):
            return super().prove_link(fold, c1, c2p, secret, commitment, code, blind, face, ctx)
        return super().prove_link(fold, c1, c2p, secret, pedersen_commit(true, blind), true, blind, face, ctx)


class ForgesLinkProofs(Blind):
    """A password whose Pedersen commitments are not its cards' codes has no link proof; the best a liar can send
    is the VALID link proof of a commitment to the card's true code (same blinding), which does not verify for the
    commitment it published."""

    part_factory = ad_part(links=ForgingLinks)


class FalseCommitment(ForgesLinkProofs):
    """Commits codes that are not its first password's codes (each one code further: three distinct codes, in
    the hash and the Pedersen commitments alike) and answers by those codes with valid answer proofs: a consistent
    liar that no answer proof can catch (its password is not its cards). Its link proof, due with its first answer
    about that password, cannot be made: it is named there (rule `password_link`)."""

    class Pieces(Answers):
        false_pw: frozenset[int] = frozenset()

        def committed_code(self, fold: Any, h: int) -> int:
            code = super().committed_code(fold, h)
            if fold.cheat_seq is None or h in self.false_pw:
                self.false_pw = self.false_pw | {h}
                return (code + 1) % 6
            return code

        def password_fields(self, fold: Any, handles: list[int]) -> dict[str, Any]:
            out = super().password_fields(fold, handles)
            if set(handles) <= self.false_pw:
                fold.cheated()
            return out

    part_factory = ad_part(answers=Pieces, links=ForgingLinks)

    class Author(ForgesLinkProofs.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.seat == fold.seat and d.kind == Kind.EVENT and d.what == "answer" and fold.me:
                me = fold.me
                _att, pw, hs = attempt_of(fold.state)
                said = {me.openings[h][0] for h in pw if h in me.openings}
                ev = {"t": "answer", "p": me.seat, "match": [card(fold.state.faces[h]).code in said for h in hs]}
                return HonestAuthor.author_next(self, fold, lambda *_: ev)
            return super().author_next(fold, choose)

    author = Author()


class OtherCardLink(FalseCommitment):
    """FalseCommitment that forges its link proof the other way: the Σ-protocol answered with the id of ANOTHER card
    that has the code it committed (the witness the statement would have if its card were that one; an honest
    prover refuses). The proof does not verify at any peer: named at its first answer (rule `password_link`)."""

    class OtherCardLinks(ForgingLinks):
        def prove_link(
            self,
            fold: Any,
            c1: bytes,
            c2p: bytes,
            secret: bytes,
            commitment: bytes,
            code: int,
            blind: bytes,
            face: int,
            ctx: Any,
        ) -> bytes:
            if commitment == pedersen_commit(card(face).code, blind):
                return super().prove_link(fold, c1, c2p, secret, commitment, code, blind, face, ctx)
            committed = next(c for c in range(6) if pedersen_commit(c, blind) == commitment)
            other = next(f for f in range(63) if f != face and card(f).code == committed)
            statement = (fold.table.id_base, base_mul(secret), c1, c2p, commitment)
            entropy = os.urandom(32)
            return card_link._prove(statement, secret, scalar_from_int(other + 1), blind, ctx.to_bytes(), entropy)

    part_factory = ad_part(answers=FalseCommitment.Pieces, links=OtherCardLinks)


class TwinMismatch(ForgesLinkProofs):
    """Its first password: hash commitments to its cards' true codes, but Pedersen twins (with the blindings derived
    from the same salts) to other codes, one further each (still three distinct codes, so its distinct proof
    verifies), and it answers by the twins with valid proofs. Its hash openings are true: an opening (a card shown
    in play, its `secrets`) opens the hash commitment and not the twin, which names it (rule `commitment`)."""

    bad_shares = True  # a card it shows carries an opening that only the learner can check

    class Pieces(Answers):
        twins: dict[int, int] | None = None  # password handle -> the code its Pedersen twin commits

        def password_fields(self, fold: Any, handles: list[int]) -> dict[str, Any]:
            out = super().password_fields(fold, handles)
            if fold.cheat_seq is not None or fold.me is None:
                return out
            self.twins = {h: (fold.me.openings[h][0] + 1) % 6 for h in handles}
            pw = (handles[0], handles[1], handles[2])
            cs, op = self.current_password(fold, pw)
            ctx = ProofContext(fold.game_id, fold.me.seat, pw, PURPOSE_PASSWORD, fold.entries)
            out["codes"], out["distinct"] = encode_commitments(cs), self.prove_distinct(fold, cs, op, ctx)
            fold.cheated()
            return out

        def current_password(self, fold: Any, pw: tuple[int, int, int]) -> tuple[Commitments, PasswordOpening]:
            twins = self.twins or {}
            if fold.me is None or not set(pw) <= set(twins):
                return super().current_password(fold, pw)
            return password_commitments(fold.game_id, pw, [(twins[h], fold.me.openings[h][1]) for h in pw])

    part_factory = ad_part(answers=Pieces, links=ForgingLinks)

    class Author(ForgesLinkProofs.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            twins = fold.part.answers.twins or {}
            if d is not None and d.seat == fold.seat and d.kind == Kind.EVENT and d.what == "answer" and fold.me:
                _att, pw, hs = attempt_of(fold.state)
                if set(pw) <= set(twins):
                    said = {twins[h] for h in pw}
                    match = [card(fold.state.faces[h]).code in said for h in hs]
                    ev = {"t": "answer", "p": fold.me.seat, "match": match}
                    return HonestAuthor.author_next(self, fold, lambda *_: ev)
            return super().author_next(fold, choose)

    author = Author()


class FalseFace(Blind):
    """Plays a card it holds but claims it is another card (one it could legally play)."""

    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        for ev in options:
            if ev.get("t") == "play" and ev.get("backdoor") is None:
                others = [h for h in seen.hands[p] if h != ev["card"] and seen.faces[h] != ev["face"]]
                if others:
                    return dict(ev, card=others[0])
        return None


def is_action(ev: Event) -> bool:
    """Whether ev, chosen in the Take Actions step, spends an action: an attempt, a trade or a card played that
    is not a reaction (a reaction costs none; Backdoor goes along with the card it opens)."""
    if ev.get("t") in ("attempt", "trade"):
        return True
    return ev.get("t") == "play" and not card(ev["face"]).is_reaction


class IgnoresHarm(Blind):
    """Holds a harmful card at the start of its turn and ignores it once: Trojan Horse ("no_attempts": attempts
    anyway), Worm ("no_draw": draws anyway) or Bug ("one_action": takes a second action anyway). Which of these
    it ignores is `ignores`; the param of the harm it ignored is `ignored`."""

    ignores: frozenset[str] = frozenset({"no_attempts", "no_draw"})
    ignored: str | None = None
    chance_from = 8  # seeds 1-7 of a 3-player classic table give it no chance: searching them cost ~15 s per test

    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        t = seen.turn
        if t is None or t.player != p:
            return None
        harm = {card(seen.faces[h]).param for h in t.start_hand if card(seen.faces[h]).is_harmful} & self.ignores
        if "no_attempts" in harm:
            ev = next((ev for ev in options if ev.get("t") == "attempt"), None)
            if ev is not None:
                self.ignored = "no_attempts"
                return ev
        if "no_draw" in harm:
            draws = [ev for ev in options if ev.get("t") == "draw" and ev.get("n", 0) > 0]
            if draws:
                self.ignored = "no_draw"
                return draws[-1]
        if "one_action" in harm and what == "actions" and t.actions_taken >= 1:
            # its own engine judges blind (t.bug unknown), so a second action is still among its options
            ev = next((ev for ev in options if is_action(ev)), None)
            if ev is not None:
                self.ignored = "one_action"
                return ev
        return None


class IgnoresBug(IgnoresHarm):
    """Holds Bug at the start of its turn and takes a second action (an attempt, a trade or an action card)."""

    ignores = frozenset({"one_action"})
    chance_from = 1


class BrokenPromise(Blind):
    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        for ev in options:
            if ev.get("t") == "trade" and ev.get("promise") is not None:
                return dict(ev, promise=(ev["promise"] + 1) % 6)
        return None


class BrokenReplyPromise(Blind):
    """Answers a trade with two or more cards (000:165: "1 or more") and promises a wrong code for the last of them;
    only the offerer, who receives the cards, can see the lie at once."""

    def lie(self, seen: GameState, p: int, options: list[Event], what: str) -> Event | None:
        for ev in options:
            if ev.get("t") == "trade_reply" and len(ev.get("cards") or []) >= 2 and ev.get("promise") is not None:
                return dict(ev, promise=[*ev["promise"][:-1], (ev["promise"][-1] + 1) % 6])
        return None


class WrongLink(Blind):
    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is not None and out[0] == Kind.LINK and fold.cheat_seq is None and fold.pick_no >= 1:
                fold.cheated()
                return out[0], dict(out[1], link=os.urandom(32))
            return out

    author = Author()


class BadShareDealer(Dealer):
    """A wrong decryption share (the proof does not fit) in the first item of the wanted mode its fold supplies."""

    def share(self, fold: Any, h: int, ct: Any, mode: str) -> Share:
        good = super().share(fold, h, ct, mode)
        assert fold.round is not None
        sealed = h not in fold.round.public
        if mode == fold.mode and sealed and fold.cheat_seq is None and fold.wanted(h):
            fold.cheated()
            return Share(good.seat, mul(random_scalar(), base_mul(random_scalar())), good.proof)
        return good


class BadShare(Blind):
    """A wrong decryption share (the proof does not fit) in the first item of the wanted mode it supplies."""

    mode = "own"
    bad_shares = True
    dealer = BadShareDealer()

    def wanted(self, h: int) -> bool:
        return True


class JunkProofDealer(Dealer):
    """In a certificate its fold shows, the learner's own share with its true value but a junk proof."""

    def shares(self, fold: Any) -> dict[str, Any]:
        assert fold.round is not None and fold.me is not None
        if fold.cheat_seq is not None:
            return super().shares(fold)
        for h, new, mode in fold.round.duties[fold.me.seat]:
            held = fold.shares.get(h, {})
            learners = [q for q in range(fold.n) if new >> q & 1 and q != fold.me.seat and q in held]
            if mode == "cert" and h not in fold.round.public and learners:
                q = learners[0]
                fold.shares[h] = dict(held)
                fold.shares[h][q] = Share(q, held[q].d, bytes(64))
                fold.cheated()
                try:  # the junk share goes only into the entry: the cheater's own machine keeps the true one
                    return super().shares(fold)
                finally:
                    fold.shares[h] = held
        return super().shares(fold)


class JunkProofOnLearnerShare(Blind):
    """Shows a card by certificate whose learner's own share has its true value but a junk proof: a learner that
    trusted its own share's value would take the certificate, which every other peer rejects (a split table)."""

    bad_shares = True
    dealer = JunkProofDealer()


class BadCertificate(BadShare):
    """Shows one of its password cards (Dumpster Diving, Packet Sniffer, Mocking Bird) with a certificate
    that does not prove its face."""

    mode = "cert"

    def wanted(self, h: int) -> bool:
        return self.state.loc.get(h, ("",))[0] == "pw"


class BadCertificateAny(BadCertificate):
    """The same lie on any card it shows by certificate (the path Dumpster Diving's password card takes)."""

    def wanted(self, h: int) -> bool:
        return True


class WrongOpeningDealer(Dealer):
    """Shows the password card Dumpster Diving made its fold show with a wrong opening (its fold's `wrong`)."""

    def shares(self, fold: Any) -> dict[str, Any]:
        assert fold.me is not None and fold.round is not None and fold.seat is not None
        rnd = fold.round
        due = [h for h, _, _ in rnd.duties[fold.seat] if h not in rnd.public and fold.part.opening_due(fold.seat, h)]
        if fold.cheat_seq is not None or not due or not dumpster_dived(fold):
            return super().shares(fold)
        true = fold.me.openings[due[0]]
        fold.me.openings[due[0]] = fold.wrong(*true)
        try:
            body = super().shares(fold)
        finally:
            fold.me.openings[due[0]] = true
        fold.cheated()
        return body


class WrongOpening(Blind):
    """Shows the password card Dumpster Diving made it show with an opening of its code commitment for another
    code (the card's certificate itself is true): the learner alone sees the box, rejects the entry and posts it
    with its box secret."""

    bad_shares = True
    dealer = WrongOpeningDealer()

    def wrong(self, code: int, salt: bytes) -> tuple[int, bytes]:
        return (code + 1) % 6, salt


class WrongSalt(WrongOpening):
    """The same, opening the card's true code with another salt."""

    def wrong(self, code: int, salt: bytes) -> tuple[int, bytes]:
        return code, bytes(b ^ 1 for b in salt)


class Substituter(Blind):
    """The last shuffler of the first deck replaces a ciphertext it shuffled honestly by a fresh encryption of a
    card of its choice (card 0): that card is then in the deck twice, another is gone. It sends the proof of
    shuffle of its honest output (`prove`: a proof made for the substituted deck with its own witness instead);
    neither verifies."""

    dup = False
    prove = False

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.SHUFFLE or fold.cheat_seq is not None or fold.seat != fold.n - 1:
                return out
            deck = decode_deck(out[1]["deck"])
            if fold.dup:  # re-mask another position's ciphertext: a copy of an unknown card
                r = random_scalar()
                src = deck[1]
                deck[0] = Ciphertext(add(src.c1, base_mul(r)), add(src.c2, mul(r, fold.joint_pk)))
            else:
                r = random_scalar()
                deck[0] = Ciphertext(base_mul(r), add(fold.table.point(0), mul(r, fold.joint_pk)))
            fold.cheated()
            proof = out[1]["proof"]
            if fold.prove:
                pile = fold.pile
                assert pile is not None and fold.me is not None
                w = ShuffleWitness.from_bytes(fold.me.witnesses[pile.index])
                ctx = ShuffleContext(fold.game_id, pile.context(), fold.seat, len(pile.steps))
                proof = prove_shuffle(ctx, fold.joint_pk, pile.final, deck, w.perm, w.rs)
            return out[0], {"deck": encode_deck(deck), "proof": proof}

    author = Author()


class Duplicator(Substituter):
    dup = True


class ProvingSubstituter(Substituter):
    prove = True


class ReplayedProof(Blind):
    """Shuffles its first step honestly but sends, as its proof, the (valid) proof of another shuffle of the same
    pile: a well-formed proof of another statement."""

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.SHUFFLE or fold.cheat_seq is not None:
                return out
            pile = fold.pile or fold._new_pile()
            other, w = shuffle(pile.final, fold.joint_pk)
            ctx = ShuffleContext(fold.game_id, pile.context(), fold.seat, len(pile.steps))
            fold.cheated()
            return out[0], {**out[1], "proof": prove_shuffle(ctx, fold.joint_pk, pile.final, other, w.perm, w.rs)}

    author = Author()


class Staller(Blind):
    """Never reveals its secrets at the end."""

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.kind == Kind.SECRETS and d.seat == fold.seat:
                fold.cheated()
                return None
            return super().author_next(fold, choose)

    author = Author()


class LastLinkPeeker(Blind):
    """Has ground its signing key until it sorts last (docs/security.md, key grinding), so it authors the last
    beacon link of every pick: before sending its link for the pick of who goes first, it folds the link on a
    copy of its machine, sees the result one entry before anyone else and, when it does not go first, walks
    away. All that buys is the end of the game, abandoned naming it."""

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is None or out[0] != Kind.LINK or fold.cheat_seq is not None:
                return out
            trial = fold.snapshot()
            before = len(trial.events)
            trial.apply(fold.seat, Kind.LINK, out[1])
            first = [ev for ev in trial.events[before:] if ev.get("t") == "first"]
            if first and first[0]["p"] != fold.seat:
                fold.cheated()
                return None
            return out

    author = Author()


class Equivocator(Blind):
    """Signs two different shuffles for its first shuffle step and sends them to different peers."""

    extra_entry: dict[str, Any] | None = None

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is not None and out[0] == Kind.SHUFFLE and fold.cheat_seq is None:
                pile = fold.pile or fold._new_pile()
                other, w = shuffle(pile.final, fold.joint_pk)  # another valid shuffle, with its valid proof
                ctx = ShuffleContext(fold.game_id, pile.context(), fold.seat, len(pile.steps))
                proof = prove_shuffle(ctx, fold.joint_pk, pile.final, other, w.perm, w.rs)
                fold.extra_entry = {"deck": encode_deck(other), "proof": proof}
                fold.cheated()
            return out

    author = Author()


class Forger(Machine):
    """Signs, with its own key, an entry in the name of the next seat (a join as if by it)."""

    forge: tuple[Kind, dict[str, Any]] | None = None
    cheat_seq: int | None = None

    class Author(HonestAuthor):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            out = super().author_next(fold, choose)
            if out is not None and out[0] == Kind.EVENT and fold.cheat_seq is None:
                fold.forge = (Kind.EVENT, out[1])
                fold.cheat_seq = fold.entries
            return out

    author = Author()
