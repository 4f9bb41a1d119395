"""Rule profiles: every difference between the rulebooks (000/001 classic, 002 retro2013, its two-player
variant, the alternative goals, the German card texts) is a field of one immutable value, never a fork.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    min_players: int = 3
    max_players: int = 6
    sectors_per_player: int = 1
    deal: int = 6
    # actions: "roots" = one per Root access at the start of the Take Actions step (000); "fixed" = 1 (002)
    actions: str = "roots"
    # hand limit: "accesses" = number of sectors with any access (000); an int = that many (002: 6)
    hand_limit: str | int = "accesses"
    # draw step: "oper_root" = Oper + Root count (000); "upto2" = 0..2 (002)
    draws: str = "oper_root"
    # bonuses: "sole" = only the one player with Root (000); "any" = every Root holder (002)
    bonus_holder: str = "sole"
    bonuses: str = "classic"  # which bonus table: "classic" (000) or "retro2013" (002)
    goal: int = 3  # Root accesses needed to win
    # None: count uncontrolled sectors only when the goal exceeds the number of controlled sectors (000)
    count_uncontrolled: bool | None = None
    round_limit: int | None = None  # agreed turn limit, in rounds; then most Roots, Opers, Users wins
    # a table rule (not in any rulebook): after this many whole rounds in which nobody's access changed, the game
    # ends as at the round limit (players, or bots, stuck repeating moves); None: never
    stalemate_rounds: int | None = None
    # card text variant: "en" (000 is the reference) or "de" (001's differing texts)
    card_texts: str = "en"
    # 001 demands distinct codes among the cards of one access attempt
    distinct_attempt_codes: bool = False
    # cards whose rules differ in this profile's rulebook, by name (001: docs/rules.md R3, R35, R36):
    # "dsl_draws" (DSL draws 1 more instead of giving an action), "revoke_login_needs_root", "easy_credit_needs_banking"
    # (Oper or Root in Banking), "route_trace_keeps_turn" (the attacker's turn goes on), "retro_virus_on_try" (it
    # strikes whoever tries to improve access, after the attempt), "fbi_any_upgrade" (own upgrades too),
    # "fifteen_minutes_any_player" (oneself too), "uncontrolled_count_above_three" (a goal of 4-6 Roots always
    # counts uncontrolled sectors), "easy_credit_draws_three" (3 cards instead of the step's count, not 3 more)
    variants: frozenset[str] = frozenset()
    options: dict = field(default_factory=dict, compare=False, hash=False)

    def with_options(self, **kw: object) -> Profile:
        return replace(self, **kw)  # type: ignore[arg-type]

    def counts_uncontrolled(self, n_players: int) -> bool:
        if self.count_uncontrolled is not None:
            return self.count_uncontrolled
        if "uncontrolled_count_above_three" in self.variants:  # 001:265 (R39)
            return self.goal > 3
        return self.goal > n_players * self.sectors_per_player

    def describe(self, lang: str = "en") -> str:
        """The profile in a few words ("classic, goal 3 Roots, limit 200 rounds"), in English or German."""
        de = lang == "de"
        bits = [self.name, f"Ziel {self.goal} Roots" if de else f"goal {self.goal} Roots"]
        if self.round_limit:
            bits.append(f"Limit {self.round_limit} Runden" if de else f"limit {self.round_limit} rounds")
        if self.stalemate_rounds:
            n = self.stalemate_rounds
            bits.append(f"Patt nach {n} Runden ohne Zugangsänderung" if de else f"stalemate after {n} idle rounds")
        if self.card_texts != "en":
            bits.append(("deutsche Kartentexte" if self.card_texts == "de" else f"Kartentexte {self.card_texts}")
                        if de else f"{self.card_texts} card texts")
        return ", ".join(bits)


CLASSIC = Profile("classic")
GERMAN = Profile(
    "classic-de",
    card_texts="de",
    distinct_attempt_codes=True,
    variants=frozenset(
        {"dsl_draws", "revoke_login_needs_root", "easy_credit_needs_banking", "route_trace_keeps_turn",
         "retro_virus_on_try", "fbi_any_upgrade", "fifteen_minutes_any_player", "uncontrolled_count_above_three",
         "easy_credit_draws_three"}
    ),
)
RETRO2013 = Profile(
    "retro2013", actions="fixed", hand_limit=6, draws="upto2", bonus_holder="any", bonuses="retro2013"
)
TWO_PLAYER = Profile(
    "two-player",
    min_players=2,
    max_players=2,
    sectors_per_player=2,
    deal=9,
    actions="fixed",
    hand_limit=6,
    draws="upto2",
    bonus_holder="any",
    bonuses="retro2013",
    goal=5,
    count_uncontrolled=True,
)

PROFILES: dict[str, Profile] = {p.name: p for p in (CLASSIC, GERMAN, RETRO2013, TWO_PLAYER)}


def get_profile(
    name: str, *, goal: int | None = None, round_limit: int | None = None, stalemate_rounds: int | None = None
) -> Profile:
    try:
        prof = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rules profile {name!r}; choose one of {', '.join(PROFILES)}") from None
    if goal is not None:
        if not 3 <= goal <= 6:
            raise ValueError("the goal must be 3, 4, 5 or 6 Root accesses")
        prof = replace(prof, goal=goal)
    if round_limit is not None:
        if round_limit < 1:
            raise ValueError("the round limit must be at least 1")
        prof = replace(prof, round_limit=round_limit)
    if stalemate_rounds is not None:
        if stalemate_rounds < 1:
            raise ValueError("a stalemate needs at least 1 round without access changes")
        prof = replace(prof, stalemate_rounds=stalemate_rounds)
    return prof
