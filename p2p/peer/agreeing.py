"""The lobby's side of the roster agreement (p2p/roster.py) for one `TablePeer`: ask the person (or let a bot agree),
tell the table, take the others' agreements, sign the genesis when we hold the pen and everyone agreed, pass over a
seat that holds the table up, refuse a genesis its seats did not agree to, and end a game that a seat had left before
its genesis reached it (void, naming nobody). An object of its own with a narrow interface: the peer calls `step`,
`resend`, `take` and `genesis_mismatch`; it is given the lobby (who is here, the roster), the seat's log state, the
addresses we know, and what it does through the peer (broadcast, wake the loops, tell the player, void the game), so
it is tested alone with plain values (tests/p2p/peer/test_agreeing_alone.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio
from adp2p.crypto.entries import encode_entry
from adp2p.crypto.identity import SecretIdentity, open_bundle
from adp2p.p2p import lobby_note
from adp2p.p2p.notices import notice
from adp2p.p2p.peer.common import PeerConfig, log
from adp2p.p2p.peer.seat_log import SeatLog
from adp2p.p2p.protocol import Genesis, Kind, encode_body
from adp2p.p2p.roster import MAX_RELAYS, Agreement, RosterRound, Terms, genesis_mismatch, moved_on

ZERO = bytes(32)
MAX_VOID_LOOK = 64  # entries looked at to see whether a seat signed any (a game void is void at its very start)


class Agreeing:
    """One peer's agreement round before the genesis."""

    def __init__(
        self,
        cfg: PeerConfig,
        log_state: SeatLog,
        *,
        me: Callable[[], SecretIdentity],
        nonce: bytes,
        lobby: Callable[[], Any],
        addresses: Callable[[], set[tuple[str, int]]],
        broadcast: Callable[[dict[str, Any]], Awaitable[Any]],
        nursery: Callable[[], trio.Nursery | None],
        tell: Callable[..., None],
        wake: Callable[[], None],
        ended: Callable[[], str | None],
        void: Callable[[str], None],
    ) -> None:
        """`me()`: our identity; `nonce`: this peer's game-id draw; `lobby()`: who is here (`bundles`, `met`,
        `roster()`, `news`, `genesis_raw`: p2p/peer/lobby.py); `addresses()`: the set of addresses we know (updated in
        place); `broadcast(msg)`; `nursery()`: the peer's (None before it runs); `tell(what, **args)`: the player's
        words; `wake()`: news for the lobby and the play loop; `ended()`: why the game ended for us (None while it
        goes on); `void(label)`: the game is void, a seat (`label`) having left before its genesis reached it."""
        self.cfg, self.log, self._me, self._lobby, self._addresses = cfg, log_state, me, lobby, addresses
        self._broadcast, self._nursery, self.tell, self._wake = broadcast, nursery, tell, wake
        self._ended, self._void = ended, void
        terms = Terms(cfg.table, cfg.game, cfg.profile, cfg.goal, cfg.round_limit, cfg.stalemate, cfg.want)
        self.round = RosterRound(me(), terms, cfg.abandon_after, nonce=nonce)
        self.ask = cfg.confirm  # None: agree to every roster (a bot, `--yes`)
        self.declined = False  # our person said no: we leave the table
        self.passed_now = False  # a seat was passed over since the lobby last looked
        self._asking: tuple[str, ...] | None = None  # the roster our person is being asked about
        self._told: set[tuple[str, ...]] = set()  # rosters whose "waiting for agreement" the player was told
        self._relayed: dict[str, int] = {}  # signer -> agreements of it we relayed (bounded)
        self.apart: set[str] = set()  # players asking for other rules or another number of players (bounded)

    @property
    def left_out(self) -> set[str]:
        """Players our rosters leave out: passed over, or asking for another game than ours."""
        return self.round.passed | self.apart

    def heard_lobby(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """A player's lobby message: one that asks for other rules or another number of players cannot play with us
        (its agreement could never be ours): left out of our rosters, and the player told once why."""
        cfg = self.cfg
        if fp in self.apart or (msg["rules"] == cfg.profile and msg["want"] == cfg.want) or len(self.apart) >= 64:
            return
        self.apart.add(fp)
        what, theirs, ours = (
            ("rules", repr(msg["rules"]), repr(cfg.profile)) if msg["rules"] != cfg.profile
            else ("players", str(msg["want"]), str(cfg.want))
        )
        what_words = notice(f"setting_{what}", cfg.lang)
        self.tell("other_settings", who=label, what=what_words, theirs=theirs, ours=ours)
        self._wake()

    async def step(self) -> bytes | None:
        """One look at the lobby: agree to the roster it makes (after our person confirms it), charge the seats the
        table waits for, and return the genesis if we hold the pen and every seat agreed."""
        lobby, r, want = self._lobby(), self.round, self.cfg.want
        roster = lobby.roster() if len(lobby.bundles) >= want else []
        fps = tuple(open_bundle(b)[0].fingerprint() for b in roster)
        full = len(fps) == want and r.fp in fps
        for f in r.tick(trio.current_time(), fps if len(fps) == want else None):
            self.tell("passed_over", who=self._label(f), secs=f"{r.patience:.0f}")
            self.passed_now = True
            lobby.news = True
        if self.passed_now or not full:
            return None
        if r.mine is None or r.mine.roster != fps:
            if self.ask is not None and r.needs_person(fps):
                self._ask_person(fps)
                return None
            msg = r.agree(fps, lobby.bundles)
            self._save_note(fps)  # on disk before anyone can seat us with it (p2p/lobby_note.py)
            await self._broadcast(msg)
        if not r.complete(fps):
            if fps not in self._told and len(self._told) < 16:
                self._told.add(fps)
                self.tell("agree_waiting", who=", ".join(self._label(f) for f in r.waiting_on(fps)))
            return None
        if fps[0] != r.fp:
            return None  # seat 0 holds the pen (passed over after the patience if it does not sign)
        g = r.genesis(fps, lobby.bundles)
        return encode_entry(self._me(), g.game_id, 0, ZERO, 0, int(Kind.GENESIS), encode_body(g.to_body()))

    async def resend(self) -> None:
        """Our agreement again (every second while we wait, like our lobby message: one may have been lost)."""
        if self.round.mine is not None and self._lobby().genesis_raw is None:
            await self._broadcast(self.round.message())

    def genesis_mismatch(self, g: Genesis) -> str | None:
        """Why a genesis offered to us is not one its seats agreed to, in the player's language (None: it is)."""
        why = genesis_mismatch(g, self.round.mine, self.round.fp)
        return None if why is None else notice("genesis_unagreed", self.cfg.lang, why=why)

    async def take(self, msg: dict[str, Any]) -> None:
        """An `agree` (schema checked), from its signer or relayed. In the lobby: recorded, and relayed to the others
        (at most MAX_RELAYS per signer): a signer that shows its agreement to some players only cannot make them
        see different tables (one would wait on it, another on the pen holder, and pass an honest one over). In a
        game: if its signer is a seat whose agreement in our genesis it has replaced since and it signed no entry of
        the game, the game is void. ValueError: a malformed agreement (the peer ignores it with one line)."""
        a = self.round.take(msg, self._lobby().met)
        if a is None:
            return
        fp = msg["by"]
        m, store = self.log.machine, self.log.store
        if m is None:
            self._wake()
            if self._relayed.get(fp, 0) < MAX_RELAYS and (fp in self._relayed or len(self._relayed) < 64):
                self._relayed[fp] = self._relayed.get(fp, 0) + 1
                await self._broadcast(msg)
            return
        label = self._label(fp)
        seat = next((i for i, ident in enumerate(m.ids) if ident.fingerprint() == fp), None)
        if seat is None or self._ended() or not moved_on(m.g, seat, a) or store is None:
            return
        if len(store) > MAX_VOID_LOOK or any(store[s].author == seat for s in range(1, len(store))):
            return  # it played in this game: its later agreement changes nothing (it can only stall, and be named)
        self._void(label)
        self._wake()

    def _save_note(self, fps: tuple[str, ...]) -> None:
        """What we need to find our game again if we die before its genesis reaches our disk."""
        lobby, a = self._lobby(), self.round.mine
        assert a is not None
        t = self.round.terms
        note = {
            "v": 1, "table": t.table, "game": t.game, "rules": t.profile, "goal": t.goal, "round_limit": t.round_limit,
            "stalemate": t.stalemate, "players": t.want, "name": self.cfg.name,
            "addresses": sorted([h, port] for h, port in self._addresses())[:64],
            "roster": [lobby.bundles[f].hex() for f in fps], "turn": a.turn, "nonce": a.nonce.hex(),
            "sig": a.sig.hex(),
        }
        try:
            lobby_note.save(self.cfg.data_dir, self.round.fp, note)
        except OSError as exc:  # a hint for a crash only: the lobby goes on without it
            log.warning("cannot write the lobby note in %s: %s", self.cfg.data_dir, exc)

    def restore(self, note: dict[str, Any]) -> None:
        """Back from a crash in the lobby (`join --resume` found our note): our latest agreement as it was, the
        players it seats as met (we had met them), the addresses we knew. ValueError: not a usable note."""
        r, met = self.round, self._lobby().met
        bundles = [bytes.fromhex(b) for b in note["roster"]]
        fps = tuple(open_bundle(b)[0].fingerprint() for b in bundles)
        if r.fp not in fps:
            raise ValueError("the lobby note is another player's")
        r.turn, r.nonce = int(note["turn"]), bytes.fromhex(note["nonce"])
        r.mine = Agreement(fps, r.turn, r.nonce, bytes.fromhex(note["sig"]))
        r.latest[r.fp] = r.mine
        r.approved |= set(fps)  # our person confirmed them before
        for f, b in zip(fps, bundles, strict=True):
            met.setdefault(f, b)
        self._addresses().update((str(h), int(port)) for h, port in note.get("addresses", [])[:64])

    def _ask_person(self, fps: tuple[str, ...]) -> None:
        nursery = self._nursery()
        if self._asking is not None or nursery is None:
            return
        self._asking = fps
        nursery.start_soon(self._ask_in_thread, fps, self._question(fps))

    async def _ask_in_thread(self, fps: tuple[str, ...], text: str) -> None:
        assert self.ask is not None
        ok = await trio.to_thread.run_sync(self.ask, text, abandon_on_cancel=True)
        self._asking = None
        if ok:
            self.round.approved |= set(fps)
        else:
            self.declined = True
        self._wake()

    def _question(self, fps: tuple[str, ...]) -> str:
        """What our person reads: who would sit at the table, in seat order, and whether the table has a word."""
        lang, bundles = self.cfg.lang, self._lobby().bundles
        lines = [notice("roster_head", lang, table=self.cfg.table, n=len(fps))]
        for i, f in enumerate(fps):
            name = open_bundle(bundles[f])[1]
            you = notice("roster_you", lang) if f == self.round.fp else ""
            lines.append(notice("roster_line", lang, seat=i + 1, name=name, key=f, you=you))
        lines.append(notice("roster_word", lang) if self.cfg.word else notice("roster_no_word", lang))
        return "\n".join(lines)

    def _label(self, fp: str) -> str:
        b = self._lobby().met.get(fp)
        name = open_bundle(b)[1] if b is not None else "?"
        return f"{name} ({fp})"
