"""Derived quantities and predicates of the rules: access counts, bonuses, hand limit, actions, draws,
requirements, and who may react to what. Pure functions of the state; the one place each rule lives.
"""

from __future__ import annotations

from adp2p.engine.access_denied.catalog import NONE, OPER, ROOT, USER, Card, card, sector_index
from adp2p.engine.access_denied.state import GameState

BANKING, GOVERNMENT, MICRONOPOLY, NEWSMEDIA, TELECOMM, UNIVERSITIES = range(6)

# Which bonus each sector grants, per bonus table (profile.bonuses). Data, read by the handlers below.
BONUS_TABLES: dict[str, dict[int, str]] = {
    "classic": {
        BANKING: "extra_draw_capped",
        GOVERNMENT: "take_top_discard",
        MICRONOPOLY: "hand_limit_plus2",
        NEWSMEDIA: "skip_draw_up_to_6",
        TELECOMM: "immune_action_loss",
        UNIVERSITIES: "auto_user",
    },
    "retro2013": {
        BANKING: "draw2_ignore_limit_then_discard",
        GOVERNMENT: "take_top_discard",
        MICRONOPOLY: "hand_limit_plus2",
        NEWSMEDIA: "skip_draw_6",
        TELECOMM: "discard2_for_action",
        UNIVERSITIES: "auto_user",
    },
}

# ... and the other way round: per table, the sectors granting each bonus (derived from BONUS_TABLES)
BONUS_SECTORS: dict[str, dict[str, tuple[int, ...]]] = {
    name: {b: tuple(s for s, x in table.items() if x == b) for b in table.values()}
    for name, table in BONUS_TABLES.items()
}

ATTEMPT_CARDS = {USER: 1, OPER: 2, ROOT: 3}  # cards handed to the controller for the level gained
UNCONTROLLED_DISCARD = {USER: 2, OPER: 3, ROOT: 4}


def upgrades_of(st: GameState, p: int, effect: str) -> int:
    ups = st.upgrades[p]
    if not ups:  # (most players, most of the game)
        return 0
    return sum(1 for h in ups if card(st.faces[h]).effect == effect and _upgrade_applies(st, h))


def _upgrade_applies(st: GameState, h: int) -> bool:
    c = card(st.faces[h])
    # 001's DSL draws a card instead of giving an action: see dsl_draws below
    return not (c.key == "dsl" and "dsl_draws" in st.profile.variants)


def dsl_draws(st: GameState, p: int) -> int:
    if "dsl_draws" not in st.profile.variants:
        return 0
    return sum(1 for h in st.upgrades[p] if card(st.faces[h]).key == "dsl")


def has_virus_immunity(st: GameState, p: int) -> bool:
    return upgrades_of(st, p, "virus_immunity") > 0


def satan_on(st: GameState, s: int) -> bool:
    on = st.sector_cards.get(s)
    return bool(on) and any(card(st.faces[h]).effect == "satan" for h in on)  # type: ignore[union-attr]


def bonus_of(st: GameState, p: int, s: int) -> str | None:
    """The bonus player p holds from sector s, or None."""
    access = st.access
    if access[p][s] != ROOT:
        return None
    if st.profile.bonus_holder == "sole":
        for q, a in enumerate(access):
            if a[s] == ROOT and q != p:
                return None
    if satan_on(st, s) and not has_virus_immunity(st, p):
        return None
    return BONUS_TABLES[st.profile.bonuses][s]


def has_bonus(st: GameState, p: int, bonus: str) -> bool:
    access = st.access[p]
    for s in BONUS_SECTORS[st.profile.bonuses].get(bonus, ()):
        if access[s] == ROOT and bonus_of(st, p, s) == bonus:
            return True
    return False


def count_level(st: GameState, p: int, at_least: int, *, only_controlled: bool = False) -> int:
    if not only_controlled:
        return len([level for level in st.access[p] if level >= at_least])
    levels = zip(st.access[p], st.controller, strict=True)
    return len([c for level, c in levels if level >= at_least and c is not None])


def hand_limit(st: GameState, p: int) -> int:
    prof = st.profile
    base = count_level(st, p, USER) if prof.hand_limit == "accesses" else int(prof.hand_limit)
    if has_bonus(st, p, "hand_limit_plus2"):
        base += 2
    base += 2 * upgrades_of(st, p, "hand_limit_plus2")
    if st.status[p].beta:
        base -= 1
    return max(0, base)


def limit_ignored(st: GameState, p: int) -> bool:
    t = st.turn
    return st.status[p].ignore_limit or (t is not None and t.player == p and t.ignore_limit)


def base_draws(st: GameState, p: int) -> int:
    """Cards the draw step allows before the hand-limit cap (normal mode)."""
    prof = st.profile
    n = count_level(st, p, OPER) if prof.draws == "oper_root" else 2
    if has_bonus(st, p, "extra_draw_capped"):
        n += 1
    n += upgrades_of(st, p, "extra_draw") + dsl_draws(st, p)
    return n


def max_draw(st: GameState, p: int) -> int:
    """How many cards the active player may draw in this draw step, all modifiers applied."""
    t = st.turn
    assert t is not None
    if t.no_draw or t.draw_mode == "none":
        return 0
    if t.draw_mode == "six" or t.draw_three:  # Good Day: six instead of the count of sectors (001's Easy Credit:
        # three; both: nine), the limit ignored; what is additional still adds (R33, R40)
        counted = count_level(st, p, OPER) if st.profile.draws == "oper_root" else 2
        fixed = (6 if t.draw_mode == "six" else 0) + (3 if t.draw_three else 0)
        return fixed + base_draws(st, p) - counted + t.extra_draws + t.draw_bonus
    n = base_draws(st, p) + t.extra_draws + t.draw_bonus
    if limit_ignored(st, p) or t.draw_bonus:
        return n
    return max(0, min(n, hand_limit(st, p) - len(st.hands[p])))


def base_actions(st: GameState, p: int) -> int:
    prof = st.profile
    n = count_level(st, p, ROOT) if prof.actions == "roots" else 1
    n += upgrades_of(st, p, "extra_action")
    return n


def action_loss_immune(st: GameState, p: int) -> bool:
    return has_bonus(st, p, "immune_action_loss")


def goal_count(st: GameState, p: int) -> int:
    """The Root accesses that count toward p's goal: in controlled sectors, or in every sector where the profile
    counts uncontrolled ones (`count_level(st, p, ROOT, only_controlled=...)`; Root is the top level)."""
    if st.profile.counts_uncontrolled(st.n) or None not in st.controller:  # every sector counts
        return st.access[p].count(ROOT)
    return len([c for level, c in zip(st.access[p], st.controller, strict=True) if level == ROOT and c is not None])


def goal_counts(st: GameState) -> list[int]:
    """`goal_count` of every player, in seat order."""
    if st.profile.counts_uncontrolled(st.n) or None not in st.controller:
        return [a.count(ROOT) for a in st.access]
    return [goal_count(st, p) for p in range(st.n)]


def level_needed(st: GameState, p: int, s: int) -> int | None:
    """The level an access attempt by p on s would gain, or None if p already has Root."""
    cur = st.access[p][s]
    return None if cur >= ROOT else cur + 1


def attempt_size(st: GameState, s: int, level: int) -> int:
    return ATTEMPT_CARDS[level] if st.controller[s] is not None else UNCONTROLLED_DISCARD[level]


def meets_access(st: GameState, p: int, c: Card) -> bool:
    r = requirement_of(c, st)
    if r is None:
        return True
    sector, level = r
    return st.access[p][sector] >= level


def meets_password_code(st: GameState, p: int, c: Card, viewer: int | None) -> bool | None:
    """True/False if known to `viewer`; None if the password faces are unknown to them."""
    if c.password_code is None:
        return True
    codes = []
    for h in st.password_handles(p):
        f = st.face(h, viewer)
        if f is None:
            return None
        codes.append(card(f).code)
    return c.password_code in codes


def requirement_of(c: Card, st: GameState) -> tuple[int, int] | None:
    """(sector, level) the card requires, with the German text variants applied."""
    return card_requirement(c, st.profile.variants)


def card_requirement(c: Card, variants: frozenset[str]) -> tuple[int, int] | None:
    """`requirement_of` for a profile with these variants."""
    if c.key == "easy_credit" and "easy_credit_needs_banking" in variants:
        return (BANKING, OPER)
    return (c.requires.sector, c.requires.level) if c.requires else None


def only_user(st: GameState, q: int, sector_key: str) -> bool:
    return st.access[q][sector_index(sector_key)] == USER


def can_attempt_now(st: GameState, p: int) -> bool:
    t = st.turn
    return t is not None and t.player == p and not t.no_attempts and not t.ended


def improvable_sectors(st: GameState, p: int) -> list[int]:
    return [s for s in range(6) if st.access[p][s] < ROOT and st.controller[s] != p]


def sector_has_access(st: GameState, p: int, s: int) -> bool:
    return st.access[p][s] > NONE
