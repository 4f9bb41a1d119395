"""Attacks on the game-neutral core and on link proofs (red team, 2026-11-26): each test is an attack; it passes when
the system holds (several were bugs, fixed in the same commit as their test).

- A genesis naming a game the auditor does not have is not the genesis author's fault: the audit names nobody.
- A game registered again under the same name is the game a new machine plays (the composed class is the game's).
- A link proof verified once is not checked again when a peer folds the log again (a refold, evidence, a resume):
  every peer's CPU is not the cheater's to spend."""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from adp2p.crypto import code_link
from adp2p.crypto.entries import decode_entry, encode_entry
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.games.access_denied import links
from adp2p.p2p import game as game_mod
from adp2p.p2p.audit import audit_log, history
from adp2p.p2p.game import get_game, register
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.protocol import Genesis, Kind, encode_body


def _genesis(**kw: Any) -> tuple[Genesis, list[SecretIdentity]]:
    ids = sorted((SecretIdentity.generate() for _ in range(3)), key=lambda s: s.public.sign_pk)
    g = Genesis("t", "classic", None, None, tuple(make_bundle(s, f"p{i}") for i, s in enumerate(ids)), bytes(16))
    return replace(g, **kw), ids


def _log(path: Path, g: Genesis, seat0: SecretIdentity) -> Path:
    raw = encode_entry(seat0, g.game_id, 0, bytes(32), 0, int(Kind.GENESIS), encode_body(g.to_body()))
    path.write_bytes(struct.pack(">I", len(raw)) + raw)
    return path


@pytest.mark.parametrize("name", ["no-such-game", "", "hacker"])
def test_the_audit_of_a_game_it_does_not_have_names_nobody(tmp_path: Path, name: str) -> None:
    """Seat 0 signed a genesis of a game its table played; an auditor without that game cannot judge the log, and
    must not name seat 0 for it (it used to: `Finding(0, "genesis", ...)`)."""
    g, ids = _genesis(game=name)
    res = audit_log(_log(tmp_path / "log", g, ids[0]))
    assert res.findings, "the audit says it could not judge the log"
    assert all(f.seat is None for f in res.findings), [f.as_dict() for f in res.findings]


def test_the_audit_of_a_genesis_for_too_many_players_still_names_its_author(tmp_path: Path) -> None:
    """A genesis the game refuses for its player count (NotForPlayers) is its signer's: that finding stays."""
    g, ids = _genesis(profile="two-player")
    res = audit_log(_log(tmp_path / "log", g, ids[0]))
    assert [f.seat for f in res.findings if f.rule == "genesis"] == [0], [f.as_dict() for f in res.findings]


@pytest.mark.parametrize("settings", [{"profile": "no-such-profile"}, {"goal": 9}], ids=["profile", "goal"])
def test_a_genesis_with_settings_the_game_does_not_know_is_a_protocol_error_not_a_crash(
    tmp_path: Path, settings: dict[str, Any]
) -> None:
    """`Machine(genesis)` raises ProtocolError only (the audit, `history` and the replay catch that): a profile or a
    goal the game refuses was a bare ValueError ("the audit could not finish")."""
    g, ids = _genesis(**settings)
    with pytest.raises(ProtocolError):
        Machine(g, None)
    path = _log(tmp_path / "log", g, ids[0])
    res = audit_log(path)
    assert [f.rule for f in res.findings] == ["genesis"] and res.findings[0].seat is None, res.findings
    assert history(path) == ([], [])


def test_a_game_registered_again_under_its_name_is_the_one_a_new_machine_plays() -> None:
    """A machine plays the game object registered under the genesis's name now (a cache of composed machine classes
    by name alone once kept the first one registered); its snapshot plays the same object, not a copy."""
    ad = get_game()

    class Variant(type(ad)):  # type: ignore[misc]
        name = "attack2-variant"
        __hash__ = None  # type: ignore[assignment]  (a game need not be hashable)

    first, second = Variant(), Variant()
    try:
        register(first)
        g, _ = _genesis(game="attack2-variant")
        assert Machine(g, None).game is first
        register(second)
        m = Machine(g, None)
        assert m.game is second and m.snapshot().game is second
    finally:
        game_mod._in_process.pop("attack2-variant", None)


def test_a_link_proof_is_verified_once_per_process_not_at_every_refold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Folding a log again (a refold after a rejected entry, a trial fold judging evidence, a resume) must not check
    every link proof of the game again: like proofs of shuffle and of distinct codes, a verified one is remembered."""
    from seeds import seeded_table

    t = seeded_table(3, 3, round_limit=40, bots="deduction").run()
    linked = [m for m in t.ms if m.part.links.linked]
    assert linked, "no password was linked in this game"
    calls = []
    real = code_link.verify_link

    def counting(*args: Any) -> None:
        calls.append(1)
        real(*args)

    monkeypatch.setattr(code_link, "verify_link", counting)  # the check itself, under the remembering wrapper
    monkeypatch.setattr(links, "verify_link", counting, raising=False)  # (where the table called it directly)
    from adp2p.crypto.entries import decode_entry

    m = Machine(t.ms[0].g, None)
    for raw in t.raws[1:]:
        m.apply_entry(decode_entry(raw))
    assert m.part.links.linked == t.ms[0].part.links.linked
    assert not calls, f"{len(calls)} link proof(s) checked again by a second fold of the same log"


def test_a_controller_resumed_from_its_secrets_file_makes_the_link_every_peer_takes() -> None:
    """Resume after a crash: a controller whose machine is rebuilt from the genesis, its secrets file (the bytes it
    wrote) and the log (its sealed shares opened again with its key) makes, ahead or when due, the very link it would
    have made, and every peer takes it: no honest controller is named for having crashed."""
    from adp2p.crypto.entries import decode_entry
    from adp2p.p2p.machine import SeatSecrets
    from adp2p.p2p.protocol import decode_body, encode_body
    from seeds import seeded_table
    from test_link_proofs import at_answer

    t = seeded_table(3, 7, round_limit=40, bots="deduction")
    ctrl, pw, body = at_answer(t, first=True)
    live = t.ms[ctrl]
    secrets = SeatSecrets.from_bytes(live.me.to_bytes())  # type: ignore[union-attr]
    resumed = type(live)(live.g, secrets)
    resumed.proof_seed = live.proof_seed  # the seeded table's derandomised proofs (set on each fold: seeds.py)
    for raw in t.raws[1:]:
        resumed.apply_entry(decode_entry(raw))
    assert resumed.duty() == live.duty() and not resumed.part.links.ready
    out = resumed.author_next(t.bots[ctrl])
    assert out is not None
    again = decode_body(encode_body(out[1]))
    assert again["code_link"] == body["code_link"]  # seeded: the same proof, made again from the log and the file
    for m in t.ms:
        c = m.snapshot()
        c.apply(ctrl, Kind.EVENT, again)
        assert set(pw) <= c.part.links.linked


def test_a_two_player_game_links_with_one_share_a_card_and_names_nobody(tmp_path: Path) -> None:
    """Two players: a link carries the one other seat's share per card; every attacked password is linked, nobody
    is named, at the table or by the audit."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
    from _zoo import Table

    t = Table(2, profile="two-player", seed=2, round_limit=30).run()
    assert t.ms[0].part.links.linked and t.ms[0].part.links.linked == t.ms[1].part.links.linked
    assert all(m.verdict is None for m in t.ms)
    res = audit_log(t.write_log(tmp_path / "log"))
    assert not res.findings, [f.as_dict() for f in res.findings]


def _deep(k: int) -> Any:
    x: Any = []
    for _ in range(k):
        x = [x]
    return x


L_BYTES = (2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")


@pytest.mark.parametrize(
    "spoil",
    [
        lambda b: dict(b, code_link=None),
        lambda b: dict(b, code_link={"0": b["code_link"]}),
        lambda b: dict(b, code_link=[]),
        lambda b: dict(b, code_link=_deep(200)),
        lambda b: dict(b, code_link=[[_deep(50), p] for _, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[[7, 8], p] for _, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[[None, {}], p] for _, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[s * 5000, p] for s, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[s, bytes(63 * 96)] for s, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[s, L_BYTES * (63 * 3)] for s, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[s, p, p] for s, p in b["code_link"]]),
        lambda b: dict(b, code_link=[[s, p] for s, p in b["code_link"]] * 1000),
        lambda b: {k: v for k, v in b.items() if k != "proof"},
    ],
    ids=[
        "none",
        "map",
        "empty",
        "deep",
        "deep-shares",
        "int-shares",
        "junk-shares",
        "many-shares",
        "zero-proof",
        "unreduced-proof",
        "three-part-item",
        "many-items",
        "no-answer-box",
    ],
)
def test_a_malformed_link_is_the_controllers_fault_at_every_peer_and_leaves_no_trace(spoil: Any) -> None:
    """Totality: any shape of `code_link` (types, nesting, sizes) on a first answer is the controller's protocol error
    at every peer (never an exception of another kind, never another seat), and the fold is unchanged."""
    from test_link_proofs import at_answer, table, unchanged

    t = table()
    ctrl, _pw, body = at_answer(t, first=True)
    bad = spoil(body)
    for m in t.ms:
        before = unchanged(m)
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(ctrl, Kind.EVENT, bad)
        assert ei.value.seat == ctrl, str(ei.value)
        assert unchanged(m) == before


def test_a_link_on_an_entry_that_answers_nothing_is_its_authors_fault() -> None:
    """`code_link` on any event but a controller's answer (a password, a play) is refused naming its author."""
    from test_link_proofs import at_answer, table

    t = table()
    _ctrl, _pw, body = at_answer(t, first=True)
    t2 = table()
    while (d := t2.ms[0].duty()) is not None and not (d.kind == Kind.EVENT and d.what != "answer"):
        t2.step()
    assert d is not None
    out = t2.ms[d.seat].author_next(t2.bots[d.seat])
    assert out is not None
    bad = dict(out[1], code_link=body["code_link"])
    for m in t2.ms:
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply(d.seat, Kind.EVENT, bad)
        assert ei.value.seat == d.seat, str(ei.value)


def test_evidence_against_the_honest_proof_of_false_evidence_names_its_accuser_not_the_prover() -> None:
    """Three levels: a cheater posts false evidence E1 (about a valid entry), an honest peer proves it false with E2
    (raw = E1, naming the cheater), and the cheater posts E3 (raw = E2) at that seq. Judging E3 re-applies E2 one
    level down, where E1 inside it is "nested too deep": that refusal named E2's author, so every peer took E3 and
    named the honest prover. Now E3 cannot be judged and names its own accuser."""
    from seeds import seeded_table

    t = seeded_table(3, 7, round_limit=40, bots="deduction")
    for _ in range(12):
        t.step()
    d = t.ms[0].duty()
    assert d is not None
    out = t.ms[d.seat].author_next(t.bots[d.seat])
    assert out is not None
    cheater, honest = 0, 1
    raw_e1 = t.sign(cheater, Kind.EVIDENCE, {"what": "entry", "raw": t.sign(d.seat, out[0], out[1]), "reason": "x"})
    with pytest.raises(ProtocolError) as ei:
        t.ms[honest].snapshot().apply_entry(decode_entry(raw_e1))
    assert ei.value.seat == cheater
    raw_e2 = t.sign(honest, Kind.EVIDENCE, t.ms[honest].evidence_for_entry(raw_e1, ei.value))
    raw_e3 = t.sign(cheater, Kind.EVIDENCE, {"what": "entry", "raw": raw_e2, "reason": "y"})
    for m in t.ms:
        c = m.snapshot()
        c.apply_entry(decode_entry(raw_e2))
        assert c.verdict is not None and c.verdict.seat == cheater  # E2 holds
        with pytest.raises(ProtocolError) as ei:
            m.snapshot().apply_entry(decode_entry(raw_e3))
        assert ei.value.seat == cheater, str(ei.value)  # E3 names its accuser, never the honest prover


def test_evidence_repeating_one_valid_certificate_is_not_checked_copy_by_copy() -> None:
    """CPU: one valid certificate repeated ~2500 times in an evidence entry (750 KB) made every peer check every
    copy (~3 s at 3 players). A handle's first certificate is checked; the evidence is still judged false."""
    import time

    from test_link_proofs import at_answer, table

    t = table()
    ctrl, pw, _body = at_answer(t, first=True)
    cert = t.ms[ctrl].cert(pw[0])
    other = t.ms[(ctrl + 1) % 3]
    t0 = time.perf_counter()
    with pytest.raises(ProtocolError) as ei:
        other.snapshot().apply(ctrl, Kind.EVIDENCE, {"what": "duplicate", "certs": [cert] * 2500})
    assert ei.value.seat == ctrl and "do not show one card twice" in str(ei.value)
    assert time.perf_counter() - t0 < 0.5
