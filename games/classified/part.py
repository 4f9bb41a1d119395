"""Classified Information's table part (`Game.table_part()`, p2p/machine/game_part.py): every answer about a hidden
card proved against that very card when it is given (docs/protocol.md, "Classified Information at the table").

An event entry whose event makes claims about hidden cards (an answer about the Suitcase, a Picking Petals number, a
face-down Guard's `guard_guild` at Enlist, the Big Reveal's cards: claims.py, `event_claims`, read from the history
items the rules appended) carries `hidden: [item]`, one item per hidden card (hidden_numbers.py). Every peer, after
the rules applied the event, takes the claims from the rules and checks the items (`HiddenNumbers.check_entry`): a
missing, surplus or false proof or link is the author's protocol error, named at every peer on arrival; an entry
that claims nothing about a hidden card carries no `hidden`. The author makes the items (`NumberProver`) from the
faces it knows: an honest seat cannot prove a false claim (`FalseStatement`).

A zoo cheater replaces `prover` (tests/adversaries/_zoo_classified.py)."""

from __future__ import annotations

import hashlib
from typing import Any

from adp2p.crypto.hashing import u64
from adp2p.crypto.set_proofs import commit_number, number_blinding
from adp2p.games.classified import mixing
from adp2p.games.classified.claims import event_claims
from adp2p.games.classified.hidden_numbers import (
    MAX_ITEMS,
    RULE_ANSWER,
    RULE_LINK,
    Claim,
    Due,
    HiddenNumbers,
    NumberProver,
)
from adp2p.games.classified.table_state import TableState, number
from adp2p.p2p.machine.common import Event, Verdict, _check_event_shape
from adp2p.p2p.machine.game_part import Fold, TablePart
from adp2p.p2p.protocol import ProtocolError, need

ENTROPY = b"adp2p/v1/classified/proof\0"  # a seeded test table's proof randomness (reproducible logs)


def claims_of(before: Any, after: Any) -> list[tuple[int, list[Claim]]]:
    """The claims about hidden cards the event that led from `before` to `after` (TableStates) makes (claims.py)."""
    items = after.eng.history[len(before.eng.history):]
    eng = before.eng
    return event_claims(items, eng.faces.get, lambda h: eng.known.get(h, 0) != eng.all_mask)


class ClassifiedPart(TablePart):
    """Classified Information's proved answers at the table (see the module docstring)."""

    def __init__(self, *, prover: type[NumberProver] = NumberProver, mixer: mixing.Mixer | None = None) -> None:
        self.prover_type = prover
        self.mixer = mixer or mixing.Mixer()  # this seat's hand mixes (ruling C-MIX: games/classified/mixing.py)
        self.numbers: HiddenNumbers | None = None  # made once both deck keys are known
        self._mixed: list[Any] | None = None  # the output of the mix entry being applied (checked before the rules)

    def record(self, fold: Fold) -> HiddenNumbers:
        if self.numbers is None:
            keys = [k[0] for k in fold.keys if k is not None]
            if len(keys) != 2 or fold.table.id_base is None:
                raise ProtocolError(None, "an answer before both deck keys are known")  # the core's order prevents it
            self.numbers = HiddenNumbers(fold.game_id, fold.table.id_base, keys)
        return self.numbers

    # ------------------------------------------------------------------ an event entry, arriving

    def check_event(self, fold: Fold, seat: int, body: dict[str, Any]) -> Event:
        ev = need(body, "ev", dict)
        _check_event_shape(ev, fold.game.bool_fields)
        if fold.game.is_chance_event(ev):
            raise ProtocolError(seat, "chance events are derived, never authored")
        if "hidden" in body:
            items = body["hidden"]
            if not (isinstance(items, list) and 1 <= len(items) <= MAX_ITEMS):
                raise ProtocolError(seat, f"`hidden` is a list of 1..{MAX_ITEMS} proof items", rule=RULE_ANSWER)
        self._mixed = mixing.check(fold, seat, body, ev)  # a hand mix's shuffle and proof (ruling C-MIX)
        return ev

    def after_event(self, fold: Fold, seat: int, body: dict[str, Any], ev: Event, before: Any) -> Any:
        """Every peer, after the rules: the claims the event made about hidden cards, each proved in the entry
        (ProtocolError naming `seat` otherwise; nothing recorded unless every item passed). A hand mix's output takes
        the new handles."""
        mixed, self._mixed = self._mixed, None
        if mixed is not None:
            mixing.record(fold, seat, mixed)
        found = claims_of(before, fold.state)
        if not found:
            if "hidden" in body:
                raise ProtocolError(seat, "answer proofs on an entry that claims nothing about a hidden card",
                                    rule=RULE_ANSWER)
            return None
        dues = [Due(h, fold.hmap[h], tuple(cl)) for h, cl in found]
        self.record(fold).check_entry(seat, fold.entries, dues, body)
        return None

    # ------------------------------------------------------------------ authoring (this seat)

    def event_body(self, fold: Fold, ev: Event) -> dict[str, Any]:
        """The proof items of this seat's event: one per hidden card its event makes claims about."""
        seat = fold.seat
        assert seat is not None and fold.deck_key is not None
        if ev.get("t") == "mix":
            return self.mixer.body(fold)
        st = fold.state
        public = TableState(st.eng, st.faces)  # the rules as every other peer applies them: public faces only
        public.faces = {h: f for h, f in st.faces.items() if st.eng.known.get(h, 0) == st.eng.all_mask}
        try:
            after = fold.game.apply(public, ev)
        except fold.game.illegal:
            return {}  # an event the rules refuse on public facts alone: every peer's rules name its author
        found = claims_of(public, after)
        if not found:
            return {}
        numbers = self.record(fold)
        assert fold.table.id_base is not None
        prover = self.prover_type(fold.game_id, fold.table.id_base, fold.deck_key)
        items = []
        for h, cl in found:
            face = fold.state.faces[h]
            linked = numbers.commitment(h, seat) is not None
            share = None if linked else fold.shares[h][1 - seat]
            entropy = None
            if fold.proof_seed is not None:
                entropy = hashlib.blake2b(ENTROPY + fold.proof_seed + u64(fold.entries) + u64(h),
                                          digest_size=32).digest()
            items.append(prover.item(fold.entries, h, fold.hmap[h], face, number(face), cl, link_share=share,
                                     entropy=entropy))
        return {"hidden": items}

    # ------------------------------------------------------------------ the audit

    def audit_secrets(self, fold: Fold, full: dict[int, int]) -> list[Verdict]:
        """Every linked number commitment opened with its holder's revealed deck secret against its card's face (a
        second net: the link proof already bound it, so a mismatch means a broken proof system)."""
        out: list[Verdict] = []
        if self.numbers is None:
            return out
        for (seat, h), c in sorted(self.numbers.linked.items()):
            secret = fold.revealed.get(seat, {}).get("deck_secret")
            if secret is None or h not in full:
                continue  # unchecked: the seat revealed nothing (its silence is the core's finding)
            if commit_number(number(full[h]), number_blinding(fold.game_id, h, secret)) != c:
                out.append(Verdict(seat, RULE_LINK, f"card {h}'s number commitment does not open to its face"))
        return out
