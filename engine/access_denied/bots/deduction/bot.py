"""The deduction bot: keeps the password checklist from everything its seat sees and plays with purpose.

It is called with successive views of one seat of one game and keeps state across calls:

* the checklist (`engine.checklist.Checklist`), synced with every view (shown codes, its own passwords,
  Scramble Password), plus the answers to its own attempts (where the handed cards went: returned =
  code in, kept = code out; nothing when Firewall or Route Trace intervened), Wiretap evidence (the
  faces it was shown and the public answer) and code-requiring upgrades played by single-sector players;
* attempts are scored by expected value: the chance all codes are in (uniform over the passwords still
  possible), the value of the level gained (Root on controlled sectors most of all, a win above all),
  the information the answer gives (bits) and the expected value of the cards the controller keeps;
  cards the hand limit will discard anyway count for little (so uncontrolled sectors are bought with
  surplus cards when it pays);
* cards are played by a value table per effect (access gains, Guru, upgrades, information, attacks
  aimed at the leader), reactions when they pay (Firewall on a succeeding attempt on its sector, Route
  Trace / CancelBot against the leader, Backup, Press Pass, Anti-Virus, Counter-Virus, Mocking Bird,
  Wiretap for information);
* the password is built from rare codes, from cards it least wants to play, and with the codes its
  upgrades need; discards drop the cards least useful against the passwords it is attacking;
* a trade offered to it is accepted, every set of cards it could give back weighed (its harmful cards go back).
"""

from __future__ import annotations

import random
from typing import Any

from adp2p.engine.access_denied.api import pending
from adp2p.engine.access_denied.bots.deduction.acting import ActingPart, AttemptTerms
from adp2p.engine.access_denied.bots.deduction.choices import ChoicesPart
from adp2p.engine.access_denied.bots.deduction.common import (
    Event,
)
from adp2p.engine.access_denied.bots.deduction.learning import LearningPart
from adp2p.engine.access_denied.bots.deduction.values import ValuesPart
from adp2p.engine.access_denied.catalog import card
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.state import GameState


class DeductionBot(LearningPart, ValuesPart, ActingPart, ChoicesPart):
    name = "deduction"
    raise_errors = False  # tests set this to see a strategy bug instead of the safe fallback

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.cl: Checklist | None = None
        self._attempt: dict[str, Any] | None = None  # own attempt awaiting its outcome
        self._taps: list[dict[str, Any]] = []  # wiretapped attempts awaiting their answer
        self._upg_seen: set[int] = set()
        self._cv: dict[int, float] = {}  # card values, for one decision
        self._code_use: dict[int, float] = {}  # what a code is worth for attempts, for one decision
        self._targets: list[tuple[float, tuple[float, ...]]] | None = None  # the passwords attacked, for one decision
        self._sector_terms: dict[int, AttemptTerms] = {}  # per sector, what its attempts share, for one decision
        self._code_of: dict[int, int] = {}  # the code of each card in hand, for one decision
        self._code_bit: dict[int, int] = {}  # ... as a bit (1 << code)
        self._code_val: list[tuple[int, int, float]] = []  # ... (card, code, value) for the hand, for one decision
        self._bases: dict[tuple[tuple[int, int], float, float], dict[int, float | None]] = {}  # see _attempt_terms
        self._lead: int | None = None  # the leader, for one decision

    def __call__(self, st: GameState, seat: int, options: list[Event]) -> Event:
        n = len(options)
        if not n:
            raise ValueError(f"seat {seat} was asked to decide with no legal events")
        if self.cl is None:
            self.seat = seat
            self.cl = Checklist(seat)
        if n == 1:  # nothing to choose: only what the next moves could blur is taken in now
            self._take_in_outcomes(st)
            return options[0]
        self._learn(st)
        self._cv = {}
        self._code_use = {}
        self._targets = None
        self._sector_terms = {}
        self._code_of = {}
        self._code_bit = {}
        self._lead = None
        d = pending(st)
        kind = d.kind if d is not None else ""
        try:
            ev = self._decide(st, kind, d.info if d is not None else {}, options)
        except Exception:  # pragma: no cover - a bot never breaks a game; fall back to a safe choice
            if self.raise_errors:
                raise
            ev = None
        if ev is None or ev not in options:
            ev = self._fallback(options)
        if ev["t"] == "attempt":
            self._note_attempt(st, ev)
        elif ev["t"] == "play" and card(ev["face"]).effect == "wiretap":
            self._note_wiretap(st)
        return ev

    def _fallback(self, options: list[Event]) -> Event:
        for t in ("pass", "done", "begin"):
            for ev in options:
                if ev["t"] == t:
                    return ev
        for ev in options:
            if ev["t"] == "trade_reply" and not ev.get("accept"):
                return ev
        return options[0]

