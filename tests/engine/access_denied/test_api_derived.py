"""The quantities the rules derive, read through the public API (`engine/access_denied/api.py`): actions left, hand
limit, draws allowed, the goal and each player's count toward it, the bonuses held, and the card -> handle lookup."""

from adp2p.engine.access_denied import api
from adp2p.engine.access_denied.rules import max_draw
from harness import (
    BANKING,
    GOVERNMENT,
    MICRONOPOLY,
    OPER,
    ROOT,
    USER,
    advance_to,
    done,
    h,
    set_level,
    setup,
)


def test_derived_quantities_at_the_start_and_as_access_grows():
    st = setup(hands={0: ["good_day"]})  # three players, player i controls sector i (Root there)
    assert api.goal(st) == (3, [1, 1, 1])
    assert api.bonuses(st, 0) == {BANKING: "extra_draw_capped"}
    assert api.hand_limit(st, 0) == 1
    st = set_level(set_level(st, 0, GOVERNMENT, USER), 0, MICRONOPOLY, ROOT)
    assert api.hand_limit(st, 0) == 3  # three sectors with access
    # P2 controls Micronopoly and has Root there too: P0 does not hold its bonus alone, so it has none of it
    assert api.bonuses(st, 0) == {BANKING: "extra_draw_capped"}
    assert api.goal(st)[1] == [2, 1, 1]
    st = set_level(st, 1, BANKING, ROOT)  # and now nobody holds Banking's alone
    assert api.bonuses(st, 0) == {} and api.hand_limit(st, 0) == 3


def test_actions_left_and_draws_allowed_follow_the_turn():
    st = done(setup())  # P0's Take Actions step: one action per Root
    assert api.actions_left(st) == 1
    st = set_level(st, 0, GOVERNMENT, OPER)
    st = advance_to(st, "draw", 0)
    assert api.draws_allowed(st) == max_draw(st, 0)


def test_handles_of_finds_every_copy_it_knows():
    st = setup(hands={0: ["firewall"]})
    found = api.handles_of(st, "firewall")
    assert h(st, "firewall") in found and all(st.faces[x] == st.faces[found[0]] for x in found)
    seen = api.view(st, 1)  # P1 has not seen P0's hand
    assert h(st, "firewall") not in api.handles_of(seen, "firewall")
    assert api.bonuses(st, 1) == {GOVERNMENT: "take_top_discard"}
