"""Cheaters who attack the referee itself, at a networked table (honest bot `TablePeer`s on 127.0.0.1 against one
seated attacker, seeded games from test_table_bad_input's `play`): false secrets in evidence and in `secrets`,
evidence nested in evidence, malformed secrets shapes, abandon entries sent too early or over an entry already
made, floods of far-future entries and of false evidence. Each test asserts that no honest player is named, that
the cheater is (or its input is refused naming it), that no honest peer crashes or hangs, and that every honest
log is the same and reopens cleanly."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar

from adp2p.crypto.entries import decode_entry
from adp2p.p2p.audit import audit_log
from adp2p.p2p.peer import arrivals as arrivals_mod
from adp2p.p2p.peer.evidence_book import MAX_EVIDENCE_BYTES, MAX_FALSE
from adp2p.p2p.peer.wire import Wire
from adp2p.p2p.protocol import Kind, decode_body, encode_body
from adp2p.p2p.transport import Mesh
from test_table_bad_input import ATTACKER, Attacker, Table, assert_finished_normally, play


class Watcher(Attacker):
    """An attacker that acts on entries it receives: `react(e, raw)` runs once per entry folded (its own
    included) until it returns True; what it signs goes out with the peer's next broadcast."""

    def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
        super().entry_taken(raw, own=own, appended=appended)
        if not self.cheated and self.machine is not None and self.store is not None and not self.ended:
            e = decode_entry(raw)
            if self.react(e, raw):
                self.cheated = True

    def react(self, e: Any, raw: bytes) -> bool:
        return False

    def post(self, seq: int, prev: bytes, kind: Kind, body: dict[str, Any]) -> bytes:
        raw = self.sign(seq, prev, int(kind), encode_body(body))
        self.outbox.append(raw)
        return raw


def names(t: Table, i: int) -> str:
    o = t.outcomes[i]
    assert o is not None
    return o.verdict or ""


def assert_nobody_honest_named(t: Table) -> None:
    """No honest peer's outcome, audit or words name an honest seat; every honest log is the same."""
    logs = t.check_logs()
    assert all(log == logs[0] for log in logs)
    for i in t.honest:
        o = t.outcomes[i]
        assert o is not None, t.heard(i)
        for h in t.honest:
            who = f"p{h} (seat {h + 1}"
            assert not names(t, i).startswith(who), names(t, i)
            assert o.abandoned_by != f"p{h}", t.heard(i)
            assert not any(v.startswith(who) for v in o.violations), o.violations
            assert f"Cheating detected: {who}" not in t.heard(i), t.heard(i)
        res = audit_log(o.log_path)  # type: ignore[arg-type]
        assert {f.seat for f in res.findings} <= {ATTACKER, None}, res.text()


def assert_cheater_named(t: Table, words: str) -> None:
    for i in t.honest:
        v = names(t, i)
        assert v.startswith(f"p1 (seat 2, key {t.label(ATTACKER)}): "), t.heard(i)
        assert words in v, v


# ======================================================================================================
# false secrets


async def test_false_box_secret_in_evidence_names_the_accuser_not_the_sender(tmp_path: Path) -> None:
    """The attacker 'proves' that honest shares sealed to it do not open, with a box secret that is not its
    own: the secret is checked against its published key first, and the evidence is false (before: the honest
    sender was convicted)."""

    class FalseOpener(Watcher):
        def react(self, e: Any, raw: bytes) -> bool:
            if e.kind != Kind.SHARES or e.author == ATTACKER:
                return False
            sealed = decode_body(e.body)["sealed"]
            if not any(item[0] == ATTACKER for item in sealed):
                return False
            body = {"what": "entry", "raw": raw, "reason": "does not open", "box_secret": os.urandom(32)}
            self.post(e.seq, e.prev_hash, Kind.EVIDENCE, body)
            return True

    t = await play(tmp_path, attacker=FalseOpener)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    for i in t.honest:
        heard = t.heard(i)
        assert "is not the one it published" in heard or "is not the one it published" in names(t, i), heard


async def _secrets_lie(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Table:
    class SecretsLiar(Attacker):
        def wants(self, e: Any) -> bool:
            return e.kind == Kind.SECRETS

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            body = decode_body(e.body)
            change(body)
            raw = self.sign(e.seq, e.prev_hash, int(Kind.SECRETS), encode_body(body))
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=SecretsLiar)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    return t


async def test_false_box_secret_in_secrets_names_the_revealer(tmp_path: Path) -> None:
    """A revealed box secret that is not the seat's own would make the audit fail to open every box sealed to it
    and name each honest sender: it is checked on arrival and names the revealer."""
    t = await _secrets_lie(tmp_path, lambda b: b.update(box_secret=os.urandom(32)))
    assert_nobody_honest_named(t)
    assert_cheater_named(t, "box secret given for seat 2 is not the one it published")


async def test_malformed_openings_in_secrets_name_the_revealer(tmp_path: Path) -> None:
    """Openings of the wrong shape (before: the live audit silently did not run, or the last revealer crashed)."""
    t = await _secrets_lie(tmp_path, lambda b: b.update(openings=[[1]], witnesses=[["a", 1]]))
    assert_nobody_honest_named(t)
    assert_cheater_named(t, "malformed secrets entry")


# ======================================================================================================
# evidence in evidence


async def test_deeply_nested_evidence_is_refused_without_recursion(tmp_path: Path) -> None:
    """Evidence about evidence about evidence ... 200 levels deep (before: RecursionError in every honest peer):
    verification stops at the second level and the author of the nesting is named (at once by every honest peer;
    in the log only if a proof of it fits two levels: evidence three levels deep is its own author's fault, so that
    nobody can turn an honest peer's proof of false evidence against it, tests/p2p/test_attack_core.py)."""

    class Nester(Attacker):
        def wants(self, e: Any) -> bool:
            return e.kind == Kind.EVENT

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            store = self.store
            assert store is not None
            raw = store[e.seq - 1].raw
            for _ in range(200):
                raw = self.sign(e.seq, e.prev_hash, int(Kind.EVIDENCE), encode_body({"what": "entry", "raw": raw}))
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    t = await play(tmp_path, attacker=Nester)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    for i in t.honest:  # named for the nesting, or for signing it over its own entry at that seq
        said = names(t, i) or t.heard(i)
        assert "nested too deep" in said or "equivocation" in said, t.heard(i)
        assert f"p1 (seat 2, key {t.label(ATTACKER)})" in said, said


# ======================================================================================================
# abandonment


async def test_abandon_sent_at_once_is_held_and_the_victim_plays_on(tmp_path: Path) -> None:
    """The attacker signs an abandon naming the seat its own entry makes due, and sends it ahead of that entry: every
    peer holds it before the victim could have answered (before: every peer took it and named the victim). Each peer
    holds it until its own clock says its author waited the period; the victim answers in time, its entry goes in,
    and the game ends normally.

    (The attacker used to react to another seat's entry instead. At seed 1 that entry was the victim's own (its link,
    then its turn), so the victim's next entry raced the abandon, and under load the abandon sometimes came second:
    refused as over an entry already made, "the seat it names answered in time", and nobody said "gave up on". Sent
    ahead of the entry that makes its victim due, on the same connections, it is held first at every peer.)"""

    class Impatient(Attacker):
        victim: int | None = None

        def wants(self, e: Any) -> bool:
            m = self.machine  # (its own entry `e` is folded already: what is due now is what `e` made due)
            d = m.duty() if m is not None else None
            if d is None or d.seat == ATTACKER or d.kind != Kind.EVENT or m.state.turn_no < 1:  # type: ignore[union-attr]
                return False
            if m.window_actor() is not None:  # type: ignore[union-attr]
                return False  # a reaction window: its seat may answer by a token, which an abandon does not meet
            self.victim = d.seat
            return True

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            body = encode_body({"silent": self.victim, "seq": e.seq + 1})
            await self.mesh.broadcast({"k": "entry", "raw": self.sign(e.seq + 1, e.id, int(Kind.ABANDON), body)})  # type: ignore[union-attr]
            await send_real()

    t = await play(tmp_path, attacker=Impatient, abandon_after=8.0)
    attacker = t.peers[ATTACKER]
    assert attacker.cheated and attacker.victim in t.honest  # type: ignore[attr-defined]
    assert_finished_normally(t)
    assert_nobody_honest_named(t)
    for i in t.honest:  # held at every honest peer (the victim included, which played on), refused at none
        assert "gave up on" in t.heard(i) and "Refused an abandon" not in t.heard(i), t.heard(i)


async def test_abandon_over_an_entry_already_made_is_refused(tmp_path: Path) -> None:
    """A retroactive abandon: signed for a seq where the named seat's own entry is already in every log (before:
    peers ended the game naming the victim). Refused, the game goes on and ends normally."""

    class Retroactive(Watcher):
        def react(self, e: Any, raw: bytes) -> bool:
            m = self.machine
            if e.author == ATTACKER or e.kind != Kind.EVENT or m.state.turn_no < 1:  # type: ignore[union-attr]
                return False
            self.post(e.seq, e.prev_hash, Kind.ABANDON, {"silent": e.author, "seq": e.seq})
            return True

    t = await play(tmp_path, attacker=Retroactive)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_finished_normally(t)
    assert_nobody_honest_named(t)
    assert any("Refused an abandon by p1" in t.heard(i) for i in t.honest), [t.heard(i) for i in t.honest]


# ======================================================================================================
# floods


async def test_far_future_entries_are_bounded(tmp_path: Path) -> None:
    """300 properly signed entries of 64 KiB far ahead of the log (before: every one kept, without bound): each
    honest peer keeps at most PENDING_MAX entries and PENDING_MAX_BYTES bytes of them, and the game ends."""
    seen: list[tuple[int, int]] = []

    class Flooder(Attacker):
        def wants(self, e: Any) -> bool:
            return e.kind == Kind.EVENT

        async def cheat(self, e: Any, send_real: Callable[[], Awaitable[Any]]) -> None:
            for k in range(300):
                body = encode_body({"ev": {"t": "x"}, "pad": os.urandom(64 * 1024)})
                raw = self.sign(e.seq + 10 + k, e.prev_hash, int(Kind.EVENT), body)
                await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
            await trio_sleep(0.5)
            for p in self.table_peers:  # type: ignore[attr-defined]
                seen.append((len(p.arrivals), sum(len(e.raw) for e in p.arrivals.values())))
            await send_real()

    Flooder.table_peers = []  # type: ignore[attr-defined]

    async def look(t: Table) -> None:
        Flooder.table_peers.extend(t.peers[i] for i in t.honest)  # type: ignore[attr-defined]

    t = await play(tmp_path, attacker=Flooder, meddle=look)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert seen and all(n <= arrivals_mod.PENDING_MAX and b <= arrivals_mod.PENDING_MAX_BYTES for n, b in seen), seen
    assert max(b for _, b in seen) > 0  # the flood did arrive (and was kept within the bound)
    assert_nobody_honest_named(t)


async def test_a_flood_of_false_evidence_is_judged_a_bounded_number_of_times(tmp_path: Path) -> None:
    """Forty false evidence entries at old seqs (each about an honest entry already in every log): each honest
    peer judges at most MAX_FALSE of them, its evidence file stays bounded, and nobody honest is named."""

    class Slanderer(Watcher):
        def react(self, e: Any, raw: bytes) -> bool:
            m, store = self.machine, self.store
            if m.state.turn_no < 1 or len(store) < 12:  # type: ignore[union-attr, arg-type]
                return False
            for k in range(40):
                at = 2 + k % (len(store) - 3)  # type: ignore[arg-type]
                old = store[at]  # type: ignore[index]
                body = {"what": "entry", "raw": old.raw, "reason": f"lie {k}"}
                self.post(at, old.prev_hash, Kind.EVIDENCE, body)
            return True

    t = await play(tmp_path, attacker=Slanderer)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    for i in t.honest:
        p = t.peers[i]
        assert p.book.false_by.get(ATTACKER, 0) <= MAX_FALSE, (p.book.false_by, t.heard(i))
        assert t.heard(i).count("Rejected evidence by p1") <= MAX_FALSE, t.heard(i)
        evidence = p.gdir / "evidence"  # type: ignore[operator]
        assert not evidence.exists() or evidence.stat().st_size <= MAX_EVIDENCE_BYTES


async def trio_sleep(s: float) -> None:
    import trio

    await trio.sleep(s)


async def test_counter_evidence_cannot_move_the_verdict_onto_the_accuser(tmp_path: Path) -> None:
    """The attacker seals a bad share to a player, who posts the proof; the attacker answers at the same seq with
    counter-evidence (the accuser's evidence 'proved' bad with a false box secret), hoping to take precedence as
    the lower seat and move the verdict onto its accuser: it is false, refused, and the attacker stays named."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
    from _zoo import BadShare

    class CounterAccuser(Watcher):
        machine_class = BadShare

        def react(self, e: Any, raw: bytes) -> bool:
            if e.kind != Kind.EVIDENCE or e.author == ATTACKER:
                return False
            body = {"what": "entry", "raw": raw, "reason": "it lies", "box_secret": os.urandom(32)}
            self.post(e.seq, e.prev_hash, Kind.EVIDENCE, body)
            return True

    t = await play(tmp_path, attacker=CounterAccuser)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    assert_cheater_named(t, "")


# ======================================================================================================
# implied passes (docs/protocol.md, "Implied passes")


class PassThenAct(Watcher):
    """In the first window where it is asked first, it sends its pass token and then writes its decision there
    as an entry too, hoping that the peers who take the token and those who take the entry split the table."""

    async def decide_window(self, m: Any, at: Any, j: int) -> None:
        await super().decide_window(m, at, j)
        store, pool = self.store, self.passes
        if self.cheated or j != 0 or store is None or pool is None or self.mesh is None:
            return
        seq, prev = len(store), store.head_id
        after = at.snapshot()
        after.pass_window()
        if not pool.signed(seq, prev, 0) or after.duty().seat == m.seat:
            return  # no token sent, or one it would carry itself (then its act would be a plain equivocation)
        self.cheated = True
        act = {"ev": {"t": "play", "p": m.seat, "card": 0, "face": 0}}  # (a plain pass would say the same as the token)
        raw = self.sign(seq, prev, int(Kind.EVENT), encode_body(act))
        await self.mesh.broadcast({"k": "entry", "raw": raw})


async def test_passing_and_acting_at_one_decision_names_the_seat(tmp_path: Path) -> None:
    """The token and the entry both bind the attacker: a peer that holds the token when the act comes posts the
    proof of both (a peer without it rejects the act, which is no legal move there, and posts that): every honest
    peer names the attacker, with one log."""
    t = await play(tmp_path, attacker=PassThenAct)
    assert t.peers[ATTACKER].cheated  # type: ignore[attr-defined]
    assert_nobody_honest_named(t)
    assert_cheater_named(t, "")
    assert any("passed and then acted" in t.heard(i) for i in t.honest), [t.heard(i)[-400:] for i in t.honest]


async def test_a_pass_token_lost_on_the_way_is_sent_again(tmp_path: Path) -> None:
    """One peer loses the first copy of every pass token that reaches it (as a peer that was away, catching up or
    reconnecting does). The tokens come again (each seat repeats its own while the table waits on that point, and
    sends them to a peer whose head reaches it), so the game runs to its end with nobody waiting for a seat that
    passed, and nobody named."""

    class LosesTokens(Attacker):
        lost: ClassVar[set[tuple[int, int, int]]] = set()

        async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
            if msg.get("k") == "pass":
                key = (msg["seq"], msg["j"], msg["seat"])
                if key not in self.lost:
                    self.lost.add(key)
                    self.cheated = True
                    return
            await super().handle(fp, label, msg)

    t = await play(tmp_path, attacker=LosesTokens, wait_for_attacker=True)
    assert LosesTokens.lost, "no token reached the peer that loses them"
    assert_finished_normally(t)
    a = t.outcomes[ATTACKER]
    assert a is not None and a.verdict is None and a.abandoned_by is None and a.audit_ok is True
    assert a.head == t.outcomes[0].head  # type: ignore[union-attr]
    assert_nobody_honest_named(t)


async def test_a_pass_that_comes_after_the_abandon_beats_it(tmp_path: Path) -> None:
    """A seat's pass tokens are held up on the way (a slow seat: a stopped process, a bad link) until the others
    have given up on it and written the abandon naming it. Seeing the abandon name it at a decision it passed, the
    seat writes that pass as its own entry, which beats the abandon (rule 3 of "Abandonment"): the abandon is set
    aside and the game goes on to its end, one log everywhere, nobody named."""

    class SlowToken(Attacker):
        saw_abandon = False

        def gives_up(self, silent: int) -> bool:
            return False  # a seat that is slow, not one that gives up on the others (as a stopped process)

        def weighs_abandon(self, raw: bytes) -> bool:
            e = decode_entry(raw)
            if decode_body(e.body).get("silent") == self.machine.seat:  # type: ignore[union-attr]
                self.saw_abandon = True
            return super().weighs_abandon(raw)

        def make_wire(self, mesh: Mesh) -> Wire:
            peer = self

            class Withholds(Wire):
                """Its pass tokens go to nobody until it saw an abandon naming it."""

                def held(self, msg: dict[str, Any]) -> bool:
                    if msg.get("k") == "pass" and not peer.saw_abandon:
                        peer.cheated = True
                        return True
                    return False

                async def broadcast(self, msg: dict[str, Any]) -> list[str]:
                    return [] if self.held(msg) else await super().broadcast(msg)

                async def send(self, fp: str, msg: dict[str, Any]) -> None:
                    if not self.held(msg):
                        await super().send(fp, msg)

            return Withholds(mesh)

    t = await play(tmp_path, attacker=SlowToken, abandon_after=1.5, wait_for_attacker=True, seed=4)
    assert t.peers[ATTACKER].saw_abandon  # type: ignore[attr-defined]
    assert_finished_normally(t)
    a = t.outcomes[ATTACKER]
    assert a is not None and a.abandoned_by is None and a.head == t.outcomes[0].head  # type: ignore[union-attr]
    assert_nobody_honest_named(t)
    assert any("answered after all" in t.heard(i) for i in t.honest), [t.heard(i)[-600:] for i in t.honest]


async def test_a_seat_that_decides_after_the_abandon_answers_with_an_entry(tmp_path: Path) -> None:
    """A seat is stopped over its first window decision (SIGSTOP: by its own clock it has not waited at all); the
    others give up on it and the abandon reaches it while it decides. Its pass then goes in as an
    entry, which beats the abandon (a token would not): the game goes on to its end, nobody named."""
    import trio
    from adp2p.p2p.peer.patience import Patience

    class SlowDecider(Attacker):
        saw_abandon = False

        async def decide(self, m: Any) -> dict[str, Any]:
            if not self.cheated and m.window_actor() == m.seat:
                self.cheated = True
                with trio.move_on_after(10 * self.cfg.abandon_after):
                    while not self.saw_abandon:  # stopped until the others have given up on it
                        await trio.sleep(0.02)
            return await super().decide(m)

        def gives_up(self, silent: int) -> bool:
            return False  # slow, not giving up on the others

        def weighs_abandon(self, raw: bytes) -> bool:
            # as a process that was stopped meanwhile: the time it did not run is no waiting by its own clock
            self.patience = Patience(self.cfg.abandon_after)
            self.saw_abandon = True
            return super().weighs_abandon(raw)

    t = await play(tmp_path, attacker=SlowDecider, abandon_after=1.0, wait_for_attacker=True, seed=4)
    assert t.peers[ATTACKER].saw_abandon  # type: ignore[attr-defined]
    assert_finished_normally(t)
    a = t.outcomes[ATTACKER]
    assert a is not None and a.abandoned_by is None and a.head == t.outcomes[0].head  # type: ignore[union-attr]
    assert_nobody_honest_named(t)
    assert any("answered after all" in t.heard(i) for i in t.honest), [t.heard(i)[-600:] for i in t.honest]
