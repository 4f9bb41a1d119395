"""Classified Information's rule profiles as values: the standard deal and the four-card variant (003: "deal 4
cards to each player ... let them choose their own Suitcase ... and one card to place into the encrypt pile")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    min_players: int = 2
    max_players: int = 2
    choose: bool = False  # the four-card variant: each player chooses their Suitcase and one card to encrypt
    hand: int = 2  # 003 set-up 1
    encrypted: int = 2  # 003 set-up 3
    guard_spots: int = 3  # 003: "a maximum of three Guards in play"
    mix: bool = True  # ruling C-MIX: a shown hand is mixed (mixing.py); False: a log of protocol version 6, before it


STANDARD = Profile("standard")
FOUR_CARD = Profile("four-card", choose=True)
PROFILES: dict[str, Profile] = {p.name: p for p in (STANDARD, FOUR_CARD)}


def get_profile(name: str = "standard") -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown Classified Information profile {name!r}; choose one of {', '.join(PROFILES)}") \
            from None
