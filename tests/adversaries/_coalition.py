"""A coalition of two cheaters at an honest table (issue 34, "Done when": the randomized part), over the real protocol
(`_net.net_game`: TablePeers on loopback in one trio run). The levers are the zoo's (tests/adversaries/_zoo_final.py,
the evidence and results half; tests/adversaries/_silence.py, the timing half), each armed at a moment drawn from a
seeded RNG; this module only arms them, pairs them across the coalition's two seats and judges the game.

Levers of one seat (`SOLO`), the moment `arm` being an entry count drawn at random:
- `stall`: silent on its own duty from entry `arm` on (a `Blind` machine that authors nothing more);
- `ahead`: `stall`, and it signs entries far ahead of the log instead (`_silence.AheadOfLog`);
- `late_lie`: a false box secret in its `secrets`, then a stall (`_zoo_final.LateLieThenStall`);
- `oversized`: a `secrets` body one byte over its bound, then a stall (`_zoo_final.OversizedSecretsThenStall`);
- `withhold`: from entry `arm` on, the first reaction window where it may, it keeps its pass token back and
  abandons the seat due after the window with it (`_silence.WithholdsToken`); `late_withhold` waits until it was
  given up on first (`_silence.LateWithholdsToken`);
- `self_accuse`: evidence against its own junk entry (`_zoo_final.self_accusation`) at the seq of the entry that
  ended the game (`win`), of another seat's evidence (`react`; at the game's end if none came first), or of the
  entry `arm` (`at`);
- Hacker only: `silent_roller` (`_silence.SilentRoller`: silent once it sees its private dice).
Pairs across the two seats (`PAIRS`; the first seat, then its partner):
- `lie_hold` (Access Denied): the first seals a broken answer proof to its partner, the first time its partner
  attempts its password from entry `arm` on (`_zoo.UnprovenAnswer`); the partner's machine accepts it and plays on
  (`_zoo_final.Accomplice`), and it posts the (genuine) evidence late: `delay` entries later, or at the game's end;
- `withhold_abandon`: the first keeps its token back (`WithholdsToken`); the partner sends the abandon that carries
  it, naming the seat due after the window (one it is the first to give up on);
- `ahead_stall`: the first stalls from entry `arm` on; the partner signs entries far ahead of the log while the
  first is due.

The oracle (`judge`), from the honest peers' logs and outcomes only, never from the cheaters' claims:
1. no honest seat is named by any honest peer's outcome (abandonment, verdict, violations) nor by the offline audit
   (`p2p.audit.audit_log`) of every honest peer's log;
2. if an honest peer's fold reached the entry that ended the game (winners W): that entry is still in every honest
   log, and every honest peer's outcome and every audit list W but at most the seats named (never an honest one);
3. the game ends within `BOUND` seconds (else a hang);
4. the honest peers' logs agree (one is a prefix of the other).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import _net
import trio
from _net import NetGame, ZooPeer, net_game
from _silence import AheadOfLog, LateWithholdsToken, SilentRoller, WithholdsToken
from _zoo import Blind, JunkAnswers, UnprovenAnswer, ad_part
from _zoo_final import Accomplice, LateLieThenStall, OversizedSecretsThenStall, self_accusation
from _zoo_hacker import HBlind
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.games.access_denied.answers import Answers, attempt_of
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import Machine
from adp2p.p2p.peer.common import _abandoners
from adp2p.p2p.protocol import Kind, encode_body

PATIENCE = 6.0  # every peer's abandon period (seconds): short, the oracle asserts outcomes, not times. At 3 s, under a
# load of ~20 on 2 cores, the first seat of a 4-player table gave up on a seat that had no game yet and left alone (see
# test_zoo_coalition.py, `test_the_first_seat_does_not_leave_alone...`)
BOUND = 300.0  # a game not over by then is a hang (generous: a loaded 2-core machine)
SOLO = ("stall", "ahead", "late_lie", "oversized", "withhold", "late_withhold", "self_accuse")
HACKER_SOLO = (*SOLO, "silent_roller")
ARM_UP_TO = 240  # a lever is armed from an entry count drawn below this (past a game's end: at its end)
PAIRS = ("lie_hold", "withhold_abandon", "ahead_stall")
HACKER_PAIRS = ("withhold_abandon", "ahead_stall")
GAMES: dict[str, dict[str, Any]] = {
    "access_denied": {"round_limit": 4},
    "hacker": {"game": "hacker", "profile": "basic", "round_limit": 4, "bots": "random"},
}


@dataclass
class Plan:
    """One coalition game, all drawn from `seed`."""

    seed: int
    game: str
    n: int
    seats: tuple[int, int]
    levers: dict[int, str]  # seat -> lever (a pair's two seats: "<pair>:first" / "<pair>:partner")
    arm: dict[int, int]  # seat -> the entry count from which its lever is armed
    mode: str = "at"  # self_accuse's moment
    delay: int = 0  # lie_hold: entries between accepting the broken proof and posting the evidence

    @property
    def mix(self) -> str:
        """The lever mix, as the benchmark groups games (seat order does not matter)."""
        names = sorted({v.split(":")[0] for v in self.levers.values()})
        return f"{self.game[0]}{self.n}:" + "+".join(names)

    def __str__(self) -> str:
        lv = ", ".join(f"seat {s + 1}: {v} from entry {self.arm[s]}" for s, v in sorted(self.levers.items()))
        return f"seed {self.seed}, {self.game}, {self.n} players, {lv}, self_accuse {self.mode}, delay {self.delay}"


def draw_plan(seed: int, game: str | None = None) -> Plan:
    rng = random.Random(seed)
    game = game or rng.choice(["access_denied", "access_denied", "hacker"])
    n = rng.choice([3, 3, 4])
    seats = tuple(sorted(rng.sample(range(n), 2)))
    a, b = seats
    arm = {s: rng.randrange(0, ARM_UP_TO) for s in seats}  # (a game of Access Denied is 70-200 entries long)
    pairs = PAIRS if game == "access_denied" else HACKER_PAIRS
    solo = SOLO if game == "access_denied" else HACKER_SOLO
    if rng.random() < 0.4:
        pair = rng.choice(pairs)
        first, partner = (a, b) if rng.random() < 0.5 else (b, a)
        if pair == "withhold_abandon":  # the partner must be the first to give up on an honest seat
            firsts = {_abandoners(n, h, 1)[0] for h in range(n) if h not in seats}
            first, partner = (a, b) if b in firsts else (b, a)
        levers = {first: f"{pair}:first", partner: f"{pair}:partner"}
        if pair == "lie_hold":
            arm[first] %= 60  # (its chance comes only when its partner attempts its password: early enough)
    else:
        levers = {a: rng.choice(solo), b: rng.choice(solo)}
    return Plan(seed, game, n, seats, levers, arm, rng.choice(["win", "react", "at"]), rng.randrange(0, 12))  # type: ignore[arg-type]


# ======================================================================================================
# machine levers, armed at an entry count (`arm`, set per game on a subclass); each keeps its own record: `_net`'s
# `Recorded` shares one `cheat_seq` among a game's cheaters, which these do not read


class StallsAt(Blind):
    """Silent on its own duty (any kind) from entry `arm` on, and at the end at the latest (its `secrets`)."""

    arm: ClassVar[int] = 0

    class Author(Blind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.seat == fold.seat and (fold.entries >= fold.arm or d.kind == Kind.SECRETS):
                fold.cheated()
                return None
            return super().author_next(fold, choose)

    author = Author()


class ArmedUnprovenAnswer(UnprovenAnswer):
    """`UnprovenAnswer` from entry `arm` on: seals junk instead of its answer proofs, once."""

    arm: ClassVar[int] = 0
    partner: ClassVar[int | None] = None  # only to this attempter (its accomplice), if set
    done: ClassVar[list[int]] = []

    class Pieces(JunkAnswers):
        def answer_fields(self, fold: Any, ev: Any) -> dict[str, Any]:
            to = attempt_of(fold.state)[0] if fold.partner is not None else None
            if fold.entries < fold.arm or fold.done or to != fold.partner:
                return Answers.answer_fields(self, fold, ev)
            fold.done.append(fold.entries)
            return super().answer_fields(fold, ev)

    part_factory = ad_part(answers=Pieces)


def machine_for(plan: Plan, seat: int) -> type[Machine]:
    lever = plan.levers.get(seat)
    if lever is None:
        return Machine
    hacker = plan.game == "hacker"
    base: type[Machine] = HBlind if hacker else Blind
    arm = {"arm": plan.arm[seat]}
    if lever in ("stall", "ahead", "ahead_stall:first"):
        return type("StallsAt", (StallsAt, base), arm)
    if lever == "late_lie":
        return type("LateLie", (LateLieThenStall, base), {})
    if lever == "oversized":
        return type("Oversized", (OversizedSecretsThenStall, base), {})
    if lever == "silent_roller":
        return SilentRoller
    if lever == "lie_hold:first":
        partner = next(s for s in plan.levers if s != seat)
        return type("ArmedUnproven", (ArmedUnprovenAnswer,), {**arm, "done": [], "partner": partner})
    if lever == "lie_hold:partner":
        return Accomplice
    return base  # network levers: an honest (blind) machine


# ======================================================================================================
# peer levers


class Witness(ZooPeer):
    """Every peer of a coalition game: remembers the first end of the game its fold reached (seq, winners, the id and
    author of the entry that ended it), for the oracle."""

    first_end: tuple[int, list[int], bytes, int] | None = None
    plan: Plan
    arm: int = 0
    table: dict[int, ZooPeer]

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, store = self.machine, self.store
        if self.first_end is None and m is not None and store is not None:
            at = getattr(m, "ended_at", None)
            if at is not None and m.state.over and at < len(store):
                e = decode_entry(store[at].raw)
                self.first_end = (at, list(m.state.winners), e.id, e.author)


class ArmedWithholds(WithholdsToken):
    """`WithholdsToken` from entry `arm` on (its own list of attacks)."""

    def victim(self, m: Any, seat: int) -> bool:
        store = self.store
        return store is not None and len(store) >= self.arm and super().victim(m, seat)


class ArmedLateWithholds(LateWithholdsToken):
    def victim(self, m: Any, seat: int) -> bool:
        store = self.store
        return store is not None and len(store) >= self.arm and super().victim(m, seat)


class WithholdsForPartner(ArmedWithholds):
    """Keeps its token back in a window after which a seat is due that its partner is the first to give up on; the
    partner signs the abandon that carries the token (the coalition shares it off the table)."""

    partner: int = 0

    def victim(self, m: Any, seat: int) -> bool:
        store = self.store
        return (
            store is not None
            and len(store) >= self.arm
            and seat != self.partner
            and _abandoners(m.n, seat, 1) == [self.partner]
        )

    async def strike(self, seq: int, prev: bytes, toks: list[bytes], victim: int) -> None:
        self.withheld = None
        other = self.table[self.partner]
        if other.machine is not None and other.mesh is not None:
            await WithholdsToken.strike(other, seq, prev, toks, victim)  # type: ignore[arg-type]


class AheadWhilePartnerDue(AheadOfLog):
    """While its partner is due (and stalls, from its `arm` on), it signs entries far ahead of the log in its own
    name, a new one every heartbeat (at most `COUNT`)."""

    partner: int = 0

    def _cheats(self) -> bool:
        return True

    async def _send_ahead(self) -> None:
        k = 0
        while k < self.COUNT:
            await trio.sleep(self.cfg.heartbeat)
            m, store, mesh = self.machine, self.store, self.mesh
            if m is None or store is None or mesh is None or self.ended:
                continue
            d = m.duty()
            if d is None or d.seat != self.partner or len(store) < self.arm:
                continue
            seq = len(store) + self.AHEAD - k
            body = encode_body({"ev": {"t": "pass", "p": m.seat}, "pad": bytes(16)})
            raw = encode_entry(self.identity, m.game_id, seq, store.head_id, m.seat, int(Kind.EVENT), body)
            await mesh.broadcast({"k": "entry", "raw": raw})
            self.sent.append(seq)
            k += 1


class SelfAccuses(Witness):
    """Posts evidence against its own junk entry, once: at the seq of the entry that ended the game (`win`), of
    another seat's evidence (`react`), or of the entry at `arm` (`at`)."""

    posted: bool = False

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, store = self.machine, self.store
        if self.posted or m is None or store is None:
            return
        e = decode_entry(raw)
        mode, at = self.plan.mode, None
        if mode == "win" and getattr(m, "ended_at", None) is not None and m.ended_at < len(store):  # type: ignore[attr-defined]
            at = m.ended_at  # type: ignore[attr-defined]
        elif mode == "react" and e.kind == Kind.EVIDENCE and e.author != m.seat:
            at = e.seq
        elif mode == "react" and getattr(m, "ended_at", None) is not None and m.ended_at < len(store):  # type: ignore[attr-defined]
            at = m.ended_at  # type: ignore[attr-defined]  # (no evidence came before the end: at the winning seq)
        elif mode == "at" and self.arm < len(store):
            at = max(1, self.arm)
        if at is None or at < 1 or at >= len(store):
            return
        self.posted = True
        prev = store[at - 1].id
        body = self_accusation(self.identity, m.game_id, at, prev, m.seat)
        self.outbox.append(
            encode_entry(self.identity, m.game_id, at, prev, m.seat, int(Kind.EVIDENCE), encode_body(body))
        )


class HoldsEvidence(Witness):
    """The partner of `lie_hold`: its machine (`Accomplice`) accepted a broken answer proof; `delay` entries later,
    or once the game is over, it posts the evidence at the answer's seq (signed on the entry before it, as timely
    evidence would be)."""

    posted: bool = False

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        m, store = self.machine, self.store
        held = getattr(m, "held", None)
        if self.posted or m is None or store is None or held is None:
            return
        s = held[0]
        if not (m.state.over or len(store) >= s + 1 + self.plan.delay) or not 1 <= s < len(store):
            return
        self.posted = True
        body: dict[str, Any] = {
            "what": "entry",
            "raw": store[s].raw,
            "reason": "its answer proofs for me do not open",
            "box_secret": bytes(self.identity.box_key),
        }
        self.outbox.append(
            encode_entry(self.identity, m.game_id, s, store[s - 1].id, m.seat, int(Kind.EVIDENCE), encode_body(body))
        )


def peer_for(plan: Plan, seat: int) -> type[ZooPeer]:
    lever = plan.levers.get(seat)
    ns: dict[str, Any] = {"arm": plan.arm.get(seat, 0), "attacks": [], "sent": []}
    partner = next((s for s in plan.levers if s != seat), 0)
    if lever in ("ahead",):
        return type("Ahead", (AheadOfLog, Witness), ns)
    if lever in ("withhold",):
        return type("Withholds", (ArmedWithholds, Witness), ns)
    if lever == "late_withhold":
        return type("LateWithholds", (ArmedLateWithholds, Witness), ns)
    if lever == "self_accuse":
        return type("SelfAccuser", (SelfAccuses,), ns)
    if lever == "silent_roller":
        return type("AheadRoller", (AheadOfLog, Witness), ns)
    if lever == "lie_hold:partner":
        return type("Holder", (HoldsEvidence,), ns)
    if lever == "withhold_abandon:first":
        return type("WithholdsForPartner", (WithholdsForPartner, Witness), {**ns, "partner": partner})
    if lever == "ahead_stall:partner":
        return type("AheadForPartner", (AheadWhilePartnerDue, Witness), {**ns, "partner": partner})
    return Witness


# ======================================================================================================
# a game, and its judgement


@dataclass
class Judgement:
    plan: Plan
    hang: bool = False
    honest_named: list[str] = field(default_factory=list)  # what named an honest seat, where
    results_lost: list[str] = field(default_factory=list)  # an honest result not standing, where
    logs_differ: bool = False
    ended: str = ""  # how the game ended at the first honest peer: winners / abandoned / verdict
    named: set[int] = field(default_factory=set)
    fired: list[str] = field(default_factory=list)  # which levers acted (a lever whose moment never came did not)

    @property
    def ok(self) -> bool:
        return not (self.hang or self.honest_named or self.results_lost or self.logs_differ)

    def __str__(self) -> str:
        parts = [str(self.plan), f"ended: {self.ended}", f"named seats: {sorted(s + 1 for s in self.named)}"]
        parts.append(f"levers that acted: {', '.join(self.fired) or 'none'}")
        if self.hang:
            parts.append(f"HANG (no end within {BOUND:.0f} s)")
        parts += [f"HONEST NAMED: {x}" for x in self.honest_named]
        parts += [f"RESULT LOST: {x}" for x in self.results_lost]
        if self.logs_differ:
            parts.append("LOGS DIFFER")
        return "\n  ".join(parts)


async def play(tmp_path: Path, plan: Plan, patience: float = PATIENCE) -> tuple[NetGame | None, Judgement]:
    """Plays `plan` over loopback and judges it."""
    cheats = {s: machine_for(plan, s) for s in plan.levers}
    table: dict[int, ZooPeer] = {}

    def make(cfg: Any, chooser: Any, **kw: Any) -> ZooPeer:
        seat = int(cfg.name[1:])
        p = peer_for(plan, seat)(cfg, chooser, **kw)
        p.plan, p.table = plan, table  # type: ignore[attr-defined]
        table[seat] = p
        return p

    kw = dict(GAMES[plan.game])
    old, _net.GAME_TIMEOUT = _net.GAME_TIMEOUT, BOUND
    try:
        g = await net_game(tmp_path, plan.n, plan.seed, cheats, peer_class=make, abandon_after=patience, **kw)
    except trio.TooSlowError:
        return None, Judgement(plan, hang=True)
    finally:
        _net.GAME_TIMEOUT = old
    j = judge(g, plan)
    j.fired = fired(g, plan)
    return g, j


def fired(g: NetGame, plan: Plan) -> list[str]:
    """Which levers acted in `g` (seat from 1: what it did)."""
    out = []
    for s, lever in sorted(plan.levers.items()):
        p, did = g.peers[s], []
        if getattr(p, "attacks", None):
            did.append(f"withheld a token, abandon at seq {p.attacks[0][0]} naming seat {p.attacks[0][1] + 1}")
        if getattr(p, "sent", None):
            did.append(f"{len(p.sent)} entries ahead of the log")
        if getattr(p, "posted", False):
            did.append("posted its evidence")
        mc = type(p.machine) if p.machine is not None else None
        if mc is not None and getattr(mc, "done", None):
            did.append(f"sealed junk proofs at seq {mc.done[0]}")
        if p.machine is not None and getattr(p.machine, "held", None):
            did.append(f"accepted a broken proof at seq {p.machine.held[0]}")
        if did:
            out.append(f"seat {s + 1} ({lever}): " + ", ".join(did))
    if g.cheats:
        out.append(f"a machine lever cheated first at seq {g.cheats[0]}")
    return out


def judge(g: NetGame, plan: Plan) -> Judgement:
    j = Judgement(plan)
    honest = g.honest
    m0 = g.peers[honest[0]].machine
    assert m0 is not None
    names = m0.names
    for i in honest:
        if g.outcomes[i] is None:
            j.honest_named.append(f"p{i} has no outcome: {g.heard(i)[-400:]}")
            return j
    named: set[int] = set()
    for i in honest:
        o = g.outcomes[i]
        assert o is not None
        for s in range(plan.n):
            who = g.who(s)
            where = []
            if o.abandoned_by == names[s]:
                where.append("abandoned_by")
            if o.verdict is not None and f"{who}: " in o.verdict:
                where.append(f"verdict {o.verdict!r}")
            where += [f"violation {v!r}" for v in o.violations if v.startswith(who)]
            if where:
                named.add(s)
                if s in honest:
                    j.honest_named.append(f"p{i}'s outcome names {names[s]}: {'; '.join(where)}")
    audits = {}
    for i in honest:
        res = audit_log(g.log(i))
        audits[i] = res
        if res.tampered is not None:
            j.honest_named.append(f"audit of p{i}'s log: tampered {res.tampered}")
        seats = {f.seat for f in res.findings if f.seat is not None} | (
            {res.abandoned_by} if res.abandoned_by is not None else set()
        )
        named |= seats
        for s in seats & set(honest):
            j.honest_named.append(f"audit of p{i}'s log names {names[s]}: {res.text()[-600:]}")
    j.named = named
    logs = g.honest_logs()
    j.logs_differ = any(not (a.startswith(b) or b.startswith(a)) for a in logs for b in logs)
    o0 = g.outcomes[honest[0]]
    assert o0 is not None
    j.ended = (
        f"winners {o0.winners}"
        + (f", abandoned by {o0.abandoned_by}" if o0.abandoned_by else "")
        + (f", verdict {o0.verdict[:120]!r}" if o0.verdict else "")
    )
    # the result reached by honest play: the end the honest logs hold (the final folds), and the first end any honest
    # peer's fold reached: an entry by an honest seat that ended the game is never set aside
    ends = [p.first_end for i, p in enumerate(g.peers) if i in honest and getattr(p, "first_end", None)]
    if ends:
        at, _w, eid, author = min(ends)  # type: ignore[type-var]
        for i in honest:
            store = g.peers[i].store
            held = store is not None and at < len(store) and decode_entry(store[at].raw).id == eid
            if not held and author in honest:
                j.results_lost.append(f"p{i}'s log no longer holds entry {at} by seat {author + 1} that ended the game")
    if getattr(m0, "ended_at", None) is None or not m0.state.over:
        if ends:
            j.results_lost.append(f"p{honest[0]}'s final fold holds no end, though an end was reached")
        j.ended += " (no end reached)"
        return j
    winners = list(m0.state.winners)
    j.ended += f" (the end reached at entry {m0.ended_at}: winners {[names[w] for w in winners]})"  # type: ignore[attr-defined]
    want = set(winners)
    for i in honest:
        o = g.outcomes[i]
        assert o is not None
        got = {names.index(w) for w in o.winners if w in names}
        if not (want - named <= got <= want):
            j.results_lost.append(f"p{i}'s outcome lists {o.winners}, the result was {[names[w] for w in winners]}")
    for i, res in audits.items():
        got = set(res.winners)
        if not (want - named <= got <= want):
            j.results_lost.append(
                f"audit of p{i}'s log lists {[names[w] for w in res.winners]}, the result was "
                f"{[names[w] for w in winners]}"
            )
    return j


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
