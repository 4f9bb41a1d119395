"""Why a decision with a single legal event was taken for the player: a short reason in the player's words where the
rules give one (terminal cards are laid only at a terminal, H-LAYTERM; a check throws out a hacker without a laid
HACK card or PRIO to pay for it, 004:122-126; no SUPERSPY PROTECTION
in the hand to stop a SPY, 004:227; the controller answers by its pad, 004:118; TIME 0 at a terminal
means leaving, H-TIME0), None where the move explains itself (turning a sealed choice over, opening the pad).

Read from the player's view and the decision only, so it says nothing the player may not know."""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker.words import say
from adp2p.engine.hacker.board import CAFE
from adp2p.engine.hacker.catalog import card
from adp2p.engine.hacker.facedown import kind_of
from adp2p.engine.hacker.hackpad import hack_cards
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]


def _lay(v: HState, me: int, options: list[Event]) -> str | None:
    s = options[0].get("secret") or {}
    if s.get("chance") or s.get("term"):  # a card that must be laid (BLACKOUT, SUPER SPY) and nothing else can be
        return "must_lay"
    faces = [v.face(h, me) for h in v.hands[me]]
    if not faces:
        return "empty_hand"
    kinds = {kind_of(v, card(f)) for f in faces if f is not None}
    if "terminal" in kinds and v.terminal_of(me) is None:  # H-LAYTERM
        return "cafe_term" if v.where[me] == CAFE else "queue_term"
    if kinds and "chance" not in kinds and "terminal" not in kinds:
        return "from_hand"  # SUPERSPY PROTECTION is played from the hand (H-LAYTERM)
    return None


def reason_key(v: HState, me: int, kind: str, info: dict[str, Any], options: list[Event]) -> str | None:
    """The key of the reason (`why.<key>` in the words) a single legal event was forced, or None."""
    if not options:
        return None
    t = options[0]["t"]
    if kind == "seal" and info.get("what") == "lay":
        return _lay(v, me, options)
    if kind == "seal" and info.get("what") == "place":
        if v.where[me] == CAFE:
            return None
        return "time0" if v.terminal_of(me) is not None and v.time[me] == 0 else None
    if t == "decline":
        return "no_ssp"
    if t == "use_hack":
        return "must_hack"
    if t == "eject":
        return "no_prio" if hack_cards(v, me) else "no_hack"
    if t == "answer":
        return "pad_says"
    return None


def reason(v: HState, me: int, kind: str, info: dict[str, Any], options: list[Event], lang: str) -> str | None:
    key = reason_key(v, me, kind, info, options)
    return say(f"why.{key}", lang) if key else None
