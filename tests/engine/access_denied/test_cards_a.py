"""Code A cards: effect and requirement / timing of each."""

from adp2p.engine.access_denied import card, pending
from adp2p.engine.access_denied.rules import has_bonus, max_draw
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    NEWSMEDIA,
    NONE,
    OPER,
    ROOT,
    TELECOMM,
    USER,
    cid,
    done,
    empty_hand,
    give,
    give_code,
    h,
    illegal_play,
    next_turn,
    pass_all,
    play,
    resolve_chance,
    set_level,
    setup,
    where,
)


def test_popular_war_extra_draw():
    st = setup(hands={0: ["popular_war"]})
    st = set_level(st, 0, NEWSMEDIA, USER)
    st = done(st)
    st = play(st, 0, "popular_war")
    st = pass_all(st)
    assert where(st, "popular_war") == ("upg", 0)
    # hand limit 2 (Banking Root + NewsMedia User); Oper/Root count 1 (+1 Popular War)
    st = empty_hand(st, 0)
    assert max_draw(st, 0) == 2


def test_popular_war_requirements():
    st = done(setup(hands={0: ["popular_war"]}))
    assert illegal_play(st, 0, "popular_war") == "requirement"
    st2 = done(setup(hands={0: ["popular_war"]}, pw={0: ["B", "C", "D"]}))
    st2 = set_level(st2, 0, NEWSMEDIA, USER)
    assert illegal_play(st2, 0, "popular_war") == "requirement_code"
    st3 = set_level(give(st, 0, "backdoor"), 0, NEWSMEDIA, NONE)
    assert illegal_play(st3, 0, "popular_war", backdoor=True) == "backdoor_upgrade"


def test_counter_virus_stops_virus_and_discards_player_hand():
    st = setup(hands={0: ["multi_virus", "D"], 1: ["counter_virus"]})
    st = set_level(set_level(st, 1, BANKING, USER), 2, BANKING, USER)
    st = done(st)
    st = play(st, 0, "multi_virus", s=BANKING)
    assert pending(st).actor == 1 and pending(st).info["window"] == "card"
    st = play(st, 1, "counter_virus")
    st = pass_all(st)
    assert st.hands[0] == []  # the virus player discarded all
    assert len(st.hands[2]) == 3  # the virus had no effect
    assert where(st, "multi_virus") == ("discard",)


def test_counter_virus_needs_access_to_the_sector():
    st = setup(hands={0: ["multi_virus"], 1: ["counter_virus"]})
    st = set_level(st, 2, BANKING, USER)
    st = play(done(st), 0, "multi_virus", s=BANKING)
    assert pending(st).actor == 1
    assert illegal_play(st, 1, "counter_virus") == "reaction_timing"


def test_dumpster_diving_shows_a_random_code():
    st = setup(hands={0: ["dumpster_diving"]})
    st = play(done(st), 0, "dumpster_diving", s=GOVERNMENT)
    st = pass_all(st)
    d = pending(st)
    assert d.kind == "chance:pick" and sorted(d.info["from"]) == sorted(st.passwords[GOVERNMENT])
    pick = st.passwords[GOVERNMENT][1]
    assert not st.known.get(pick, 0) & 1
    st = resolve_chance(st, [pick])
    assert st.known[pick] & 1


def test_dumpster_diving_only_without_access():
    st = set_level(done(setup(hands={0: ["dumpster_diving"]})), 0, GOVERNMENT, USER)
    assert illegal_play(st, 0, "dumpster_diving", s=GOVERNMENT) == "target"
    assert illegal_play(st, 0, "dumpster_diving", s=NEWSMEDIA) == "target"  # uncontrolled: no password


def test_satan_removes_root_bonus():
    st = setup(hands={1: ["satan_virus"]}, first=1)
    st = set_level(st, 1, MICRONOPOLY, OPER)
    assert has_bonus(st, 2, "hand_limit_plus2")
    st = play(done(st), 1, "satan_virus", s=MICRONOPOLY)
    st = pass_all(st)
    assert where(st, "satan_virus") == ("sec", MICRONOPOLY)
    assert not has_bonus(st, 2, "hand_limit_plus2")


def test_satan_requires_oper_in_the_sector():
    st = set_level(done(setup(hands={0: ["satan_virus"]})), 0, MICRONOPOLY, USER)
    assert illegal_play(st, 0, "satan_virus", s=MICRONOPOLY) == "target"


def test_samurai_removes_a_sector_card():
    st = setup(hands={0: ["samurai"], 1: ["logic_bomb"]}, first=1)
    st = play(done(st), 1, "logic_bomb", s=GOVERNMENT)
    st = pass_all(st)
    st = set_level(st, 1, GOVERNMENT, ROOT)
    st = next_turn(st, 0)
    st = done(st)
    st = play(st, 0, "samurai", u=h(st, "logic_bomb"))
    st = pass_all(st)
    assert where(st, "logic_bomb") == ("discard",)
    assert st.sector_cards[GOVERNMENT] == []


def test_samurai_needs_a_sector_card():
    st = done(setup(hands={0: ["samurai"]}))
    assert illegal_play(st, 0, "samurai", u=st.hands[0][0]) == "target"


def test_scramble_password_replaces_the_password():
    st = setup(hands={0: ["scramble_password", "D", "E"]})
    st = give(st, 0, "high_system")
    old = list(st.passwords[BANKING])
    new = [x for x in st.hands[0] if card(st.faces[x]).key != "scramble_password"][:3]
    st = play(done(st), 0, "scramble_password", s=BANKING, new=new)
    st = pass_all(st)
    assert sorted(st.passwords[BANKING]) == sorted(new)
    assert all(where_ == ("discard",) for where_ in (st.loc[x] for x in old))


def test_scramble_password_new_codes_must_differ_and_own_sector():
    st = done(setup(hands={0: ["scramble_password", "D"]}))
    others = [x for x in st.hands[0] if x != h(st, "scramble_password")]
    st = give_code(st, 0, "D")  # now two D cards: a repeated code
    ds = [x for x in st.hands[0] if card(st.faces[x]).code == 3]
    rest = [x for x in st.hands[0] if x not in ds and x != h(st, "scramble_password")]
    assert illegal_play(st, 0, "scramble_password", s=BANKING, new=ds[:2] + rest[:1]) == "password_distinct"
    assert illegal_play(st, 0, "scramble_password", s=GOVERNMENT, new=others[:3]) == "target"


def test_guru_raises_user_to_oper_and_oper_to_root():
    st = setup(hands={0: ["guru"]})
    st = set_level(st, 0, GOVERNMENT, USER)
    st = play(done(st), 0, "guru", s=GOVERNMENT)
    assert pending(st).kind != "window" or pending(st).info["window"] != "attempt"
    st = pass_all(st)
    assert st.access[0][GOVERNMENT] == OPER


def test_guru_not_from_no_access():
    st = done(setup(hands={0: ["guru"]}))
    assert illegal_play(st, 0, "guru", s=GOVERNMENT) == "target"
    assert illegal_play(st, 0, "guru", s=BANKING) == "target"  # own sector


def test_delete_account_removes_marker():
    st = setup(hands={0: ["delete_account"]})
    st = set_level(st, 1, BANKING, OPER)
    st = play(done(st), 0, "delete_account", s=BANKING, q=1)
    st = pass_all(st)
    assert st.access[1][BANKING] == NONE


def test_delete_account_needs_root_and_not_on_root_marker():
    st = setup(hands={0: ["delete_account"]})
    st = set_level(set_level(st, 1, BANKING, ROOT), 2, GOVERNMENT, OPER)
    st = done(st)
    assert illegal_play(st, 0, "delete_account", s=BANKING, q=1) == "target"
    assert illegal_play(st, 0, "delete_account", s=GOVERNMENT, q=2) == "target"


def test_all_a_cards_have_code_a():
    for k in ("popular_war", "counter_virus", "dumpster_diving", "satan_virus", "samurai",
              "scramble_password", "guru", "delete_account"):
        assert card(cid(k)).code_letter == "A"
    assert TELECOMM == 4
