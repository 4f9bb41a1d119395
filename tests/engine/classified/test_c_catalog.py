"""The Citrine deck as data and the wheel's arithmetic (classified-setup.md "A card"; docs/rules-classified.md)."""

from adp2p.engine.classified.catalog import NUMBERS, card, card_by_key, cards, code, deck, distance, near, touch


def test_codes_wrap_around_the_wheel():
    assert code(6) == (5, 6, 7)
    assert code(9) == (8, 9, 1)
    assert code(1) == (9, 1, 2)


def test_within_two_counts_around_the_wheel_inclusive():
    # 003:20 Josephine: 8, 9, 1, 2 and 3 are within +/-2 of 1; her 9 answers yes
    assert [n for n in NUMBERS if near(n, 1)] == [1, 2, 3, 8, 9]
    assert near(1, 9) and not near(5, 9)
    assert distance(2, 8) == 3


def test_codes_touch_when_they_share_a_number():
    # 003:17: Fortune Teller's 9-1-2 against Switch Places' 3-4-5: no number in common
    assert not touch(1, 4)
    assert touch(1, 3) and touch(9, 2) and touch(5, 5)


def test_deck_is_two_of_each_number():
    assert sorted(deck()) == sorted([*NUMBERS, *NUMBERS])
    assert [c.number for c in cards()] == list(NUMBERS)


def test_published_cards_and_guild_hints():
    names = [c.name_en for c in cards()]
    assert names[:7] == ["Fortune Teller", "Test Access Codes", "Picking Petals", "Switch Places", "Scavenge",
                         "Extra Protection", "Wheel of Fate"]
    assert names[7:] == ["Decoy Guard", "Shine Spotlights"]
    assert card(1).can_assassinate  # 003:17 John plays Fortune Teller as an Assassin
    assert card(4).can_guard  # 003:17 Switch Places sits as a face-down Guard


def test_c_guilds_every_code_holds_one_guild_of_each():
    for s in NUMBERS:
        assert sorted(card(n).guild for n in code(s)) == ["assassin", "guard", "sentinel"], s
    assert card_by_key("decoy_guard").guild == "guard"


def test_c_symbols_react_peek_and_no_citrine_trigger():
    assert [c.number for c in cards() if c.react] == [6]
    assert {c.number: c.peek for c in cards() if c.peek} == {1: 2}
    assert not any(c.trigger for c in cards())
    assert [c.number for c in cards() if c.tuck] == [6]


def test_german_texts_are_there_and_ours():
    from adp2p.engine.classified.catalog import source

    for c in cards():
        assert c.name("de") and c.text("de") and c.text("de") != c.text("en")
    assert "German texts" in source()
