"""The fast paths of legal-event enumeration give the same answers as the slow ones, on seeded bot games:

* `api.options` (families built on demand, engine/access_denied/options.py): the same length and, position by position,
  the same events as `api.legal` (which builds the whole list);
* `in` on `api.options` (an event's place found in its family, `Kind.locate`) says what `in` on the list says;
* the deduction bot, which scores an attempt family's card sets without building their events
  (`options.parts`), plays the same games as when it is handed the built list;
* a small hand's card sets listed directly are `bounded_combinations`'s, and the goal counts (a count of Roots) are
  `count_level`'s;
* a player who holds none of the reactions that may fit the moment (`targets.fitting_reactions`: a window of
  its kind, or the player's own step) has no reaction to play: the same lists as when every reaction in hand is
  looked at card by card (`reaction_fits`).
"""

from __future__ import annotations

import sys
from itertools import combinations

import pytest
from adp2p.engine.access_denied.api import legal, options, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.catalog import cards
from adp2p.engine.access_denied.options import Kind, Options
from adp2p.engine.access_denied.profiles import get_profile
from adp2p.engine.access_denied.sim import play_game
from seeded_games import decisions

# the module (the package exports its `legal` function by that name)
_legal = sys.modules["adp2p.engine.access_denied.legal"]

GAMES = [("classic", 6, "random", 0), ("classic", 4, "deduction", 1), ("retro2013", 3, "random", 2),
         ("two-player", 2, "random", 3), ("classic-de", 3, "deduction", 4)]


def _decisions(profile: str, n: int, bot: str, seed: int):  # type: ignore[no-untyped-def]
    """Every decision of a seeded game: (the actor's view, the actor), before the actor's choice is applied."""
    return ((view(st, d.actor), d.actor) for st, d in decisions(profile, n, bot, seed))


@pytest.mark.parametrize("profile, n, bot, seed", GAMES)
def test_options_by_position_are_legal_in_order(profile: str, n: int, bot: str, seed: int) -> None:
    families = 0
    for seen, p in _decisions(profile, n, bot, seed):
        full = legal(seen, p)
        lazy = options(seen, p)
        assert len(lazy) == len(full)
        assert [lazy[i] for i in range(len(lazy))] == full  # built one by one, before any whole list
        assert lazy[-1] == full[-1] if full else not lazy
        fresh = options(seen, p)  # nothing built yet: `in` locates each event in its family
        for ev in full:
            assert ev in fresh
            assert {**ev, "p": p + 1} not in fresh
            if "cards" in ev:
                assert {**ev, "cards": [*ev["cards"][::-1], -1]} not in fresh
        assert list(lazy) == full and lazy == full
        families += isinstance(lazy, Options)
    assert families > 0


@pytest.mark.parametrize("profile, n, bot, seed", GAMES)
def test_fitting_reactions_fast_path_matches_card_by_card(
    profile: str, n: int, bot: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    every_reaction = frozenset(c.id for c in cards() if c.is_reaction)
    plays = 0
    for seen, p in _decisions(profile, n, bot, seed):
        fast = legal(seen, p)
        with monkeypatch.context() as m:  # the slow path: every reaction in hand judged by reaction_fits
            m.setattr(_legal, "fitting_reactions", lambda kind, step: every_reaction)
            assert legal(seen, p) == fast
        plays += any(ev["t"] == "play" for ev in fast)
    assert plays > 0


def test_small_hands_list_every_card_set() -> None:
    """Attempts and discards list every card set of a hand of at most _ALL_COMBOS_UP_TO cards directly (_card_sets):
    what bounded_combinations gives, for small hands and large."""
    for n in range(_legal._ALL_COMBOS_UP_TO + 4):
        hand = [7 * i % 11 + 20 * i for i in range(n)]  # not in order
        for k in range(5):
            assert _legal._card_sets(sorted(hand), k) == _legal.bounded_combinations(hand, k)
            if n <= _legal._ALL_COMBOS_UP_TO:
                assert _legal._card_sets(sorted(hand), k) == list(combinations(sorted(hand), k))


def test_options_index_errors_and_slices() -> None:
    opts = Options([{"t": "done", "p": 0}])
    opts.family(3, Kind("x", lambda data, i: {"t": "x", "i": data + i}), 0)
    assert len(opts) == 4 and opts[3] == {"t": "x", "i": 2} and opts[-4] == {"t": "done", "p": 0}
    assert opts[1:3] == [{"t": "x", "i": 0}, {"t": "x", "i": 1}]
    with pytest.raises(IndexError):
        opts[4]


@pytest.mark.parametrize("profile, n, seed", [("classic", 6, 5), ("retro2013", 4, 6), ("two-player", 2, 7)])
def test_deduction_bot_reads_the_families_as_the_built_list(profile: str, n: int, seed: int) -> None:
    def listed(bot):  # type: ignore[no-untyped-def]
        return lambda st, p, opts: bot(st, p, list(opts))

    prof = get_profile(profile, round_limit=200)
    fast = play_game(prof, [make_bot("deduction", seed * 10 + i) for i in range(n)], seed=seed)
    slow = play_game(prof, [listed(make_bot("deduction", seed * 10 + i)) for i in range(n)], seed=seed)
    assert fast.events == slow.events


@pytest.mark.parametrize("profile, n, bot, seed", GAMES)
def test_goal_counts_count_roots_where_the_goal_counts_them(profile: str, n: int, bot: str, seed: int) -> None:
    from adp2p.engine.access_denied.catalog import ROOT
    from adp2p.engine.access_denied.rules import count_level, goal_count, goal_counts
    from seeded_games import decisions

    for st, _ in decisions(profile, n, bot, seed):
        only = not st.profile.counts_uncontrolled(st.n)
        slow = [count_level(st, p, ROOT, only_controlled=only) for p in range(st.n)]
        assert goal_counts(st) == slow == [goal_count(st, p) for p in range(st.n)]
