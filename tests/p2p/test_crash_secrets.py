"""Crash consistency of a seat's secrets: a peer that dies right after one of its own entries reaches its log (the
entry fsynced, not yet sent) must find, on resume, the secret that entry commits to (a shuffle witness, password
salts), so that the game completes and the audit names nobody. Before: the secrets file was written after the
entry, and a crash in between made every peer's audit blame the victim's shuffle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio
from adp2p.crypto.entries import decode_entry
from adp2p.crypto.identity import SecretIdentity
from adp2p.engine.access_denied.bots import make_bot
from adp2p.p2p.audit import audit_log
from adp2p.p2p.machine import SeatSecrets
from adp2p.p2p.pass_pool import PassPool
from adp2p.p2p.peer import Outcome, PeerConfig, TablePeer, latest_game
from adp2p.p2p.peer.game_files import GameFiles
from adp2p.p2p.protocol import Genesis, Kind
from seeds import draw, seeded_peer

VICTIM = 1
TIMEOUT = 60.0


class Crash(BaseException):
    """The power went out (not an Exception: nothing in the peer may catch it)."""


def crashing(kind: Kind) -> type[TablePeer]:
    class CrashesAfterItsEntry(TablePeer):
        """Dies as soon as its first own entry of `kind` is in its log (fsynced), before sending it."""

        def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
            super().entry_taken(raw, own=own, appended=appended)
            if own and decode_entry(raw).kind == kind:
                raise Crash

    return CrashesAfterItsEntry


def crashing_at_write(k: int) -> type[TablePeer]:
    class CountsWrites(GameFiles):
        """The seat's files, counting its writes: the secrets file rewritten, a pass token of ours (on disk before
        it is sent); the peer counts the entries appended to its log."""

        writes = 0

        def tick(self) -> None:
            self.writes += 1
            if self.writes == k:
                raise Crash

        def save_secrets(self, gdir: Path, secrets: SeatSecrets, game: str) -> bool:
            before = self.secrets_saved
            wrote = super().save_secrets(gdir, secrets, game)
            if self.secrets_saved != before:
                self.tick()
            return wrote

        def open_passes(self, gdir: Path, g: Genesis, seat: int, identity: SecretIdentity) -> PassPool:
            pool = super().open_passes(gdir, g, seat, identity)
            sign = pool.sign

            def counted(secret: Any, seq: int, prev: bytes, j: int) -> bytes:
                new = not pool.signed(seq, prev, j)
                token = sign(secret, seq, prev, j)
                if new:
                    self.tick()
                return token

            pool.sign = counted  # type: ignore[method-assign]
            return pool

    class CrashesAtItsKthWrite(TablePeer):
        """Dies right after its k-th write to disk (an entry appended to its log, or its secrets file rewritten),
        whatever that write was."""

        files_class = CountsWrites

        def entry_taken(self, raw: bytes, *, own: bool, appended: bool) -> None:
            super().entry_taken(raw, own=own, appended=appended)
            if appended:
                self.files.tick()  # type: ignore[attr-defined]

    return CrashesAtItsKthWrite


class TornFirstSecrets(GameFiles):
    """Dies in the middle of writing the first secrets file: a temporary file half written, no secrets file."""

    def save_secrets(self, gdir: Path, secrets: SeatSecrets, game: str) -> bool:
        if not self.secrets_saved:
            (gdir / ".secrets.0123456789ab.tmp").write_bytes(secrets.to_bytes()[:20])
            raise Crash
        return super().save_secrets(gdir, secrets, game)


class CrashesWritingItsFirstSecrets(TablePeer):
    """Dies in the middle of writing the secrets file that follows the genesis (its first write of its own)."""

    files_class = TornFirstSecrets


async def test_a_crash_while_writing_the_first_secrets_file_resumes(tmp_path: Path) -> None:
    """Killed while writing the secrets file that follows the genesis: `--resume` finds the game (the genesis is in
    its log, its key in `<data>/seats`), makes the seat's secrets (nothing committed to them yet), and the game
    completes with nobody named (before: "no game to resume", and the table abandoned the seat, naming it)."""
    await crash_and_resume(tmp_path, CrashesWritingItsFirstSecrets)


@pytest.mark.parametrize("kind", [Kind.SHUFFLE, Kind.EVENT], ids=["shuffle-witness", "password-salts"])
async def test_a_crash_right_after_an_own_entry_resumes_with_its_secret(tmp_path: Path, kind: Kind) -> None:
    await crash_and_resume(tmp_path, crashing(kind))


# the genesis is write 2 (its secrets come first); the victim's last write in this game is about its 72nd (pass
# tokens of its own count: each is on disk before it is sent)
WRITES = [2, 3, 4, 5, 6, 8, 11, 15, 20, 27, 36, 46, 55, 62, 68]


@pytest.mark.slow
@pytest.mark.parametrize("k", WRITES)
async def test_a_crash_at_any_write_boundary_resumes_and_completes_with_nobody_named(tmp_path: Path, k: int) -> None:
    """The victim dies right after its k-th write (log entry or secrets file), in every phase of a game: setup
    (keys, beacon heads, shuffles), passwords, play; resumed, the game completes, one log everywhere, a clean
    audit (before the secrets came first, a crash between an entry and its secret got the victim named)."""
    await crash_and_resume(tmp_path, crashing_at_write(k))


class ClaimsEntriesItNeverSends(TablePeer):
    """A seated cheater that answers every `ask` of a peer catching up with a head three entries past the asker's,
    which it never sends (otherwise it plays honestly)."""

    async def handle(self, fp: str, label: str, msg: dict[str, Any]) -> None:
        if msg["k"] == "ask":
            await self.net.safe_send(fp, {"k": "told", "seq": msg["seq"] + 3, "id": bytes(32), "nonce": msg["nonce"]})
            return
        await super().handle(fp, label, msg)


async def test_a_seat_that_claims_entries_it_never_sends_cannot_keep_a_resumed_peer_from_playing(
    tmp_path: Path,
) -> None:
    """A resumed peer signs nothing until the table's heads show it holds all the table holds; a cheater claiming
    entries it never sends is outvoted after half a period by a strict majority agreeing with the resumed log
    (before the majority rule: the resumed peer waited until it left, "lost contact", and was abandoned)."""
    await crash_and_resume(tmp_path, crashing(Kind.EVENT), liar=ClaimsEntriesItNeverSends, timeout=2 * TIMEOUT)


async def crash_and_resume(
    tmp_path: Path, cls: type[TablePeer], liar: type[TablePeer] = TablePeer, timeout: float = TIMEOUT
) -> None:
    n = 3
    seeds = draw(n, 4)
    outcomes: list[Outcome | None] = [None] * n
    ports: list[int] = []
    up = trio.Event()

    def cfg(i: int) -> PeerConfig:
        return PeerConfig(
            name=f"p{i}",
            table="crash",
            want=n,
            round_limit=2,
            data_dir=tmp_path / f"p{i}",
            abandon_after=30.0,
            lobby_timeout=TIMEOUT,
            heartbeat=0.5,
            peers=[("127.0.0.1", ports[0])] if i and ports else [],
        )

    def peer(i: int, cls: type[TablePeer] = TablePeer) -> TablePeer:
        return seeded_peer(cls, seeds)(cfg(i), make_bot("random", 50 + i), say=lambda _l: None, identity=seeds.ids[i])

    async def run(p: TablePeer, i: int, **kw: Any) -> None:
        outcomes[i] = await p.run(**kw)

    crashed: list[Path] = []

    async def victim() -> None:
        v = peer(VICTIM, cls)
        try:
            await v.run()
        except BaseExceptionGroup as eg:
            assert eg.subgroup(Crash) is not None, eg
        else:
            return  # it played to the end without crashing: nothing to resume (asserted below)
        assert v.gdir is not None and v.store is not None
        v.store.close()  # what the OS does for a process that died: its lock on the log goes
        assert latest_game(v.cfg.data_dir) == v.gdir  # what `join --resume latest` finds
        crashed.append(v.gdir)
        await trio.sleep(0.5)
        await run(peer(VICTIM), VICTIM, resume=v.gdir)  # a new process would do the same: reload and refold

    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: run(peer(0), 0, on_listening=lambda p: (ports.append(p), up.set())))
            await up.wait()
            nursery.start_soon(run, peer(2, liar), 2)
            nursery.start_soon(victim)
    assert crashed, "the victim never crashed"
    for i in range(n):
        o = outcomes[i]
        assert o is not None and o.verdict is None and o.abandoned_by is None, o
        assert o.audit_ok is True, o.violations
    logs = [outcomes[i].log_path.read_bytes() for i in range(n)]  # type: ignore[union-attr]
    assert logs[0] == logs[1] == logs[2]
    res = audit_log(outcomes[0].log_path)  # type: ignore[arg-type]
    assert res.ok, res.text()
