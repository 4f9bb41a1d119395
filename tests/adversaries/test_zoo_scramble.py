"""A false password commitment shown to every player at once: a cheater that committed codes that are not its
password cards plays Scramble Password, which discards its old password face up. The cards travel with their
openings (public), so every peer sees at once that an opening contradicts its card and stops the game naming
the cheater; no evidence entry is needed. In process and over the network, in the same seeded game.

Nobody attacks the cheater's sectors here (`spares`): its first answer about that password would carry the link
proof it cannot make, and name it there first (tests/p2p/test_link_proofs.py, the zoo's FalseCommitment)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _net import net_game
from _zoo import FalseCommitment, Table
from adp2p.crypto.entries import decode_entry
from adp2p.engine.access_denied.catalog import card
from adp2p.p2p.audit import audit_log, read_records
from adp2p.p2p.machine import Chooser
from adp2p.p2p.protocol import Kind, decode_body

SEAT, N, SEED, ROUNDS = 0, 3, 16, 20  # seed 16: the cheater draws Scramble Password and can play it
# Over the network the game id is the lobby's (it covers the protocol version): seed 27 is the first of 1-27 where the
# cheater plays Scramble Password and is named at once at that id (in process, `as_lobby`: checked by the test)
NET_SEED = 27


def scrambler(inner: Chooser) -> Chooser:
    """Plays Scramble Password as soon as it legally can, and never gives that card up while it has a choice."""

    def choose(seen: Any, seat: int, options: list[dict[str, Any]]) -> dict[str, Any]:
        for ev in options:
            if ev.get("t") == "play" and card(ev["face"]).key == "scramble_password":
                return ev

        def gives_it_up(ev: dict[str, Any]) -> bool:
            hs = ev.get("cards") or []
            return any(h in seen.faces and card(seen.faces[h]).key == "scramble_password" for h in hs)

        return inner(seen, seat, [ev for ev in options if not gives_it_up(ev)] or options)

    return choose


def spares(inner: Chooser) -> Chooser:
    """Never attempts access to a sector of the cheater while it has another choice."""

    def choose(seen: Any, seat: int, options: Any) -> dict[str, Any]:
        kept = [ev for ev in options if not (ev.get("t") == "attempt" and seen.controller[ev["s"]] == SEAT)]
        return inner(seen, seat, kept or list(options))

    return choose


def scrambled(seed: int, **kw: Any) -> Table:
    t = Table(N, seed=seed, cheats={SEAT: FalseCommitment}, round_limit=ROUNDS, **kw)
    t.bots = [scrambler(b) if s == SEAT else spares(b) for s, b in enumerate(t.bots)]
    return t.run()


def test_a_false_commitment_discarded_face_up_stops_every_peer_at_once(tmp_path: Path) -> None:
    t = scrambled(SEED)
    assert any("Scramble Password" in str(line) for line in t.ms[1].state.history)
    assert all(m.verdict is not None and (m.verdict.seat, m.verdict.rule) == (SEAT, "commitment") for m in t.ms)
    assert not [r for r in t.raws if decode_entry(r).kind == Kind.EVIDENCE]  # public: nobody needed to prove it
    res = audit_log(t.write_log(tmp_path / "log"))
    assert {f.seat for f in res.findings} == {SEAT} and "commitment" in {f.rule for f in res.findings}, res.text()


async def test_over_the_network_every_peer_names_the_cheater_at_once(tmp_path: Path) -> None:
    t = scrambled(NET_SEED, as_lobby="zoo")  # the networked game, in process: the seed gives the chance
    assert any("Scramble Password" in str(line) for line in t.ms[1].state.history), "no Scramble Password: search again"
    assert not [r for r in t.raws if decode_entry(r).kind == Kind.EVIDENCE]
    g = await net_game(
        tmp_path,
        N,
        NET_SEED,
        {SEAT: FalseCommitment},
        round_limit=ROUNDS,
        wrap_bot={s: scrambler if s == SEAT else spares for s in range(N)},
    )
    assert g.cheats
    logs = g.honest_logs()
    assert all(log == logs[0] for log in logs)
    raws, _ = read_records(g.log(g.honest[0]))
    assert not [r for r in raws if decode_entry(r).kind == Kind.EVIDENCE]
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.verdict is not None, g.heard(i)
        assert o.verdict.startswith(f"{g.who(SEAT)}: commitment: "), o.verdict
    assert {f.seat for f in g.audit().findings} == {SEAT}


def attacks_the_scrambler(inner: Chooser) -> Chooser:
    """Attempts access to a sector of the scrambler whenever it can (its new password gets answered, hence linked)."""

    def choose(seen: Any, seat: int, options: Any) -> dict[str, Any]:
        kept = [ev for ev in options if ev.get("t") == "attempt" and seen.controller[ev["s"]] == SEAT]
        return inner(seen, seat, kept or list(options))

    return choose


def test_an_honest_scrambled_password_is_linked_with_its_first_answer_and_nobody_is_named(tmp_path: Path) -> None:
    """Red team (link proofs): Scramble Password's new password is linked again at its first answer, by an honest
    controller, from the shares it holds of its hand cards; every peer takes it and the audit names nobody."""
    t = Table(N, seed=26, round_limit=30)  # seed 26: seat 1 attacks the scrambled password
    t.bots = [scrambler(b) if s == SEAT else attacks_the_scrambler(b) for s, b in enumerate(t.bots)]
    t.run()
    new: set[int] = set()
    linked_after = False
    for raw in t.raws:
        e = decode_entry(raw)
        if e.kind != Kind.EVENT:
            continue
        body = decode_body(e.body)
        ev = body["ev"]
        if ev.get("t") == "play" and isinstance(ev.get("new"), list):
            new |= set(ev["new"])
        elif "code_link" in body and new and new <= t.ms[1].part.links.linked:
            linked_after = True
    assert new, "the scrambler never played Scramble Password"
    assert linked_after, "nobody attacked the scrambled password in this game"
    assert all(m.verdict is None for m in t.ms), [m.verdict for m in t.ms]
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.findings or all(f.seat is None for f in res.findings), res.text()
