"""Classified Information as a registered game (games/classified/game.py): found by its entry point, its faces and
their linked attribute, the Big Reveal's log form, the claims of cards turned face up, CHANCE from the beacon."""

from __future__ import annotations

import pytest
from adp2p.cli.clients import folders
from adp2p.engine.classified.catalog import deck
from adp2p.games.classified import GAME
from adp2p.games.classified.table_events import to_engine, to_log
from adp2p.p2p.game import NotForPlayers, get_game


def test_it_is_registered_and_its_client_found_by_the_registry_line() -> None:
    assert get_game("classified") is GAME
    assert folders()["classified"] == "classified"


def test_each_physical_card_is_linked_to_its_card_number() -> None:
    assert GAME.deck_size == 18
    assert sorted(GAME.card_attributes()) == sorted(deck())
    assert GAME.same_card(0, 1) and not GAME.same_card(1, 2)


def test_the_big_reveal_travels_flat_and_comes_back_as_pairs() -> None:
    ev = {"t": "reveal", "p": 1, "cards": [[3, 5], [7, 9], [11, 1]]}
    logged = to_log(ev)
    assert logged["cards"] == [3, 5, 7, 9, 11, 1]
    assert to_engine(logged) == ev
    assert to_engine(ev) == ev  # the engine's form passes as it is
    with pytest.raises(GAME.illegal):
        to_engine({"t": "reveal", "p": 1, "cards": [3, 5, 7]})


def test_a_card_turned_face_up_is_claimed_as_its_number() -> None:
    assert GAME.claims({"t": "deploy", "p": 0, "h": 4, "card": 6}) == [(4, 10, 0)]
    assert GAME.claims({"t": "enlist", "p": 1, "h": 2, "as": "guard"}) == []  # face down: proved, not claimed
    assert GAME.claims({"t": "answer", "p": 1, "yes": True}) == []


def test_chance_comes_from_the_beacon_and_two_players_only() -> None:
    from adp2p.engine.classified.api import Decision

    seed = bytes(range(32))
    ev = GAME.chance_event(Decision(None, "chance:show", {"p": 0, "to": 1, "n": 3}), seed, 2)
    assert ev["t"] == "show" and 0 <= ev["i"] < 3
    assert GAME.chance_event(Decision(None, "chance:start", {}), seed, 2)["p"] in (0, 1)
    with pytest.raises(NotForPlayers):
        GAME.configure({"profile": "standard"}, 3)
    with pytest.raises(ValueError):
        GAME.configure({"profile": "standard", "round_limit": 4}, 2)
