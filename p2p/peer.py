"""One player's peer at a table, on trio: gather in the lobby, agree on a genesis, then fold the signed log
through the game machine, authoring this seat's entries, persisting every entry before acting on it.

Everything a peer does is in `run()`:

1. **Lobby.** The mesh (signed handshake per connection) connects to peers given statically and/or found
   by mDNS. Peers swap `lobby` messages (identity bundle, listen address, addresses they know) until the
   table has `want` players; the roster is their bundles sorted by signing key.
2. **Genesis.** Roster seat 0 signs entry 0 (table, rules, roster, game id); every other peer checks the
   roster is the one it gathered.
3. **Play.** `Machine.duty()` says who authors next. Our duties are authored, appended (fsync) and
   broadcast; others' entries are checked (signature, chain, author, machine rules), appended, then acted
   on. Heads are exchanged on connect and after every entry; a missing range is fetched with `get`; two
   different entries for one seq by one author are kept as an equivocation proof.
4. **Evidence.** A signed entry that breaks a rule is never appended: the peer that rejects it posts an
   `evidence` entry in its place (the entry itself, plus what the others need to re-check it); proof from
   the machine's immediate checks (contradicting answers, a broken trade promise, a card in two places) is
   posted the same way, and two entries signed for one seq are posted as an equivocation proof at that seq.
   Every peer re-verifies it; valid evidence takes precedence over any other entry at its seq (between two,
   the lower accuser seat wins), so a peer holding another entry there sets its tail aside
   (`<log>.superseded`) and refolds: every log converges on the evidence, and the game stops with the
   verdict. See docs/protocol.md, "Precedence at one seq".
5. **End.** After the secrets entries every peer has run the audit; `run()` returns the outcome. A peer
   that stays silent past `abandon_after` seconds when it must author ends the game as abandoned, naming
   it.

Resume (`resume=True`): the log and this seat's secrets are reloaded from the game directory, the machine
refolds the log, and the peer reconnects and catches up.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets as pysecrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from adp2p.crypto.entries import decode_entry, encode_entry, verify_entry
from adp2p.crypto.errors import CryptoError
from adp2p.crypto.identity import SecretIdentity, make_bundle, open_bundle
from adp2p.crypto.passes import verify_pass
from adp2p.engine.api import legal, result, view
from adp2p.engine.catalog import CODES, card, sectors
from adp2p.engine.narration import text as narrate
from adp2p.engine.state import GameState
from adp2p.p2p.lobby import roster_mismatch, settings_mismatch
from adp2p.p2p.logstore import (
    SUPERSEDED_SUFFIX,
    ConflictingEntry,
    DuplicateEntry,
    LogCorrupt,
    LogEquivocation,
    LogError,
    LogStore,
)
from adp2p.p2p.machine import Chooser, Machine, ProtocolError, SeatSecrets
from adp2p.p2p.messages import MessageError, address, check_message
from adp2p.p2p.notices import notice
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.paths import game_dir, read_secret, resume_command, write_secret
from adp2p.p2p.protocol import PROTOCOL_VERSION, BodyError, Genesis, Kind, decode_body, encode_body
from adp2p.p2p.transport import Mesh, PeerDown, PeerUp, TablePlaying

log = logging.getLogger("adp2p.peer")
ZERO = bytes(32)


@dataclass
class PeerConfig:
    name: str
    table: str = "default"
    want: int = 3
    profile: str = "classic"
    goal: int | None = None
    round_limit: int | None = None
    host: str = "127.0.0.1"
    port: int = 0
    peers: list[tuple[str, int]] = field(default_factory=list)
    mdns: bool = False
    interfaces: list[str] | None = None
    advertise_host: str | None = None
    data_dir: Path = Path(".")
    abandon_after: float = 60.0
    lobby_timeout: float = 120.0
    heartbeat: float = 1.0
    dead_after: float | None = None  # a connection silent this long is down (default: 3 heartbeats)
    think: Callable[[], float] = lambda: 0.0  # delay before each of our engine decisions (no tells)
    timings: Path | None = None  # benchmarks: append `seq kind author monotonic-time` per entry logged
    lang: str = "en"  # the language of the lines told to the player (p2p/notices.py, engine/narration.py)


@dataclass
class Outcome:
    game_id: bytes = b""
    log_path: Path | None = None
    winners: list[str] = field(default_factory=list)
    line: str = ""
    said: str = ""  # the line as told to the player, in its language
    audit_ok: bool | None = None
    violations: list[str] = field(default_factory=list)
    abandoned_by: str | None = None
    lost_contact: bool = False  # we left a game that goes on (or ended) without us: nothing decided here
    verdict: str | None = None
    entries: int = 0
    head: bytes = b""


def with_patience(cfg: PeerConfig, patience: float) -> PeerConfig:
    """Every timeout of a peer from one liveness setting (`--patience`, seconds a player may stay silent on its
    turn): the abandon period; the lobby waits twice that; heartbeats and the dead-connection limit scale with it,
    so a slow or lossy network gets proportionally more time everywhere."""
    cfg.abandon_after = patience
    cfg.lobby_timeout = max(30.0, 2 * patience)
    cfg.heartbeat = min(5.0, max(1.0, patience / 60))
    cfg.dead_after = max(3.0, 3 * cfg.heartbeat, patience / 8)
    return cfg


class TableError(Exception):
    """The table could not start or go on (and why, in words for the player)."""


class TablePeer:
    machine_class: type[Machine] = Machine  # the game machine this peer folds the log with

    def __init__(
        self,
        cfg: PeerConfig,
        choose: Chooser,
        *,
        say: Callable[[str], None] = print,
        identity: SecretIdentity | None = None,
    ) -> None:
        self.cfg = cfg
        self.choose = choose
        self.say = say
        self.identity = identity or SecretIdentity.generate()
        self.bundle = make_bundle(self.identity, cfg.name)
        self.fp = self.identity.public.fingerprint()
        self.bundles: dict[str, bytes] = {self.fp: self.bundle}  # fingerprint -> bundle of a player here now
        self.met: dict[str, bytes] = {self.fp: self.bundle}  # every player who sat down in this lobby (bounded)
        self.addresses: set[tuple[str, int]] = set(cfg.peers)
        self.mesh: Mesh | None = None
        self.machine: Machine | None = None
        self.store: LogStore | None = None
        self.gdir: Path | None = None
        self.secrets: SeatSecrets | None = None
        self.pending: dict[int, bytes] = {}  # seq -> raw, received ahead of our log (bounded, see _pend)
        self.pending_bytes = 0
        self.genesis_raw: bytes | None = None
        self.progress = trio.Event()
        self.outcome = Outcome()
        self.shown = 0
        self.told_faces: set[int] = set()  # handles whose face the player has been told (or that are public)
        self._last_progress: tuple[Any, int] | None = None
        self._dealt_said = False
        self.ended: str | None = None
        self.heads: dict[str, int] = {}  # fingerprint -> the longest log length that peer told us it holds
        self.last_head: dict[str, tuple[int, bytes]] = {}  # fingerprint -> the last (length, head id) it told us
        self._head_news = trio.Event()  # our head changed since we last told the table
        self._head_sent: tuple[int, bytes] | None = None  # the head we last broadcast
        self.proofs_to_share: list[tuple[bytes, bytes]] = []  # equivocations found, to show the others
        self.outbox: list[bytes] = []  # entries authored (or re-sent) outside the play loop, to broadcast
        self.superseded: set[bytes] = set()  # ids of entries set aside by evidence (their followers are stale)
        self.before_evidence: dict[int, Machine] = {}  # seq -> the fold just before the evidence entry there
        self._verdict_said = False
        self._deciding = trio.CancelScope()  # our engine decision in progress (cancelled when the game moves on)
        self.checkpoints: dict[int, Machine] = {}  # entries folded -> a snapshot of the fold there (the last few)
        self.held_abandons: dict[int, bytes] = {}  # author -> a valid abandon for the next seq, not yet due here
        self.passes: PassPool | None = None  # pass tokens for the next entry (docs/protocol.md, "Implied passes")
        self.ahead: dict[tuple[int, bytes, int], dict[str, Any]] = {}  # (seq, prev, j) -> our window decision
        self.waiting_since: tuple[int, float] | None = None  # (seq, monotonic time) we began waiting there
        self.judged_false: set[bytes] = set()  # ids of evidence entries found false (judged once)
        self.false_by: dict[int, int] = {}  # seat -> false evidence entries it sent us
        self.evidence_bytes = 0  # written to the evidence file (bounded)
        self._refused_abandon = False
        self._refused_geneses: set[tuple[bytes, str]] = set()  # (genesis id, why): each refusal said once
        self.ended_words: str | None = None  # why the game ended for us, in the player's language
        self.playing: TablePlaying | None = None  # a peer at our table answered from inside a game
        self._refused_raws: dict[bytes, tuple[bytes, str]] = {}  # the last few refused: id -> (raw, sender)
        self._catch_up_first = False  # author nothing until another seat's head shows we hold all it holds
        self._secrets_saved = b""  # what the secrets file holds (written only when it changes)
        self._nursery: trio.Nursery | None = None
        self._reopened = False  # an abandonment was set aside by the silent seat's own entry: play on

    # ==================================================================================================
    # entry points

    async def run(self, *, resume: Path | None = None, on_listening: Callable[[int], Any] | None = None) -> Outcome:
        self._timing("start")
        if resume is not None:
            self._load(resume)
        async with Mesh(
            self.identity,
            self.cfg.name,
            self.cfg.table,
            host=self.cfg.host,
            port=self.cfg.port,
            peers=sorted(self.addresses),
            heartbeat=self.cfg.heartbeat,
            dead_after=self.cfg.dead_after,
            # redial a lost peer soon: a healed network rejoins well within the patience
            backoff_max=max(1.0, self.cfg.dead_after or 3 * self.cfg.heartbeat),
        ) as mesh:
            self.mesh = mesh
            if on_listening is not None:
                on_listening(mesh.port)
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(self._receive)
                nursery.start_soon(self._events)
                nursery.start_soon(self._gossip_heads)
                nursery.start_soon(self._repeat_passes)
                if self.cfg.mdns:
                    nursery.start_soon(self._discover)
                if self.machine is None:
                    await self._lobby()
                while True:
                    await self._play()
                    await self._send_head_now()  # the end: the others hear our last head now, not coalesced
                    # linger so the others get our last entries and can catch up from us, until every seat has
                    # the whole log: a peer resuming late still gets the end of the game, an abandoned one that
                    # returns just too late still learns it was abandoned (or its own entry, arriving now,
                    # beats the abandon and the game goes on: `_reopen`)
                    with trio.move_on_after(self._linger()):
                        await self._serve_until_heads_match()
                    if not self._reopened:
                        break
                    self._reopened = False
                nursery.cancel_scope.cancel()
            self._timing("sent", *(f"{k}={v}" for k, v in sorted(mesh.sent.items())))
        if self.store is not None:
            self.store.close()
        return self.outcome

    @property
    def port(self) -> int:
        assert self.mesh is not None
        return self.mesh.port

    # ==================================================================================================
    # lobby and genesis

    def _lobby_msg(self) -> dict[str, Any]:
        host = self.cfg.advertise_host or self.cfg.host
        return {
            "k": "lobby",
            "v": PROTOCOL_VERSION,
            "bundle": self.bundle,
            "addr": [host, self.port],
            "peers": sorted([h, p] for h, p in self.addresses),
            "want": self.cfg.want,
            "rules": self.cfg.profile,
        }

    async def _lobby(self) -> None:
        """Gather `want` live players, then take the genesis (ours if we sort first, else the first one's), all
        within `lobby_timeout`: a player who leaves the lobby is dropped from the roster, so a dead peer never
        hangs the table."""
        from adp2p.p2p.discovery import local_addresses  # (imported here, as in _discover: not at start-up)

        host = self.cfg.advertise_host or self.cfg.host
        hosts = local_addresses() if host in ("0.0.0.0", "") else [host]  # where others reach us, not "0.0.0.0"
        self.tell(
            "waiting", table=self.cfg.table, want=self.cfg.want, name=self.cfg.name, key=self.fp,
            where=", ".join(f"{h}:{self.port}" for h in hosts),
        )
        deadline = trio.current_time() + self.cfg.lobby_timeout
        while self.genesis_raw is None:
            if len(self.bundles) >= self.cfg.want:
                roster = sorted(self.bundles.values(), key=lambda b: open_bundle(b)[0].sign_pk)[: self.cfg.want]
                if roster[0] == self.bundle:
                    g = Genesis(
                        self.cfg.table,
                        self.cfg.profile,
                        self.cfg.goal,
                        self.cfg.round_limit,
                        tuple(roster),
                        self._new_game_id(),
                    )
                    body = encode_body(g.to_body())
                    raw = encode_entry(self.identity, g.game_id, 0, ZERO, 0, int(Kind.GENESIS), body)
                    self.genesis_raw = raw
                    await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
                    break
            if trio.current_time() >= deadline:
                raise TableError(self._lobby_timeout_line())
            if self.playing is not None and len(self.met) == 1:  # nobody waits with us: we would wait in vain
                raise TableError(
                    f"table {self.cfg.table!r} is playing a game (the player at {self.playing.address} says so); "
                    "spectating is not supported yet: choose another --table, or join when that game is over"
                )
            # the genesis can be lost (sent on a connection that closed as a duplicate) and nobody sends it again
            # while the others wait for our first entry: ask for the log from its start now and then
            with trio.move_on_at(min(deadline, trio.current_time() + 1.0)) as waited:
                await self._wait_progress()
            if waited.cancelled_caught:
                # our lobby message too: one queued on a connection that closed as a duplicate is lost, and nothing
                # else would tell that player we are here (it would refuse a genesis that seats us, and wait)
                await self.mesh.broadcast(self._lobby_msg())  # type: ignore[union-attr]
                if len(self.met) >= self.cfg.want:
                    await self.mesh.broadcast({"k": "get", "from": 0})  # type: ignore[union-attr]
        self._start(self.genesis_raw)
        # entries that came before the genesis were dropped: fetch them (no reply if there are none yet)
        await self.mesh.broadcast({"k": "get", "from": 1})  # type: ignore[union-attr]

    def _lobby_timeout_line(self) -> str:
        if len(self.bundles) < self.cfg.want:
            return (
                f"only {len(self.bundles)} of {self.cfg.want} players arrived at table {self.cfg.table!r} within "
                f"{self.cfg.lobby_timeout:.0f} s"
            )
        first = sorted(self.bundles.values(), key=lambda b: open_bundle(b)[0].sign_pk)[0]
        return (
            f"{open_bundle(first)[1]}, who starts the game at table {self.cfg.table!r}, sent no genesis we could "
            f"accept within {self.cfg.lobby_timeout:.0f} s"
        )

    def _start(self, raw: bytes) -> None:
        """Accept a genesis entry: check it, create the game directory, the log, our secrets."""
        e = decode_entry(raw)
        g = Genesis.from_body(decode_body(e.body))
        ids = g.identities()
        ids[0].verify  # noqa: B018 - the signature is checked by the log store below
        mine = [i for i, b in enumerate(g.roster) if b == self.bundle]
        if not mine:
            raise TableError("the genesis of this table does not seat us")
        if e.seq != 0 or e.author != 0 or e.kind != Kind.GENESIS or e.prev_hash != ZERO:
            raise TableError("malformed genesis entry")
        seat = mine[0]
        self.gdir = game_dir(self.cfg.data_dir, g.game_id.hex())
        self.gdir.mkdir(parents=True, exist_ok=True)
        self.secrets = self._new_secrets(seat, g)
        self._save_secrets()
        self.store = LogStore.open(self.gdir / "log", ids, g.game_id)
        if len(self.store) == 0:
            self.store.append(raw, author=0)
            self._timing(0, int(Kind.GENESIS), 0)
        self.machine = self.machine_class(g, self.secrets)
        self._open_passes(g, seat)
        self.outcome.game_id = g.game_id
        self.outcome.log_path = self.gdir / "log"
        you = notice("you_mark", self.cfg.lang)
        names = ", ".join(f"{n}{you if i == seat else ''}" for i, n in enumerate(g.names()))
        self.tell("begins", game=g.game_id.hex()[:8], rules=g.profile, players=names, log=self.gdir / "log")

    def _open_passes(self, g: Genesis, seat: int) -> None:
        """Our pass tokens: those signed before a crash are read back (we never act where we passed)."""
        assert self.gdir is not None
        self.passes = PassPool(g.game_id, g.identities(), seat, self.gdir / "passes")
        self.passes.load(self.identity)

    def _new_game_id(self) -> bytes:
        return pysecrets.token_bytes(16)

    def _new_secrets(self, seat: int, g: Genesis) -> SeatSecrets:
        return SeatSecrets.generate(seat, self.identity, g.game_id)

    def _save_secrets(self) -> None:
        """Write our secrets (fsynced, 0600) if they changed since the last write: always before the entry that
        commits to them is signed, so a crash or a full disk can never leave a logged entry without its secret."""
        assert self.gdir is not None and self.secrets is not None
        raw = self.secrets.to_bytes()
        if raw == self._secrets_saved:
            return
        try:
            write_secret(self.gdir / "secrets", raw)
        except OSError as exc:
            raise TableError(
                f"cannot write {self.gdir / 'secrets'} ({exc.strerror or exc}); nothing was sent — {_remedy(exc)}"
                f"resume with: {resume_command(self.gdir)}"
            ) from None
        self._secrets_saved = raw

    def _open_repaired(self, path: Path, g: Genesis) -> LogStore:
        """Open our log; if it is damaged after the genesis (a bit flip, a zero-filled record), keep the whole
        file aside as `<log>.damaged` (never deleted), cut the log back to its last valid entry, and let the
        catch-up fetch the rest from the other players (every entry is re-verified on arrival)."""
        try:
            return LogStore.open(path, g.identities(), g.game_id)
        except LogCorrupt as exc:
            if exc.seq < 1:
                raise
            aside = path.with_name(path.name + DAMAGED_SUFFIX)
            data = path.read_bytes()
            with open(aside, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            with open(path, "r+b") as fh:
                fh.truncate(exc.offset)
                fh.flush()
                os.fsync(fh.fileno())
            self.tell("log_damaged", seq=exc.seq, aside=aside, back=exc.seq - 1)
            self._catch_up_first = True  # we may have authored entries after the cut: never sign them again
            return LogStore.open(path, g.identities(), g.game_id)

    def _load(self, gdir: Path) -> None:
        """Resume: reload this seat's secrets and the log, and refold it."""
        try:
            sec = SeatSecrets.from_bytes(read_secret(gdir / "secrets"))
        except (OSError, ValueError) as exc:  # SecretsFileError, InsecureSecretFile, a missing file
            why = (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)
            raise TableError(f"cannot resume from {gdir / 'secrets'}: {why}") from None
        self.identity = sec.identity
        self.bundle = make_bundle(self.identity, self.cfg.name)
        self.fp = self.identity.public.fingerprint()
        try:
            first = _first_record(gdir / "log")
            e = decode_entry(first)
            g = Genesis.from_body(decode_body(e.body))
        except (OSError, ValueError, CryptoError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: its genesis does not read ({exc})") from None
        if not 0 <= sec.seat < g.n or g.identities()[sec.seat] != sec.identity.public:
            raise TableError(f"cannot resume: {gdir / 'secrets'} is not for a seat of the game in {gdir / 'log'}")
        if g.roster[sec.seat] != self.bundle:
            # the name may differ from the one given now: take the roster's
            self.cfg.name = open_bundle(g.roster[sec.seat])[1]
            self.bundle = make_bundle(self.identity, self.cfg.name)
        self.cfg.table = g.table
        self.gdir = gdir
        self.secrets = sec
        self._secrets_saved = sec.to_bytes()
        try:
            self.store = self._open_repaired(gdir / "log", g)
            self.machine = self._fold(len(self.store))
            self._open_passes(g, sec.seat)
        except (OSError, LogError, CryptoError, ProtocolError, BodyError) as exc:
            raise TableError(f"cannot resume from {gdir / 'log'}: {_short(str(exc))}") from None
        self.genesis_raw = first
        self.outcome.game_id = g.game_id
        self.outcome.log_path = gdir / "log"
        self.tell("resumed", game=g.game_id.hex()[:8], seq=len(self.store), name=self.cfg.name)
        if self.machine.abandoned is not None:  # the game ended while we were away: say so, as the others did
            self._abandoned(self.store[len(self.store) - 1])
        # the history before the crash was shown then: recap only its last lines, not the whole game again
        hist = self.machine.state.history
        self.shown = max(0, len(hist) - RESUME_RECAP)
        if self.shown:
            self.tell("recap", n=self.shown)

    # ==================================================================================================
    # play

    async def _play(self) -> None:
        assert self.machine is not None and self.store is not None and self.mesh is not None
        # the game has begun: only its seated players may connect (outsiders cannot hold sockets or slots)
        self.mesh.restrict({i.fingerprint() for i in self.machine.ids} - {self.fp})
        last_wait: tuple[int, int] | None = None  # (seq, seat) we last timed out waiting for
        silent_rounds = 0  # how many abandon_after periods in a row that seat has been silent there
        while True:
            self._show()
            self._drain_pending()
            self._post_pending_evidence()
            await self._flush()
            m = self.machine  # evidence may have replaced the fold: read it afresh every time
            if self.ended or m.complete or m.abandoned is not None:
                break
            seq, prev = len(self.store), self.store.head_id
            trial, toks = self.passes.chain(m, seq, prev) if self.passes is not None else (m, [])
            duty = trial.duty()  # who is due after the passes we hold tokens for
            assert duty is not None
            self._progress_line(duty)
            if self.waiting_since is None or self.waiting_since[0] != len(self.store):
                self.waiting_since = (len(self.store), time.monotonic())  # when this seq's duty began, here
                self.held_abandons.clear()  # abandons held for an earlier seq are moot now
            if duty.seat == m.seat and self._catch_up_first:
                if self.heads and max(self.heads.values()) <= len(self.store):
                    self._catch_up_first = False  # caught up with the table: what is due now is really ours
                else:
                    with trio.move_on_after(self.cfg.heartbeat):
                        await self._wait_progress()
                    continue
            if duty.seat == m.seat:
                chooser: Chooser | None = None
                if duty.kind == Kind.EVENT:
                    if trial.window_actor() == m.seat and (seq, prev, len(toks)) not in self.ahead:
                        await self._decide_window(m, trial, len(toks))  # a pass may go out as a token
                        continue
                    ev = self.ahead.get((seq, prev, len(toks)))
                    if ev is None:
                        with trio.CancelScope() as self._deciding:
                            ev = await self._decide(trial)
                        if self._deciding.cancelled_caught or self._moved(m, seq):
                            continue  # the game moved on while we decided (given up on us, or evidence came)
                    chooser = _fixed(ev)  # decided above, off the trio thread
                out = trial.author_next(chooser)
                if out is None:  # nothing we can author (a machine that holds back): wait for news
                    await self._wait_progress()
                    continue
                kind, body = out
                if toks and kind == Kind.EVENT:  # (the chain only ever ends where an event is due)
                    body["passes"] = toks
                self._save_secrets()  # the witness, salts or keys this entry commits to: on disk before it exists
                raw = encode_entry(
                    self.identity,
                    m.game_id,
                    len(self.store),
                    self.store.head_id,
                    m.seat,
                    int(kind),
                    encode_body(body),
                )
                try:
                    self._accept(raw, own=True)
                except OSError as exc:
                    raise TableError(
                        f"cannot append to {self.store.path} ({exc.strerror or exc}); nothing was sent — resume "
                        f"with: {resume_command(self.gdir)}"
                    ) from None
                await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
                await self._send_head()
                continue
            if m.prepare_shuffle():
                continue  # our masks for a shuffle step of ours to come, made while we wait for others
            if await self._look_ahead(m, trial, len(toks)):
                continue  # we decided a window of ours ahead of time: look again
            waited = (len(self.store), duty.seat, len(toks))
            if not await self._wait_awake(self.cfg.abandon_after) and not self.pending:
                # a last look before giving up on that seat: what it sent may still wait in our buffers (after
                # this process was suspended, every timer fires at once, before the buffered entries are read)
                with trio.move_on_after(max(0.2, self.cfg.heartbeat)) as grace:
                    await self._wait_progress()
                if not grace.cancelled_caught or self.pending or len(self.store) != waited[0]:
                    continue
                silent_rounds = silent_rounds + 1 if waited == last_wait else 1
                last_wait = waited
                await self._abandon(duty.seat, silent_rounds, toks)
        await self._flush()
        self._finish()

    def _drain_pending(self) -> None:
        assert self.store is not None
        while self.store.next_seq in self.pending and not self.ended:
            raw = self.pending.pop(self.store.next_seq)
            self.pending_bytes -= len(raw)
            self._take(raw)
        if not self.pending:
            self.pending_bytes = 0

    def _pend(self, seq: int, raw: bytes) -> bool:
        """Keep a signed entry received ahead of our log, within bounds (PENDING_MAX entries and
        PENDING_MAX_BYTES bytes; the nearest seqs are kept when full). False if it was not kept."""
        if seq in self.pending:
            return False
        if len(self.pending) >= PENDING_MAX or self.pending_bytes + len(raw) > PENDING_MAX_BYTES:
            far = max(self.pending)
            if far <= seq:
                return False
            self.pending_bytes -= len(self.pending.pop(far))
        self.pending[seq] = raw
        self.pending_bytes += len(raw)
        return True

    def _take(self, raw: bytes, *, sender: str | None = None) -> None:
        """An entry for the next seq from another peer: an abandon is weighed against our own clock first."""
        m = self.machine
        assert m is not None and self.store is not None
        e = decode_entry(raw)
        if e.kind == Kind.ABANDON and e.author != m.seat and not self.ended:
            try:
                self.store.check(raw)
            except (LogError, CryptoError):
                self._accept(raw, sender=sender)  # says why it is rejected
                return
            self._hold_abandon(raw, sender or "a peer")
            return
        self._accept(raw, sender=sender)

    def _accept(self, raw: bytes, *, own: bool = False, sender: str | None = None) -> None:
        """Check, apply and persist one entry at the next seq (persisted before anything acts on it). An entry
        that breaks a rule is answered with evidence in its place; evidence at a seq we hold is weighed."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        try:
            e = store.check(raw)
        except DuplicateEntry:
            return
        except LogEquivocation as exc:
            with contextlib.suppress(LogEquivocation):  # check() only detects; append() saves the proof
                store.append(raw)
            self.proofs_to_share.append((exc.proof.raw_a, exc.proof.raw_b))
            if not self.ended:
                self.tell("equivocation", who=self._who(exc.seat), seq=exc.seq, path=f"{store.path}.equivocations")
                body = {"what": "equivocation", "a": exc.proof.raw_a, "b": exc.proof.raw_b}
                self._post_evidence(exc.seq, body)
            return
        except (LogError, CryptoError) as exc:
            if isinstance(exc, ConflictingEntry) and (
                self._weigh(raw) or self._weigh_abandon(raw) or self._pass_conflict(raw)
            ):
                return
            if self._stale(raw):
                log.info("entry on another branch%s: %s", f" from {sender}" if sender else "", exc)
                return  # it builds on an entry we do not hold (yet): the caller fetches what it needs
            where = notice("from_who", self.cfg.lang, who=sender) if sender else ""
            log.warning("rejected entry%s: %s", where, exc)
            self.tell("rejected_entry", where=where, why=_short(str(exc)))
            return
        if self.ended:
            return  # the game is over: the log stays as the outcome describes it
        if e.kind == Kind.EVIDENCE and (e.id in self.judged_false or self.false_by.get(e.author, 0) >= MAX_FALSE):
            return  # judged false before, or a seat that keeps sending false evidence: not refolded again
        token = None if own else self._passed_there(e)
        if token is not None:  # its author passed at the very decision this entry takes: proof against it
            self.tell("pass_then_act", who=self._who(e.author))
            self._post_evidence(e.seq, {"what": "pass", "raw": raw, "token": token})
            return
        before = m.snapshot() if e.kind == Kind.EVIDENCE else None
        try:
            m.apply_entry(e)
        except (ProtocolError, BodyError) as exc:
            seat = getattr(exc, "seat", e.author)
            self.machine = m = self._fold(len(store), fresh=True)  # a failed entry leaves nothing behind
            if e.kind == Kind.EVIDENCE:
                self._judged_false(e)
            self._keep_evidence(raw, str(exc))
            if seat == e.author and not own and m.seat is not None and seat != m.seat:
                why = exc.msg if isinstance(exc, ProtocolError) else str(exc)
                self.tell("broke_rules", who=self._who(seat), why=why)
                self._post_evidence(e.seq, m.evidence_for_entry(raw, exc if isinstance(exc, ProtocolError) else None))
            else:
                self._end_verdict(f"{self._who(e.author if seat is None else seat)} broke the rules: {exc}")
            return
        # our own entries are on disk (fsync) before they leave; another's is written now and made durable by our
        # next fsync (one file): after a power loss we fetch it again from the table, whose log holds it
        store.append(raw, author=e.author, checked=e, durable=own)
        if self.passes is not None:
            self.passes.prune(len(store))
            self.ahead = {k: v for k, v in self.ahead.items() if k[0] >= len(store)}
        if before is not None:
            self.before_evidence[e.seq] = before
        if len(store) - max(self.checkpoints, default=0) >= max(CHECKPOINT_EVERY, len(store) // 4):
            # a snapshot costs time and memory in proportion to the game so far: space them out as it grows, and
            # keep the last few (a refold for an older seq starts from the genesis)
            self.checkpoints[len(store)] = m.snapshot()
            if len(self.checkpoints) > MAX_CHECKPOINTS:
                del self.checkpoints[min(self.checkpoints)]
        self._timing(e.seq, e.kind, e.author)
        if m.abandoned is not None:
            self._abandoned(e)
        self._say_verdict()
        self.progress.set()

    # -- evidence ------------------------------------------------------------------------------------------
    def _post_pending_evidence(self) -> None:
        """Post the proof our machine's immediate checks found (once; not after a verdict stopped the game)."""
        m = self.machine
        if m is None or self.ended or m.verdict is not None or m.seat is None:
            return
        body = m.pending_evidence()
        if body is not None:
            self._post_evidence(len(self.store), body)  # type: ignore[arg-type]

    def _post_evidence(self, at: int, body: dict[str, Any]) -> None:
        """Author an evidence entry at seq `at` (the seq of the entry it replaces, or the next one), apply it to
        a fold of the log before `at`, set our own entries from `at` on aside, and queue it for broadcast."""
        m, store = self.machine, self.store
        assert m is not None and store is not None and m.seat is not None
        if at < len(store) and store[at].author == m.seat:
            log.info("not posting evidence at seq %d over our own entry there", at)
            return
        trial = self._fold(at)
        raw = encode_entry(
            self.identity, m.game_id, at, store[at - 1].id, m.seat, int(Kind.EVIDENCE), encode_body(body)
        )
        before = trial.snapshot()
        try:
            trial.apply(m.seat, Kind.EVIDENCE, body, prev=store[at - 1].id)
        except ProtocolError as exc:  # our own proof does not hold: never post it (and say so)
            log.error("own evidence at seq %d does not verify: %s", at, exc)
            self.tell("cannot_prove", seq=at, why=exc)
            return
        self._adopt(at, raw, trial, before)
        self.outbox.append(raw)

    def _passed_there(self, e: Any) -> bytes | None:
        """The token we hold by which `e`'s author passed at the decision `e` takes (its count of passes)."""
        if self.passes is None or e.kind not in (Kind.EVENT, Kind.ABANDON):
            return None
        k = _passes_of(e)
        if k is None or _plain_pass(e):
            return None  # (a plain pass where it passed by token is the same answer: rule 3 of "Abandonment")
        return self.passes.get(e.seq, e.prev_hash, len(k), e.author)

    def _pass_conflict(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one after the same entry: if one of the two carries a token
        by which the other's author passed at the decision it took instead, post that proof (at that seq, or
        after it if the entry we hold there is our own). True if posted."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        try:
            e = decode_entry(raw)
            self._check_signed(e)
        except (CryptoError, ValueError, TypeError):
            return False
        if self.ended or not 0 < e.seq < len(store) or store[e.seq - 1].id != e.prev_hash:
            return False
        held = store[e.seq]
        for acted, other in ((e, held), (held, e)):
            took, carried = _passes_of(acted), _passes_of(other)
            if acted.kind not in (Kind.EVENT, Kind.ABANDON) or took is None or not carried:
                continue
            if len(carried) <= len(took) or not isinstance(token := carried[len(took)], bytes):
                continue
            try:
                verify_pass(m.ids[acted.author], token, m.game_id, e.seq, e.prev_hash, len(took))
            except CryptoError:
                continue
            if _plain_pass(acted):  # the same pass twice, as a token and as an entry: the one further along wins
                return self._further_along(held, e, other)
            self.tell("pass_then_act", who=self._who(acted.author))
            self._post_evidence(e.seq if held.author != m.seat else len(store), {
                "what": "pass", "raw": acted.raw, "token": token,
            })
            return True
        return False

    def _further_along(self, held: Any, e: Any, winner: Any) -> bool:
        """At one seq, a seat's plain pass entry (written when an abandon named it) and an entry that carries
        that seat's token for the same decision (written by one who had the token): both say the seat passed; the
        one that carries the token is further along and wins (docs/protocol.md, "Implied passes")."""
        store = self.store
        assert store is not None
        if winner is held:
            self.outbox.append(held.raw)  # ours wins: make sure the other side gets it
            return True
        trial = self._take_over(e)
        if trial is None:
            return False
        self._deciding.cancel()
        self.progress.set()
        return True

    def _take_over(self, e: Any) -> Machine | None:
        """Put entry `e` at its seq in place of what we hold from there on (set aside in `<log>.superseded`), and
        take the fold with it applied; None (nothing changed) if it is not valid there."""
        store = self.store
        assert store is not None
        trial = self._fold(e.seq)
        try:
            trial.apply_entry(e)
        except (ProtocolError, BodyError):
            return None
        gone = store.supersede(e.seq)
        store.append(e.raw, author=e.author)
        self.superseded.update(x.id for x in gone)
        self.checkpoints = {k: v for k, v in self.checkpoints.items() if k <= e.seq}
        self.before_evidence = {k: v for k, v in self.before_evidence.items() if k < e.seq}
        self.pending.clear()
        self.pending_bytes = 0
        self.machine = trial
        self._timing(e.seq, e.kind, e.author)
        return trial

    def _weigh(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one (by another author). If it is evidence, it takes
        precedence over a non-evidence entry, and over evidence by a higher seat; the loser is set aside. True
        if the entry was dealt with here (adopted, or quietly outweighed, or false evidence kept and named)."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        if e.kind != Kind.EVIDENCE or self.ended or not 0 < e.seq < len(store):
            return False
        if store[e.seq - 1].id != e.prev_hash:
            return False  # another branch further back: fetched and weighed there
        if e.id in self.judged_false or self.false_by.get(e.author, 0) >= MAX_FALSE:
            return True  # judged false before, or a seat that keeps sending false evidence: not refolded again
        held = store[e.seq]
        if held.kind == Kind.EVIDENCE and held.author < e.author:
            self.outbox.append(held.raw)  # ours wins: make sure its sender gets it
            return True
        trial = self._fold(e.seq)
        before = trial.snapshot()
        try:
            trial.apply_entry(e)
        except (ProtocolError, BodyError) as exc:
            self._judged_false(e)
            self._keep_evidence(raw, f"false evidence at seq {e.seq}: {exc}")
            self.tell("rejected_evidence", who=self._who(e.author), seq=e.seq, why=_short(str(exc)))
            return True
        self._adopt(e.seq, raw, trial, before)
        return True

    def _adopt(self, at: int, raw: bytes, trial: Machine, before: Machine) -> None:
        """Put the evidence entry `raw` at seq `at` (setting aside what we held from there on) and take
        `trial`, the fold with it applied, as our machine."""
        store = self.store
        assert store is not None
        gone = store.supersede(at) if at < len(store) else []
        store.append(raw)
        self._timing(at, int(Kind.EVIDENCE), decode_entry(raw).author)
        self.superseded.update(x.id for x in gone)
        self.checkpoints = {k: v for k, v in self.checkpoints.items() if k <= at}
        self.before_evidence = {k: v for k, v in self.before_evidence.items() if k < at}
        self.before_evidence[at] = before
        self.pending.clear()
        self.pending_bytes = 0
        self.machine = trial
        self._deciding.cancel()  # a decision in progress was for the fold we just left
        self.shown = min(self.shown, len(trial.state.history))
        if gone:
            self.tell("set_aside", n=len(gone), path=f"{store.path}{SUPERSEDED_SUFFIX}")
        self._say_verdict()
        self.progress.set()

    def _fold(self, at: int, *, fresh: bool = False) -> Machine:
        """A machine folded over our log before seq `at`: from the snapshot kept there, or our machine (unless
        `fresh`: it may hold a failed entry's traces), or the nearest checkpoint before `at` (one every
        CHECKPOINT_EVERY entries or a quarter of the log, whichever is more)."""
        assert self.store is not None and self.secrets is not None
        snap = self.before_evidence.get(at)
        if snap is not None:
            return snap.snapshot()
        if self.machine is not None and at == len(self.store) and not fresh:
            return self.machine.snapshot()
        start = max((k for k in self.checkpoints if k <= at), default=0)
        if start:
            m = self.checkpoints[start].snapshot()
        else:
            g = Genesis.from_body(decode_body(self.store[0].body))
            m = self.machine_class(g, self.secrets)
            start = 1
        for entry in self.store.entries()[start:at]:
            m.apply_entry(entry)
        return m

    def _judged_false(self, e: Any) -> None:
        """Remember an evidence entry found false (so it is never weighed again) and count its author's."""
        if len(self.judged_false) < 4096:
            self.judged_false.add(e.id)
        self.false_by[e.author] = self.false_by.get(e.author, 0) + 1

    def _stale(self, raw: bytes) -> bool:
        """A well-signed entry of this game on another branch than ours (it follows an entry set aside, or one
        we have not fetched yet), or at a seq that evidence took: no news for the player."""
        store = self.store
        assert store is not None
        try:
            e = decode_entry(raw)
            self._check_signed(e)
        except (CryptoError, ValueError, TypeError):
            return False
        if e.prev_hash in self.superseded or e.id in self.superseded:
            return True
        if not 0 < e.seq <= len(store):
            return False
        if store[e.seq - 1].id != e.prev_hash:
            return True  # another branch (fetched and weighed where it parts from ours)
        return e.seq < len(store) and store[e.seq].kind == Kind.EVIDENCE  # evidence took that seq

    def _say_verdict(self) -> None:
        m = self.machine
        if m is None or m.verdict is None or self._verdict_said or self.ended:
            return
        self._verdict_said = True
        v = m.verdict
        accuser = next((a for seq, a, w in m.evidence_seen if w is v), None)
        lang = self.cfg.lang
        proof = notice("proof_by", lang, who=self._who(accuser)) if accuser is not None else ""
        who = self._who(v.seat) if v.seat is not None else notice("nobody_named", lang)
        self.tell("cheating", who=who, why=v.msg, proof=proof)
        self.tell("stops")

    async def _flush(self) -> None:
        """Broadcast what was authored or re-sent outside the play loop (evidence), then our head."""
        if not self.outbox or self.mesh is None:
            return
        out, self.outbox = self.outbox, []
        for raw in out:
            await self.mesh.broadcast({"k": "entry", "raw": raw})
        await self._send_head()

    def _timing(self, *fields: object) -> None:
        """With `cfg.timings`: one line per entry appended (seq kind author time.monotonic() time.process_time()),
        for benchmarks; time.monotonic() is one clock for every process on a machine, process_time this process's
        CPU."""
        if self.cfg.timings is not None:
            with open(self.cfg.timings, "a") as fh:
                fh.write(" ".join(map(str, fields)) + f" {time.monotonic():.6f} {time.process_time():.6f}\n")

    def _progress_line(self, duty: Any) -> None:
        """One line when setup moves on (keys, shuffle steps, the deal), so nobody wonders what is going on."""
        m = self.machine
        assert m is not None
        key = (duty.kind, duty.seat if duty.kind in (Kind.SHUFFLE,) else -1)
        if key == self._last_progress:
            return
        self._last_progress = key
        if duty.kind == Kind.JOIN and duty.seat == 0:
            self.tell("setup_keys")
        elif duty.kind == Kind.SHUFFLE:
            if duty.seat == m.seat:
                self.tell("shuffling_you", k=duty.seat + 1, n=m.n)
            else:
                self.tell("shuffling", who=m.names[duty.seat], k=duty.seat + 1, n=m.n)
        elif duty.kind == Kind.SHARES and m.state.turn_no == 0 and not self._dealt_said:
            self._dealt_said = True
            self.tell("dealing")

    async def _decide(self, m: Machine) -> dict[str, Any]:
        """Our engine decision: the chooser (a bot, or a person at a prompt) runs in a worker thread so the
        mesh keeps answering heartbeats; a short think delay hides how fast we decided (no tells)."""
        assert m.seat is not None
        seen = view(m.state, m.seat)
        options = legal(seen, m.seat)
        delay = self.cfg.think()
        if delay > 0:
            await trio.sleep(delay)
        return await trio.to_thread.run_sync(self.choose, seen, m.seat, options, abandon_on_cancel=True)

    def _moved(self, m: Machine, seq: int) -> bool:
        """The game moved on while we decided at `seq` on fold `m` (an entry came, evidence, the end)."""
        return bool(self.ended) or self.machine is not m or self.store is None or len(self.store) != seq

    async def _decide_window(self, m: Machine, at: Machine, j: int) -> None:
        """Our decision j in a reaction window, on `at` (our fold with the passes before it applied, held or
        assumed): a pass followed by another decision goes out as a token (on disk first); anything else waits in
        `ahead` until the passes before it have come, and is then written as our entry."""
        assert self.store is not None and self.passes is not None and m.seat is not None and self.mesh is not None
        seq, prev = len(self.store), self.store.head_id
        with trio.CancelScope() as self._deciding:
            ev = await self._decide(at)
        if self._deciding.cancelled_caught or self._moved(m, seq):
            return
        if ev.get("t") == "pass" and not self._abandon_names_me(seq, prev, j):
            after = at.fork()
            after.pass_window()
            nxt = after.duty()
            if nxt is not None and nxt.kind == Kind.EVENT:  # someone's next entry can carry it
                token = self.passes.sign(self.identity, seq, prev, j)
                if nxt.seat != m.seat:
                    await self.mesh.broadcast(
                        {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token}
                    )
                self.progress.set()
                return
        self.ahead[(seq, prev, j)] = ev

    def _abandon_names_me(self, seq: int, prev: bytes, j: int) -> bool:
        """A held abandon names us at decision j of this point: our answer there must be an entry (which beats
        it, rule 3 of "Abandonment"), never a token (which does not)."""
        m = self.machine
        for raw in self.held_abandons.values():
            e = decode_entry(raw)
            took = _passes_of(e)
            if (
                m is not None
                and e.seq == seq
                and e.prev_hash == prev
                and took is not None
                and len(took) == j
                and decode_body(e.body).get("silent") == m.seat
            ):
                return True
        return False

    async def _look_ahead(self, m: Machine, at: Machine, j: int) -> bool:
        """While a window waits for other seats, decide our own later decisions in it now, as if those before us
        pass (the only case in which the rules would ask us): every seat of a window decides at once. True if we
        decided one (the caller looks again)."""
        if self.passes is None or m.seat is None or self.store is None or at.window_actor() is None:
            return False
        seq, prev = len(self.store), self.store.head_id
        sim: Machine | None = None
        while (who := (sim or at).window_actor()) is not None:
            if who == m.seat and not self.passes.signed(seq, prev, j):
                if (seq, prev, j) in self.ahead:
                    return False  # decided: what follows depends on it
                await self._decide_window(m, sim or at, j)
                return True
            if sim is None:
                sim = at.fork()
            sim.pass_window()
            j += 1
        return False

    async def _abandon(self, silent: int, rounds: int = 1, passes: list[bytes] | None = None) -> None:
        """The author of the next entry stayed silent for `rounds` periods of ours. The lowest other seat may end
        the game after one period, naming it; if that seat is gone too, after each further period the next
        lowest one may (so the game always ends). An abandon another seat sent and that is due by our own clock
        now is applied as it is; otherwise, if it is ours to author, we author it."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        allowed = _abandoners(m.n, silent, rounds)
        held = sorted(a for a, raw in self.held_abandons.items() if a in allowed and self._names(raw) == silent)
        if held:
            raw = self.held_abandons.pop(held[0])
            self._accept(raw)
            await self._send_head()
        elif m.seat in allowed and not self._no_majority(silent):
            body: dict[str, Any] = {"silent": silent, "seq": len(store)}
            if passes:
                body["passes"] = passes
            raw = encode_entry(
                self.identity,
                m.game_id,
                len(store),
                store.head_id,
                m.seat,
                int(Kind.ABANDON),
                encode_body(body),
            )
            self._accept(raw, own=True)
            await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]
            await self._send_head()
        elif m.seat in allowed and rounds >= CUT_OFF_ROUNDS:
            # too few seats could hear us: perhaps the table already ended without us (we were the one given up
            # on), or the network is cut in halves — never name anyone from here; leave, and let a resume catch up
            self.outcome.lost_contact = True
            self._end("lost_contact", seq=len(store), resume=resume_command(self.gdir))
            self._deciding.cancel()
            self.progress.set()
        else:
            why = notice("too_few_connected", self.cfg.lang) if m.seat in allowed else ""
            self.tell("waiting_for", who=self._who(silent), secs=f"{self.cfg.abandon_after:.0f}", why=why)

    def _no_majority(self, silent: int) -> bool:
        """At a table of 3 or more, an abandon needs a strict majority of the seats behind it: its author and
        the seats connected to it now, the silent one not counted. A table cut in halves by the network cannot
        give up on either half (each waits, and converges when the network heals), and a peer left alone (we
        may be the one the others gave up on) names nobody. At a table of two the other seat may always."""
        m = self.machine
        if m is None or self.mesh is None or m.n <= 2:
            return False
        up = set(self.mesh.peers)
        with_us = 1 + sum(1 for s in range(m.n) if s not in (silent, m.seat) and m.ids[s].fingerprint() in up)
        return 2 * with_us <= m.n

    def _hold_abandon(self, raw: bytes, label: str) -> None:
        """An abandon for the seq we are at, from another peer. Checked at once (a malformed one, one naming a
        seat not on duty or its own author, is posted as evidence in its place); a valid one is applied only
        when our own clock says its author may have written it (see `_abandon`): until then it is held, and an
        entry by the seat it names, arriving meanwhile, simply goes in (the abandon is dropped)."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        try:
            m.snapshot().apply_entry(e)
        except (ProtocolError, BodyError):
            self._accept(raw, sender=label)  # rejected there: kept and posted as evidence in its place
            return
        silent = decode_body(e.body)["silent"]
        took = _passes_of(e) or []
        if self.passes is not None and took:  # its tokens are good (checked above): ours to carry too
            sim = m.fork()
            sim.prev = e.prev_hash
            for j, tok in enumerate(took):
                who = sim.window_actor()
                if who is None or not isinstance(tok, bytes):
                    break
                self.passes.add(e.seq, e.prev_hash, j, who, tok, len(store))
                sim.pass_window()
            self.progress.set()
        token = self.passes.get(e.seq, e.prev_hash, len(took), silent) if self.passes is not None else None
        if token is not None and self.mesh is not None and self._nursery is not None:
            # the seat it names passed there (we hold its token; its author did not get it): never applied here.
            # If that seat is us, our pass goes in as our own entry at that seq, which beats the abandon everywhere
            # (rule 3 of "Abandonment"); else the token is relayed, so that seat's pass reaches the table
            if silent == m.seat:
                log.info("abandon by seat %d names us, who passed there: our pass goes in as an entry", e.author + 1)
                body: dict[str, Any] = {"ev": {"t": "pass", "p": silent}}
                if took:
                    body["passes"] = took
                own = encode_entry(
                    self.identity, m.game_id, e.seq, e.prev_hash, silent, int(Kind.EVENT), encode_body(body)
                )
                self._accept(own, own=True)
                self.outbox.append(own)
                return
            log.info("abandon by seat %d names seat %d, which passed there: token relayed", e.author + 1, silent + 1)
            msg = {"k": "pass", "seq": e.seq, "prev": e.prev_hash, "j": len(took), "seat": silent, "sig": token}
            self._nursery.start_soon(self.mesh.broadcast, msg)
            return
        if self.waiting_since is None or self.waiting_since[0] != e.seq:
            self.waiting_since = (e.seq, time.monotonic())
        waited = time.monotonic() - self.waiting_since[1]
        rounds = int(waited // self.cfg.abandon_after) if self.cfg.abandon_after > 0 else m.n
        if e.author in _abandoners(m.n, silent, rounds):
            self._accept(raw, sender=label)
            return
        if e.author not in self.held_abandons:
            self.tell("gave_up_early", who=self._who(e.author), silent=self._who(silent), secs=f"{waited:.0f}")
            if silent == m.seat and self._nursery is not None:  # we are deciding: no wait loop of ours runs
                rank = _abandoners(m.n, silent, m.n).index(e.author) + 1
                self._nursery.start_soon(self._due_for_me, e.seq, rank * self.cfg.abandon_after - waited)
        self.held_abandons[e.author] = raw

    async def _due_for_me(self, seq: int, after: float) -> None:
        """An abandon naming us, held while we decide: once our own clock says its author waited long enough
        and we still have not answered at that seq, it is applied (our decision is then cancelled)."""
        await trio.sleep(max(0.0, after))
        store = self.store
        if store is None or len(store) != seq or self.ended:
            return
        m = self.machine
        held = sorted(a for a, raw in self.held_abandons.items() if m is not None and self._names(raw) == m.seat)
        if held:
            self._accept(self.held_abandons.pop(held[0]))
            await self._send_head()

    def _names(self, raw: bytes) -> int | None:
        """The seat a held abandon names, unless that seat passed there (we hold its token: it answered)."""
        e = decode_entry(raw)
        silent = decode_body(e.body)["silent"]
        took = _passes_of(e) or []
        if self.passes is not None and self.passes.get(e.seq, e.prev_hash, len(took), silent) is not None:
            return None
        return silent

    def _abandoned(self, e: Any) -> None:
        """An abandon entry went into our log: the game ends there, naming the silent seat; what was reached
        before stands (a finished game keeps its winners)."""
        m = self.machine
        assert m is not None and m.abandoned is not None
        silent = m.abandoned
        self.outcome.abandoned_by = m.names[silent]
        self._end("abandoned", who=lambda lang: self._who(silent, lang), seq=e.seq)
        self._deciding.cancel()
        self.progress.set()

    def _weigh_abandon(self, raw: bytes) -> bool:
        """An entry at a seq where we hold another one, where an abandon is involved. The silent seat's own valid
        entry beats an abandon naming it (the abandon is set aside and the game goes on); between two abandons
        the lower author wins; an abandon over the silent seat's own entry is refused (its author may simply not
        have had it yet: nobody is named). True if dealt with here."""
        m, store = self.machine, self.store
        assert m is not None and store is not None
        e = decode_entry(raw)
        if not 0 < e.seq < len(store) or store[e.seq - 1].id != e.prev_hash:
            return False
        held = store[e.seq]
        if held.kind != Kind.ABANDON and e.kind != Kind.ABANDON:
            return False
        if e.kind == Kind.ABANDON and held.kind != Kind.ABANDON:
            if not self._refused_abandon:
                self._refused_abandon = True
                self.tell("refused_abandon", who=self._who(e.author))
            return True
        try:
            silent = decode_body(held.body)["silent"]
        except (BodyError, KeyError):
            return False
        wins = e.author == silent if e.kind != Kind.ABANDON else e.author < held.author
        if not wins:
            return e.kind == Kind.ABANDON  # a higher abandon: no news
        trial = self._take_over(e)
        if trial is None:
            return False  # not valid there: the caller rejects it as usual
        if trial.abandoned is not None:
            self._abandoned(e)
        else:
            self.tell("answered_after_all", who=self._who(e.author), path=f"{store.path}{SUPERSEDED_SUFFIX}")
            self.ended = self.ended_words = None
            self.outcome = Outcome(game_id=self.outcome.game_id, log_path=self.outcome.log_path)
            self._reopened = True
        self.outbox.append(raw)  # so every peer that holds the abandon gets it too
        self.progress.set()
        return True

    def _end_verdict(self, text: str) -> None:
        self.ended = self.ended_words = text
        self._deciding.cancel()
        self.outcome.verdict = text
        self.say(text)
        self.progress.set()

    def _keep_evidence(self, raw: bytes, reason: str) -> None:
        """Keep a rejected entry and why in the game's evidence file (bounded: MAX_EVIDENCE_BYTES a game)."""
        if self.gdir is None:
            return
        record = len(raw).to_bytes(4, "big") + raw + reason.encode()[:1000] + b"\n"
        if self.evidence_bytes + len(record) > MAX_EVIDENCE_BYTES:
            return
        self.evidence_bytes += len(record)
        with open(self.gdir / "evidence", "ab") as fh:
            fh.write(record)

    def tell(self, what: str, /, **args: Any) -> None:
        """Tell the player one notice (p2p/notices.py) in its language."""
        self.say(notice(what, self.cfg.lang, **args))

    def _result_words(self, line: str) -> str:
        """The outcome line in the player's language where the game simply ended (else the line as it is)."""
        m = self.machine
        if self.cfg.lang == "en" or m is None or not m.state.over or m.verdict is not None:
            return line
        res = result(m.state)
        if res.reason is None or line != _names(m.result_line(), m.names):
            return line
        who = ", ".join(m.names[w] for w in res.winners)
        return notice("result", self.cfg.lang, who=who, why=narrate(res.reason, self.cfg.lang, m.names))

    def _who(self, seat: int | None, lang: str | None = None) -> str:
        m, lang = self.machine, lang or self.cfg.lang
        if seat is None or m is None:
            return notice("someone", lang)
        return notice("who", lang, name=m.names[seat], seat=seat + 1, key=m.ids[seat].fingerprint())

    def _end(self, what: str, **args: Any) -> None:
        """The game ends here for us, and why: `ended` in English (the outcome), `ended_words` in the player's
        language (an argument may be a function of the language)."""
        def words(lang: str) -> str:
            return notice(what, lang, **{k: v(lang) if callable(v) else v for k, v in args.items()})

        self.ended, self.ended_words = words("en"), words(self.cfg.lang)

    def _finish(self) -> None:
        m, store = self.machine, self.store
        assert m is not None and store is not None
        o = self.outcome
        o.entries = len(store)
        o.head = store.head_id
        if m.verdict is not None:
            v = m.verdict
            o.verdict = f"{self._who(v.seat) if v.seat is not None else 'no single seat'}: {v.rule}: {v.msg}"
        if self.ended:
            o.line = o.said = self.ended
            said = self.ended_words or self.ended
            if m.state.over and m.verdict is None:  # results stand: the game was won before the stall
                o.winners = [m.names[w] for w in m.state.winners]
                reached = _names(m.result_line(), m.names)
                o.line = notice("then", "en", result=reached, ended=self.ended)
                o.said = notice("then", self.cfg.lang, result=self._result_words(reached), ended=said)
            else:
                o.said = said
                if m.abandoned is not None:
                    o.violations = [
                        f"{self._who(m.abandoned)}: unchecked: did not reveal its secrets, so what they would prove "
                        "(its shuffles, its answers, its password) is unchecked"
                    ]
            self.tell("game_over_log", line=o.said, log=o.log_path)
            return
        o.winners = [m.names[w] for w in m.state.winners]
        o.line = f"stopped by evidence: {o.verdict}" if o.verdict else _names(m.result_line(), m.names)
        o.said = self._result_words(o.line)
        rep = m.audit_report
        if rep is not None:
            o.audit_ok = rep.ok
            o.violations = [f"{self._who(v.seat)}: {v.rule}: {v.msg}" for v in rep.violations]
        self.tell("game_over", line=o.said)
        if o.audit_ok:
            apart = notice("apart", self.cfg.lang) if o.verdict else ""
            self.tell("audit_ok", apart=apart, n=o.entries)
        elif o.audit_ok is False:
            self.say(notice("audit_bad", self.cfg.lang) + "\n  " + "\n  ".join(o.violations))
        self.tell("log", log=o.log_path)

    def _show(self) -> None:
        m = self.machine
        if m is None:
            return
        hist = m.state.history
        for line in hist[self.shown :]:
            self.say("  " + narrate(line, self.cfg.lang, m.names))
        self.shown = len(hist)
        self._tell_learned(m)

    def _tell_learned(self, m: Machine) -> None:
        """Tell the player the faces it has just been shown privately (its new cards, the cards handed to it as
        controller, password codes shown to it): once each; public faces are in the account and on the board."""
        st = m.state
        new = [h for h in st.faces if h not in self.told_faces]
        if not new:
            return
        self.told_faces.update(new)
        groups: dict[str, list[str]] = {}
        for h in new:
            if st.known.get(h, 0) == st.all_mask:
                continue
            where = st.loc.get(h, ("gone",))
            c = card(st.faces[h])
            label = f"{c.display_title(self.cfg.lang)} [{CODES[c.code]}]"
            if where == ("hand", m.seat):
                groups.setdefault("learned_hand", []).append(label)
            elif where[0] == "att":
                groups.setdefault("learned_attempt", []).append(label)
            elif where[0] == "pw":
                sector = sectors()[where[1]].display_name(self.cfg.lang)
                groups.setdefault("learned_password", []).append(f"{label} ({sector})")
            else:
                groups.setdefault("learned", []).append(label)
        for what, labels in groups.items():
            self.tell(what, cards=", ".join(labels))

    # ==================================================================================================
    # network tasks

    async def _wait_progress(self) -> None:
        await self.progress.wait()
        self.progress = trio.Event()

    async def _wait_awake(self, seconds: float) -> bool:
        """Wait for progress (True), or until `seconds` of time this process was running have passed (False).
        Time it was stalled (a busy machine, SIGSTOP) does not count: whatever the others sent meanwhile still
        waits in our buffers, and a peer that wakes up must not give up on a seat it simply could not hear."""
        step = max(0.05, min(0.5, seconds / 8))
        counted = 0.0
        while counted < seconds:
            t0 = trio.current_time()
            with trio.move_on_after(min(step, seconds - counted)) as scope:
                await self._wait_progress()
            if not scope.cancelled_caught:
                return True
            counted += min(trio.current_time() - t0, 2 * step)  # an overrun (a stall) counts as two steps at most
        return False

    async def _send_head(self) -> None:
        """Our head is news: every peer hears it within HEAD_DELAY, in one message for a whole burst of entries
        (a head after every entry folded was five in six of all messages at six peers)."""
        self._head_news.set()

    async def _repeat_passes(self) -> None:
        """The pass tokens we hold for a point the table has not left for a heartbeat go out again, ours and the
        others': a peer that was away, behind (resuming, catching up), reconnected, or cut off from one seat only
        may have missed them, and without them it would wait on a seat that passed (docs/protocol.md, "Implied
        passes", rule 4)."""
        seen: tuple[int, bytes] | None = None
        while True:
            await trio.sleep(self.cfg.heartbeat)
            store, pool, m = self.store, self.passes, self.machine
            if store is None or pool is None or m is None or m.seat is None or self.mesh is None or self.ended:
                continue
            point = (len(store), store.head_id)
            if point == seen:  # ours and those we hold of others (relayed: a link between two seats may be down)
                for (j, seat), token in sorted(pool.tokens.get(point, {}).items()):
                    msg = {"k": "pass", "seq": point[0], "prev": point[1], "j": j, "seat": seat, "sig": token}
                    await self.mesh.broadcast(msg)
            seen = point

    async def _gossip_heads(self) -> None:
        while True:
            await self._head_news.wait()
            await trio.sleep(HEAD_DELAY)
            self._head_news = trio.Event()
            await self._send_head_now()

    async def _send_head_now(self) -> None:
        if self.store is not None and self.mesh is not None:
            head = (len(self.store), self.store.head_id)
            if head != self._head_sent:
                self._head_sent = head
                await self.mesh.broadcast(self._head_msg())

    def _head_msg(self) -> dict[str, Any]:
        assert self.store is not None
        return {"k": "head", "seq": len(self.store), "id": self.store.head_id}

    def _linger(self) -> float:
        """At most how long to keep serving after the end (the others normally all have it at once)."""
        if self.machine is not None and self.machine.complete and not self.ended:
            return max(1.0, min(self.cfg.abandon_after, 30.0))
        if self.outcome.abandoned_by is not None:
            # the silent seat may be a suspended peer about to come back: its own entry, if it arrives now, beats
            # the abandon and the game goes on with one log (longer than a period: its connections must redial)
            return max(1.0, min(2 * self.cfg.abandon_after, 60.0))
        return 1.0

    async def _serve_until_heads_match(self) -> None:
        """Return once every other seat has told us the very head we hold (its length and its id: a seat that
        holds another entry at our last seq, such as the entry of a seat we abandoned, which beats the abandon,
        must be heard out before we leave); until then keep answering `get`s."""
        m, store = self.machine, self.store
        others = [i.fingerprint() for i in m.ids if i.fingerprint() != self.fp] if m is not None else []
        while store is None or any(self.last_head.get(fp) != (len(store), store.head_id) for fp in others):
            if self._reopened:
                return  # the game goes on: play, not linger
            await trio.sleep(0.05)

    async def _events(self) -> None:
        assert self.mesh is not None
        async for ev in self.mesh.events:
            if isinstance(ev, PeerUp):
                await self._safe_send(ev.peer.fingerprint, self._lobby_msg())
                if self.genesis_raw is not None:
                    await self._safe_send(ev.peer.fingerprint, {"k": "entry", "raw": self.genesis_raw})
                if self.store is not None:
                    await self._safe_send(ev.peer.fingerprint, self._head_msg())
                    await self._resend_passes(ev.peer.fingerprint)
            elif isinstance(ev, PeerDown):
                self._peer_down(ev.peer.fingerprint, ev.peer.label, ev.reason)
            elif isinstance(ev, TablePlaying) and self.machine is None and self.playing is None:
                self.playing = ev
                self.progress.set()

    async def _resend_passes(self, fp: str) -> None:
        """Our pass tokens for the next entry, to a peer that (re)connects: it may have missed them."""
        m, store, pool = self.machine, self.store, self.passes
        if m is None or store is None or pool is None or m.seat is None:
            return
        seq, prev = len(store), store.head_id
        for j, token in pool.mine(seq, prev):
            await self._safe_send(fp, {"k": "pass", "seq": seq, "prev": prev, "j": j, "seat": m.seat, "sig": token})

    def _peer_down(self, fp: str, label: str, reason: str) -> None:
        log.info("peer down: %s (%s)", label, reason)
        if self.genesis_raw is None and fp in self.bundles and fp != self.fp:
            # the genesis we build seats players alive now (a lobby message brings them back); one we receive may
            # still seat them: they stay met
            del self.bundles[fp]
            self.tell("left_lobby", who=label)
            self.progress.set()
        if self.machine is not None and not self.ended and not self.machine.complete:
            self.tell("disconnected", who=label, reason=reason, secs=f"{self.cfg.abandon_after:.0f}")

    async def _safe_send(self, fp: str, msg: dict[str, Any]) -> None:
        try:
            await self.mesh.send(fp, msg)  # type: ignore[union-attr]
        except Exception as exc:  # a peer that just dropped: the head exchange on reconnect catches up
            log.info("send to %s failed: %s", fp, exc)

    async def _receive(self) -> None:
        assert self.mesh is not None
        async for peer, msg in self.mesh.inbox:
            try:
                await self._handle(peer.fingerprint, peer.label, check_message(msg))
            except (KeyError, TypeError, ValueError, ArithmeticError, CryptoError, BodyError, LogError) as exc:
                log.warning("bad message from %s: %s", peer.label, exc)
                self.tell("ignored_malformed", who=peer.label, why=_short(str(exc)))
            except OSError as exc:  # our own disk failed (full, read-only, gone): stop with one line, resume later
                where = exc.filename or self.gdir or self.cfg.data_dir
                raise TableError(
                    f"cannot write to {where} ({exc.strerror or exc}); nothing more was written — {_remedy(exc)}"
                    f"resume with: {resume_command(self.gdir)}"
                ) from None
            except Exception as exc:  # no message may take the peer down (the schema should have refused it)
                log.exception("message from %s could not be handled", peer.label)
                self.tell("ignored_unhandled", who=peer.label, why=type(exc).__name__)

    async def _handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        """One message that fits its schema (p2p/messages.py)."""
        k = msg["k"]
        if k == "lobby":
            b = msg["bundle"]
            ident, _name, _ = open_bundle(b)
            if ident.fingerprint() != fp:
                raise ValueError("lobby bundle is not the connected peer's")
            if msg["v"] != PROTOCOL_VERSION:
                raise ValueError(f"protocol version {msg['v']} (ours {PROTOCOL_VERSION})")
            addrs, bad = [address(msg["addr"])], []
            for a in msg["peers"][:MAX_LOBBY_ADDRESSES]:  # checked before anything dials them
                try:
                    addrs.append(address(a))
                except MessageError as exc:
                    bad.append(str(exc))
            if bad:
                self.tell("ignored_addresses", n=len(bad), who=label, why="; ".join(bad))
            new = fp not in self.bundles
            self.bundles[fp] = b
            if fp not in self.met and len(self.met) < MAX_MET:
                self.met[fp] = b
            learned = False
            for addr in addrs:
                if len(self.addresses) >= MAX_KNOWN_ADDRESSES:
                    break
                if addr not in self.addresses and addr != (
                    self.cfg.advertise_host or self.cfg.host,
                    self.port,
                ):
                    self.addresses.add(addr)
                    self.mesh.add_peer(*addr)  # type: ignore[union-attr]
                    learned = True
            if learned:  # tell everyone: so a peer that only knew us meets the others (full mesh)
                await self.mesh.broadcast(self._lobby_msg())  # type: ignore[union-attr]
            elif (
                self.genesis_raw is not None
                and self.machine is not None
                and fp not in self.heads
                and any(i.fingerprint() == fp for i in self.machine.ids)
            ):
                # a seated player still in the lobby (it never told us a head; it re-sends every second) may have
                # missed our lobby message or the genesis: answer with both, or it never meets us and never begins
                await self._safe_send(fp, self._lobby_msg())
                await self._safe_send(fp, {"k": "entry", "raw": self.genesis_raw})
            if new:
                if self.machine is None:
                    self.tell(
                        "sat_down", name=_name, key=fp, table=self.cfg.table,
                        have=min(len(self.bundles), self.cfg.want), want=self.cfg.want,
                    )
                    self._recheck_refused()
                self.progress.set()
        elif k == "entry":
            raw = msg["raw"]
            e = decode_entry(raw)
            if self.genesis_raw is None:
                if e.seq == 0 and e.kind == Kind.GENESIS and self._check_genesis(raw, label):
                    self.genesis_raw = raw
                    self.progress.set()
                return
            if self.store is None or self.machine is None:
                return
            if not any(i.fingerprint() == fp for i in self.machine.ids):
                self.tell("ignored_not_seated", who=label)
                return
            if e.seq < len(self.store):
                self._accept(raw, sender=label)  # duplicate (ignored) or equivocation (proof kept)
            elif e.seq == len(self.store):
                head = self.store.head_id
                self._take(raw, sender=label)
                if len(self.store) == e.seq and e.prev_hash != head and not self.ended:
                    # it builds on another entry than our head: fetch theirs (shows an equivocation)
                    await self._safe_send(fp, {"k": "get", "from": e.seq - 1})
                self._drain_pending()
                await self._send_head()
            elif e.seq < len(self.store) + PENDING_WINDOW:
                try:  # only properly signed entries wait in pending (garbage there would stall us)
                    self._check_signed(e)
                except CryptoError as exc:
                    where = notice("from_who", self.cfg.lang, who=label)
                    self.tell("rejected_entry", where=where, why=_short(str(exc)))
                    return
                if not self._pend(e.seq, raw):
                    return
                await self._safe_send(fp, {"k": "get", "from": len(self.store)})
                self.progress.set()
            self._post_pending_evidence()
            await self._share_proofs()
            await self._flush()
        elif k == "head":
            if self.store is None:
                return
            seq, hid = msg["seq"], msg["id"]
            self.heads[fp] = max(seq, self.heads.get(fp, 0))
            self.last_head[fp] = (seq, hid)
            n = len(self.store)
            if seq > n:
                await self._safe_send(fp, {"k": "get", "from": max(0, n - 1)})
            elif seq > 0 and self.store[seq - 1].id != hid:
                # the same position holds another entry there: fetch theirs (an equivocation shows up)
                await self._safe_send(fp, {"k": "get", "from": seq - 1})
            elif seq == n:
                await self._resend_passes(fp)  # it has just reached our point: our tokens there are news to it
        elif k == "pass":
            m, store, pool = self.machine, self.store, self.passes
            if m is None or store is None or pool is None or msg["seat"] >= m.n:
                return  # (a token is checked against the seat it names: relayed ones are as good as the seat's own)
            if self.ended:
                return
            if pool.add(msg["seq"], msg["prev"], msg["j"], msg["seat"], msg["sig"], len(store)):
                self.progress.set()
        elif k == "get" and self.store is not None:
            for e in self.store.since(msg["from"])[:2000]:
                await self._safe_send(fp, {"k": "entry", "raw": e.raw})

    def _check_signed(self, e: Any) -> None:
        """An entry of this game, signed by the seat it names (CryptoError if not)."""
        m = self.machine
        assert m is not None
        if e.game_id != m.game_id:
            raise CryptoError(f"entry seq {e.seq} belongs to another game")
        if not 0 <= e.author < m.n:
            raise CryptoError(f"entry seq {e.seq}: unknown author seat {e.author}")
        verify_entry(e, m.ids[e.author])

    def _check_genesis(self, raw: bytes, label: str) -> bool:
        """A genesis must be signed by its seat 0, seat us, describe the game we asked for and seat only
        players we met (p2p/lobby.py). Otherwise it is refused with one line (once per genesis) and False."""
        e = decode_entry(raw)
        g = Genesis.from_body(decode_body(e.body))
        if e.author != 0 or e.prev_hash != ZERO or e.seq != 0:
            raise ValueError(f"malformed genesis from {label}")
        verify_entry(e, g.identities()[0])
        why = (
            ("it does not seat us" if self.bundle not in g.roster else None)
            or settings_mismatch(
                g,
                table=self.cfg.table,
                profile=self.cfg.profile,
                goal=self.cfg.goal,
                round_limit=self.cfg.round_limit,
                want=self.cfg.want,
            )
            or roster_mismatch(g, self.met.values())
        )
        if why is None:
            return True
        self._refused_raws[e.id] = (raw, label)
        while len(self._refused_raws) > MAX_REFUSED:
            del self._refused_raws[next(iter(self._refused_raws))]
        if (e.id, why) not in self._refused_geneses and len(self._refused_geneses) < 64:
            self._refused_geneses.add((e.id, why))
            self.tell("refused_genesis", who=label, why=why)
        return False

    def _recheck_refused(self) -> None:
        """A genesis refused because it seated a player we had not met yet is taken once that player sits down
        (views of the lobby differ for a moment when a connection flaps)."""
        if self.genesis_raw is not None:
            return
        for eid, (raw, label) in list(self._refused_raws.items()):
            del self._refused_raws[eid]
            if self._check_genesis(raw, label):
                self.genesis_raw = raw
                self.progress.set()
                return

    async def _share_proofs(self) -> None:
        """Show every peer both entries of an equivocation we found (so each of them detects it too)."""
        while self.proofs_to_share:
            a, b = self.proofs_to_share.pop()
            for raw in (a, b):
                await self.mesh.broadcast({"k": "entry", "raw": raw})  # type: ignore[union-attr]

    async def _discover(self) -> None:
        from adp2p.p2p.discovery import advertise, browse

        host = self.cfg.advertise_host
        async with (
            advertise(
                self.cfg.name,
                self.port,
                self.cfg.table,
                self.fp,
                seats=str(self.cfg.want),
                interfaces=self.cfg.interfaces,
                addresses=[host] if host else None,
            ),
            browse(interfaces=self.cfg.interfaces) as events,
        ):
            async for ev in events:
                addrs = getattr(ev, "addresses", None)
                if not addrs or getattr(ev, "table", None) != self.cfg.table or ev.fingerprint == self.fp:
                    continue
                for a in addrs:
                    addr = (a, ev.port)
                    if addr not in self.addresses:
                        self.addresses.add(addr)
                        self.mesh.add_peer(*addr)  # type: ignore[union-attr]


RESUME_RECAP = 5  # history lines shown again when a game is resumed
DAMAGED_SUFFIX = ".damaged"  # a damaged log file, kept whole beside the repaired one
CUT_OFF_ROUNDS = 5  # abandon periods without a majority behind us before we leave without naming anyone
CHECKPOINT_EVERY = 64  # a snapshot of the fold every so many entries at least (a quarter of the log, if more)
HEAD_DELAY = 0.05  # seconds: heads are sent at most this often (one for a burst of entries)
MAX_CHECKPOINTS = 6  # snapshots kept (time and memory of each grow with the game)
PENDING_WINDOW = 512  # entries further ahead of our log than this are not kept
PENDING_MAX = 256  # entries kept ahead of our log at most
PENDING_MAX_BYTES = 8 * 1024 * 1024  # and bytes
MAX_FALSE = 4  # false evidence entries weighed from one seat; after that its evidence is not refolded again
MAX_EVIDENCE_BYTES = 4 * 1024 * 1024  # the evidence file of one game at most
MAX_SAID = 300  # characters of an attacker-controlled text we repeat to the player


def _plain_pass(e: Any) -> bool:
    """An event entry whose own decision is a pass by its author (what its pass token says too)."""
    if e.kind != Kind.EVENT:
        return False
    try:
        ev = decode_body(e.body).get("ev")
    except (BodyError, AttributeError):
        return False
    return isinstance(ev, dict) and ev.get("t") == "pass" and ev.get("p") == e.author


def _passes_of(e: Any) -> list[Any] | None:
    """The pass tokens an event or abandon entry carries ([] if none; None if its body does not read)."""
    if e.kind not in (Kind.EVENT, Kind.ABANDON):
        return None
    try:
        body = decode_body(e.body)
    except BodyError:
        return None
    passes = body.get("passes", []) if isinstance(body, dict) else None
    return passes if isinstance(passes, list) else None


def _remedy(exc: OSError) -> str:
    """What a player can do about a write error, before resuming."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free the disk and "
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return "close other programs (too many open files) and "
    return "fix that and "


def _short(text: str) -> str:
    """An attacker-influenced text cut to what a player needs (no 200 KB lines on the terminal)."""
    return text if len(text) <= MAX_SAID else text[: MAX_SAID - 1] + "…"


def _abandoners(n: int, silent: int, rounds: int) -> list[int]:
    """The seats that may end the game naming `silent` after `rounds` periods of silence: the lowest other seat
    after one, the two lowest after two, and so on."""
    return [s for s in range(n) if s != silent][: max(0, rounds)]


MAX_LOBBY_ADDRESSES = 16  # addresses taken from one lobby message
MAX_KNOWN_ADDRESSES = 64  # addresses we ever dial
MAX_MET = 256  # players remembered as met in one lobby
MAX_REFUSED = 8  # refused geneses kept to check again


def _fixed(ev: dict[str, Any]) -> Chooser:
    def choose(*_: Any) -> dict[str, Any]:
        return ev

    return choose


def root_cause(exc: BaseException) -> BaseException:
    """The one exception inside (nested) single-member exception groups, as trio's nurseries raise them."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _first_record(path: Path) -> bytes:
    with open(path, "rb") as fh:
        n = int.from_bytes(fh.read(4), "big")
        return fh.read(n)


def _names(line: str, names: list[str]) -> str:
    """History lines say P1..Pn; show the players' names."""
    for i in range(len(names), 0, -1):
        line = line.replace(f"P{i}", names[i - 1])
    return line


def latest_game(data_dir: Path) -> Path | None:
    """The most recently changed game directory with a secrets file (for --resume)."""
    root = data_dir / "games"
    if not root.is_dir():
        return None
    cands = [d for d in root.iterdir() if (d / "secrets").exists() and (d / "log").exists()]
    return max(cands, key=lambda d: os.stat(d / "log").st_mtime) if cands else None


def state_of(peer: TablePeer) -> GameState | None:
    return peer.machine.state if peer.machine else None
