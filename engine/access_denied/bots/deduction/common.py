"""What every part of the deduction bot shares: the worth tables (upgrades, card plays, hindering effects) and the
account keys it reads."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
CODE_COUNT = (8, 9, 10, 11, 12, 13)  # cards per code A..F

UPGRADE_VALUE = {
    "extra_action": 5.0,
    "extra_draw": 3.0,
    "hand_limit_plus2": 3.5,
    "extra_free_attempt": 3.0,
    "virus_immunity": 1.0,
}
NO_ANSWER = {"firewall", "route_trace", "route_trace_ends_turn"}  # an attempt that ends without an answer
TRADES = {"trade_offer", "trade_declined", "trade"}
HINDER = {"no_actions_next", "no_attempts_next", "no_draw_next", "sol", "beta_site"}
STATIC_PLAY = {  # rough worth of holding a card for its play (not its code)
    "guru": 5.0,
    "gain_user": 3.0,
    "bank_error": 3.0,
    "firewall": 2.5,
    "route_trace": 1.5,
    "backup": 1.5,
    "cancelbot": 1.5,
    "wiretap": 1.0,
    "mocking_bird": 1.0,
    "show_random_code": 1.5,
    "anti_virus": 1.0,
    "counter_virus": 1.0,
    "press_pass": 1.0,
    "olfactopeg": 2.0,
    "nsa": 2.0,
    "human_services": 1.5,
    "draw_six": 2.5,
    "draw_three_more": 1.5,
    "remove_marker": 1.0,
    "multi_virus": 1.5,
    "discard_all_others": 1.5,
    "take_upgrade": 1.0,
    "copybot": 1.0,
}

