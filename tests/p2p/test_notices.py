"""What a peer tells its player (p2p/notices.py): every notice the peer can give has words in English and German,
with the same fields, and German is never English."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from adp2p.p2p.notices import NOTICES, REASONS, notice, reason_words

P2P = Path(__file__).resolve().parents[2] / "p2p"
GAMES = P2P.parent / "games"  # a game's words at the table (games/access_denied/words.py) are notices too


def _used() -> set[str]:
    src = "\n".join(p.read_text() for d in (P2P, GAMES) for p in d.rglob("*.py"))
    calls = (
        r'\btell\(\s*"(\w+)"',
        r'\bnotice\(\s*"(\w+)"',
        r'\b_?end\(\s*"(\w+)"',  # (the peer's own end, or its GameEnd's: end.end("..."))
        r'\bsetdefault\(\s*"(learned\w*)"',
    )
    used = {k for rx in calls for k in re.findall(rx, src)}
    if 'notice(f"setting_{what}"' in src:  # the settings a genesis can differ in (p2p/lobby.py): setting_<what>
        used |= {f"setting_{w}" for w in re.findall(r'\(\s*"(\w+)", g\.', (P2P / "lobby.py").read_text())}
    return used


def test_every_notice_the_peer_gives_exists_and_none_is_dead() -> None:
    used = _used()
    assert len(used) >= 30, sorted(used)  # the scan itself works
    assert used <= set(NOTICES), sorted(used - set(NOTICES))
    assert set(NOTICES) <= used, sorted(set(NOTICES) - used)


@pytest.mark.parametrize("key", sorted(NOTICES))
def test_both_languages_same_fields_and_german_is_german(key: str) -> None:
    row = NOTICES[key]
    assert set(row) == {"en", "de"}
    fields = [{f for _, f, _, _ in string.Formatter().parse(row[lang]) if f} for lang in ("en", "de")]
    assert fields[0] == fields[1]
    if key not in ("cheating", "standing"):  # ("standing": Root, Oper, User read the same in both)
        assert row["de"] != row["en"]


def test_an_unknown_language_reads_english() -> None:
    assert notice("log", "fr", log="/x") == notice("log", "en", log="/x") == "Log: /x"
    assert notice("log", "de", log="/x") == "Protokoll: /x"


async def test_a_player_is_told_what_it_was_shown_privately(tmp_path: Path) -> None:
    """A real table of three: each player is told its whole dealt hand at once, in its language, and every face
    it learns is looked at once (told if it was private then; public ones are in the account)."""
    import trio
    from adp2p.engine.access_denied.bots import make_bot
    from adp2p.engine.access_denied.profiles import get_profile
    from adp2p.p2p.peer import PeerConfig, TablePeer
    from seeds import draw, seeded_peer

    seeds = draw(3, 8)
    said: list[list[str]] = [[] for _ in range(3)]
    ports: list[int] = []
    up = trio.Event()
    peers: list[TablePeer] = []

    async def seat(i: int) -> None:
        cfg = PeerConfig(
            name=f"p{i}", table="told", want=3, round_limit=4, data_dir=tmp_path / f"p{i}", abandon_after=10.0,
            lobby_timeout=30.0, heartbeat=0.5, peers=[("127.0.0.1", ports[0])] if i else [], lang="de" if i else "en",
        )
        p = seeded_peer(TablePeer, seeds)(cfg, make_bot("random", i), say=said[i].append, identity=seeds.ids[i])
        peers.append(p)
        await p.run(on_listening=(lambda port: (ports.append(port), up.set())) if i == 0 else None)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(seat, 0)
            await up.wait()
            for i in (1, 2):
                nursery.start_soon(seat, i)
    deal = get_profile("classic").deal
    for i, prefix in ((0, "  > New in your hand: "), (1, "  > Neu auf deiner Hand: ")):
        told = [line for line in said[i] if line.startswith(prefix)]
        assert told and told[0].count("[") == deal, said[i]  # the whole dealt hand, at once
    for p in peers:
        m = p.machine
        assert m is not None
        st = m.state
        lines = [x for x in said[peers.index(p)] if x.startswith("  > ")]
        assert lines and all(x.count("[") >= 1 for x in lines)
        assert p.narrator.told_faces == set(st.faces)  # every face it learned was considered, once
    # the end: standings, and every password once the audit has every face
    assert sum(line.startswith("Standings: ") for line in said[0]) == 1
    assert sum(line.startswith("Stand: ") for line in said[1]) == 1
    assert sum(line.startswith("  Password of ") for line in said[0]) == 3  # three players, a sector each
    assert sum(line.startswith("  Passwort von ") for line in said[2]) == 3


def test_a_faults_technical_account_is_shown_in_english_and_pointed_to_in_german() -> None:
    from adp2p.p2p.peer.narrator import Narrator

    why = "field 'k' has the wrong type (int)"
    en, de = (Narrator(lang, lambda _line: None) for lang in ("en", "de"))
    assert en.detail(why) == why
    assert de.detail(why) == "Einzelheiten im Protokoll"
    line = notice("ignored_malformed", "de", who="p1", why=de.detail(why))
    assert line == "Fehlerhafte Nachricht von p1 ignoriert: Einzelheiten im Protokoll"


def test_a_connection_reason_is_told_in_the_players_language() -> None:
    assert reason_words("connection lost: socket connection broken: [Errno 104]", "de") == "Verbindung abgerissen"
    assert reason_words("silent for more than 3 s", "de") == "zu lange still"
    assert reason_words("the peer closed the connection", "en") == "the peer closed the connection"
    assert reason_words("something new", "de") == "something new"  # unknown: as the transport said it
    assert all("de" in words for words in REASONS.values())
