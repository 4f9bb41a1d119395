"""The Classified Information zoo over the real protocol (tests/adversaries/_net.py: two `TablePeer`s on 127.0.0.1):
a liar about a face-down Guard, a false Big Reveal, a Suitcase swapped mid-game and a hand mixed with a card
swapped in, each at the seed where it found
its chance in process (test_zoo_classified.py). The honest peer names the liar during play, with its rule, the
offline audit names only the liar, and an honest networked game names nobody."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from _net import net_game
from _zoo import first_chance
from _zoo_classified import FalseReveal, GuardLiar, MixesIn, PeeksBeyond, SwapsSuitcase, WalksAway
from adp2p.p2p.machine import Machine

pytestmark = pytest.mark.slow
TABLE = {"profile": "standard", "round_limit": None, "bots": "random", "game": "classified"}


@functools.cache
def chance(cls: type[Machine], seat: int) -> int:
    return first_chance(cls, seat, 2, 25, **TABLE)[0]


CAUGHT_AT_ONCE = [  # cheater, seat, the rule of the verdict (games/classified/hidden_numbers.py)
    (GuardLiar, 0, "classified_answer"),
    (FalseReveal, 1, "classified_answer"),
    (SwapsSuitcase, 0, "number_link"),
    (PeeksBeyond, 1, "face_claim"),  # a card claimed as Fortune Teller to PEEK: named when the card opens
    (MixesIn, 0, "hand_mix"),  # a hand mixed with a card swapped in: its proof of shuffle fails (ruling C-MIX)
]


@pytest.mark.parametrize("cls,seat,rule", CAUGHT_AT_ONCE, ids=[c[0].__name__ for c in CAUGHT_AT_ONCE])
async def test_a_classified_lie_is_named_over_the_network(
    tmp_path: Path, cls: type[Machine], seat: int, rule: str
) -> None:
    # the seed where it cheated in process, else the next ones (at that seed GuardLiar's networked game took
    # another course and gave it no chance: why is not yet known)
    first = chance(cls, seat)
    for seed in range(first, first + 8):
        g = await net_game(tmp_path / str(seed), 2, seed, {seat: cls}, **TABLE)  # type: ignore[arg-type]
        if g.cheats:
            break
    assert g.cheats, f"{cls.__name__} did not cheat over the network in 8 seeds from {first}"
    (honest,) = g.honest
    o = g.outcomes[honest]
    assert o is not None and o.verdict is not None, g.heard(honest)[-800:]
    assert o.verdict.startswith(f"{g.who(seat)}: {rule}: "), o.verdict
    res = g.audit()
    assert res.tampered is None and not res.ok, res.text()
    assert {f.seat for f in res.findings} <= {seat, None} and seat in {f.seat for f in res.findings}, res.text()


async def test_an_honest_classified_game_over_the_network_names_nobody(tmp_path: Path) -> None:
    g = await net_game(tmp_path, 2, 1, {}, **TABLE)  # type: ignore[arg-type]
    logs = g.honest_logs()
    assert len(logs) == 2 and logs[0] == logs[1]
    for i in g.honest:
        o = g.outcomes[i]
        assert o is not None and o.verdict is None and not o.violations and o.audit_ok, g.heard(i)[-800:]
    assert g.audit().ok
    mixes = [x for x in g.peers[0].machine.state.eng.history if x["k"] == "mix"]
    assert mixes, "no hand was mixed (ruling C-MIX): this seed no longer tries the mix's sealed reveal round"


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_silent_seat_leaves_the_game_unfinished_in_words(tmp_path: Path, lang: str) -> None:
    """Silence at a table of two (docs/protocol.md, "Silence at a table of two"): the waiting seat's abandon suspends
    the game, and the screens say so — "unfinished", who did not answer by whose clock, no winner — never "abandoned"
    nor a verdict: the player's verdict list (terminal and page: cli/verdicts.py) and `ad-p2p audit` word it as
    unfinished, and the honest seat is honest."""
    from adp2p.cli.cmd_audit import report, unfinished_clean
    from adp2p.cli.verdicts import player_verdicts

    seat = 1
    first = chance(WalksAway, seat)
    for seed in range(first, first + 8):
        g = await net_game(tmp_path / str(seed), 2, seed, {seat: WalksAway}, abandon_after=4.0, lang=lang,
                           **TABLE)  # type: ignore[arg-type]
        if g.cheats:
            break
    assert g.cheats, f"WalksAway did not go silent over the network in 8 seeds from {first}"
    (honest,) = g.honest
    o = g.outcomes[honest]
    assert o is not None and o.verdict is None and o.winners == [], g.heard(honest)[-800:]
    assert o.line.startswith("unfinished: p1 "), o.line
    assert "p0's clock" in o.line and "abandoned" not in o.line
    said = o.said or ""
    assert said.startswith("unvollendet: p1 " if lang == "de" else "unfinished: p1 "), said
    verdicts = player_verdicts(g.peers[honest].machine, lang)
    assert [v.state for v in verdicts][seat] == "unfinished" and verdicts[honest].state != "violation"
    short = verdicts[seat].short(lang)
    assert ("unvollendet" if lang == "de" else "unfinished") in short, short
    text = report(g.audit(), lang)
    assert ("das Spiel ist unvollendet: Platz 2" if lang == "de" else "the game is unfinished: seat 2") in text, text
    assert "abandoned" not in text and "abgebrochen" not in text and "VIOLATION" not in text, text
    assert ("keine Verstöße" if lang == "de" else "no violations") in text.split("\n")[-1], text
    assert unfinished_clean(g.audit())  # `ad-p2p audit` exits 0: nobody is named
