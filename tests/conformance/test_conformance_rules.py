"""Conformance, the rules alone (every registered game): random legal play never raises and ends; each card is always
in exactly one place; a player's view never shows a face that player may not know (and shows every one it may);
strict replay of the log with every face reproduces the game."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games import GAMES, game_of, play, whole_game

SEEDS = [1, 2, 3]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 2**32 - 1))
def test_random_legal_play_never_raises_and_ends(name: str, seed: int) -> None:
    game = game_of(name)
    steps = list(play(game, seed))
    assert steps and game.is_over(steps[-1].st) and game.pending(steps[-1].st) is None
    res = game.result(steps[-1].st)
    assert set(res.winners) <= set(range(game.quick_table["players"]))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_each_card_is_always_in_exactly_one_place(name: str, seed: int) -> None:
    game = game_of(name)
    for step in play(game, seed):
        st = step.st
        if st.next_handle == 0:
            continue
        live = [h for h in range(st.next_handle) if game.in_play(st, h)]
        assert all(h in st.faces for h in live), "an all-knowing state misses a live card's face"
        where = Counter(st.faces[h] for h in live)
        nowhere = sorted(set(range(game.deck_size)) - set(where))
        assert not nowhere, f"cards nowhere: {nowhere}"
        assert max(where.values()) == 1, f"cards in two places: {sorted(f for f, k in where.items() if k > 1)}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_a_view_shows_exactly_the_faces_its_player_may_know(name: str, seed: int) -> None:
    game = game_of(name)
    n = game.quick_table["players"]
    private = 0
    for step in play(game, seed):
        st = step.st
        for p in range(n):
            may = {h: f for h, f in st.faces.items() if st.known.get(h, 0) >> p & 1}
            seen = game.view(st, p)
            assert {h: seen.faces[h] for h in seen.faces} == may
            assert all(seen.faces.get(h) is None for h in st.faces if h not in may)
            private += len(may) < len(st.faces)
    assert private, "no face was ever hidden from anyone: the test shows nothing"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_strict_replay_reproduces_the_game(name: str, seed: int) -> None:
    game = game_of(name)
    g = whole_game(game, seed)
    again = game.replay(g.config, g.n, g.events, dict(g.st.faces))
    assert game.same_end(again, g.st)
    assert list(again.history) == list(g.st.history)
    assert dict(again.faces) == dict(g.st.faces) and dict(again.known) == dict(g.st.known)
    assert game.result(again).winners == game.result(g.st).winners
