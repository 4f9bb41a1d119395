"""Logs of protocol versions 4 and 5 still audit (`ad-p2p audit`) after version 5 changed the card points and the
link proof (and version 6 added the roster agreements and the second accuser's evidence, version 7 `protest` evidence
and Classified's hand mix; version-6 logs audit too, V6_LOGS below):
two logs written by the version-4 code (tests/p2p/data: an Access Denied game with three linked passwords, each link
a 63-branch OR proof, and a Hacker game). The audit folds them with the version-4 card table and link proof; a
version-4 genesis is refused for play (only the audit and the replay read old logs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from adp2p.cli.main import main
from adp2p.crypto.entries import decode_entry
from adp2p.p2p.audit import audit_log, read_records
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.protocol import AUDITABLE_VERSIONS, PROTOCOL_VERSION, BodyError, Genesis, Kind, decode_body

DATA = Path(__file__).parent / "data"
LOGS = {"access-denied": DATA / "v4_access_denied_3p.log", "hacker": DATA / "v4_hacker_3p.log"}
V6_LOGS = {  # written by the version-6 code before C-MIX and `protest` (9086108; in-process seeded tables,
    # tests/support/seeds.py: access-denied 3 seats seed 1 classic, 128 entries; hacker 3 seats seed 2 basic planner
    # round limit 2, 171; classified 2 seats seed 3 standard random, 62)
    "access-denied": DATA / "v6_access_denied_3p.log",
    "hacker": DATA / "v6_hacker_3p.log",
    "classified": DATA / "v6_classified_2p.log",
}
V5_LOGS = {  # written by the version-5 code (d03f979, in-process seeded tables: 187 and 195 entries)
    "access-denied": DATA / "v5_access_denied_3p.log",
    "hacker": DATA / "v5_hacker_3p.log",
}


@pytest.mark.parametrize("game", sorted(LOGS))
def test_a_version_4_log_audits_clean(game: str) -> None:
    res = audit_log(LOGS[game])
    assert res.ok and res.complete and not res.findings, res.text()
    assert res.winners


def test_the_version_4_log_is_folded_with_its_own_card_points_and_link_proofs() -> None:
    raws, _ = read_records(LOGS["access-denied"])
    g = Genesis.from_body(decode_body(decode_entry(raws[0]).body), versions=AUDITABLE_VERSIONS)
    assert g.version == 4 and PROTOCOL_VERSION == 7
    m = Machine(g, None)
    assert m.table.attributes is None  # the hashed card points of version 4
    links = 0
    for raw in raws[1:]:
        e = decode_entry(raw)
        body = decode_body(e.body)
        if e.kind == Kind.EVENT and "code_link" in body:
            links += 1
            assert all(len(proof) == 63 * 96 for _shares, proof in body["code_link"])
        m.apply_entry(e)
    assert links == 3 and len(m.part.links.linked) == 9


def test_a_false_version_4_link_is_still_named() -> None:
    """The version-4 check is real: at the log's first linked answer, the same body with one bit of a link proof
    flipped is rejected naming the controller (rule `password_link`), the honest one taken."""
    raws, _ = read_records(LOGS["access-denied"])
    g = Genesis.from_body(decode_body(decode_entry(raws[0]).body), versions=AUDITABLE_VERSIONS)
    m = Machine(g, None)
    for raw in raws[1:]:
        e = decode_entry(raw)
        body = decode_body(e.body)
        if e.kind == Kind.EVENT and "code_link" in body:
            break
        m.apply_entry(e)
    items = [list(x) for x in body["code_link"]]
    proof = items[1][1]
    items[1][1] = proof[:500] + bytes([proof[500] ^ 1]) + proof[501:]
    with pytest.raises(ProtocolError) as ei:
        m.snapshot().apply(e.author, Kind.EVENT, dict(body, code_link=items))
    assert ei.value.seat == e.author and ei.value.rule == "password_link", ei.value
    m.apply_entry(e)
    assert len(m.part.links.linked) == 3


def test_play_takes_only_this_version() -> None:
    raws, _ = read_records(LOGS["access-denied"])
    body = decode_body(decode_entry(raws[0]).body)
    with pytest.raises(BodyError, match="protocol version 4 is not 7"):
        Genesis.from_body(body)
    with pytest.raises(BodyError, match="protocol version 3"):
        Genesis.from_body({**body, "v": 3}, versions=AUDITABLE_VERSIONS)


def test_ad_p2p_audit_of_a_version_4_log_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(LOGS["access-denied"])]) == 0
    assert "Result: no violations" in capsys.readouterr().out


def test_a_log_of_a_version_this_code_cannot_read_is_one_line_naming_its_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`audit` and `replay` of a log of protocol version 3 say which version it is and which they read (before, a
    version-4 log was 'not a game log': the check of the first record took only the version this code plays)."""
    from adp2p.crypto.entries import GENESIS_PREV, encode_entry
    from adp2p.crypto.identity import SecretIdentity
    from adp2p.p2p.protocol import encode_body

    raws, _ = read_records(LOGS["access-denied"])
    e = decode_entry(raws[0])
    body = dict(decode_body(e.body), v=3)
    raw = encode_entry(SecretIdentity.generate(), e.game_id, 0, GENESIS_PREV, 0, int(Kind.GENESIS), encode_body(body))
    log = tmp_path / "log"
    log.write_bytes(len(raw).to_bytes(4, "big") + raw)
    for cmd in ("audit", "replay"):
        assert main([cmd, str(log)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "protocol version 3" in err[0] and "4, 5" in err[0], err


@pytest.mark.parametrize("game", sorted(V5_LOGS))
def test_a_version_5_log_audits_clean_and_is_no_table_to_join(game: str) -> None:
    res = audit_log(V5_LOGS[game])
    assert res.ok and res.complete and not res.findings, res.text()
    assert res.winners
    raws, _ = read_records(V5_LOGS[game])
    body = decode_body(decode_entry(raws[0]).body)
    assert body["v"] == 5 and "agreed" not in body
    with pytest.raises(BodyError, match="protocol version 5 is not 7"):
        Genesis.from_body(body)


@pytest.mark.parametrize("game", sorted(V6_LOGS))
def test_a_version_6_log_audits_clean_and_is_no_table_to_join(game: str) -> None:
    res = audit_log(V6_LOGS[game])
    assert res.ok and res.complete and not res.findings, res.text()
    raws, _ = read_records(V6_LOGS[game])
    body = decode_body(decode_entry(raws[0]).body)
    assert body["v"] == 6
    with pytest.raises(BodyError, match="protocol version 6 is not 7"):
        Genesis.from_body(body)
