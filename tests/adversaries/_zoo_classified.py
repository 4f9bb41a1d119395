"""The adversary zoo's Classified Information cheaters (games/classified/part.py's proved answers): each is a `Blind`
machine (tests/adversaries/_zoo.py: its engine judges its own moves on public faces only, as the other peer's does)
that lies once, on its first chance, in one way. An honest prover cannot prove a false claim (`FalseStatement`), so
a liar's prover (`LyingProver`) proves what its card truly is instead: the proof of another set, which does not
verify against the set its answer claims."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from _zoo import Blind
from adp2p.engine.classified.catalog import card
from adp2p.games.classified.claims import HIDDEN
from adp2p.games.classified.hidden_numbers import Claim, NumberProver
from adp2p.games.classified.mixing import Mixer
from adp2p.games.classified.part import ClassifiedPart
from adp2p.p2p.machine.dealer import Dealer

Event = dict[str, Any]


class LyingProver(NumberProver):
    """Proves each claim its number satisfies, and for one it does not, the true claim `{number}` in its place."""

    def fields(self, seq: int, h: int, card: Any, face: int, number: int, claims: Sequence[Claim], **kw: Any) -> Any:
        honest = [c if number in c.members else Claim(c.purpose, (number,)) for c in claims]
        return super().fields(seq, h, card, face, number, honest, **kw)


def lying_part(game: Any) -> ClassifiedPart:
    return ClassifiedPart(prover=LyingProver)


class ClassifiedBlind(Blind):
    part_factory = staticmethod(lying_part)


def _question(seen: Any) -> dict[str, Any]:
    task = seen.eng.stack[-1] if seen.eng.stack else {}
    return task.get("question") or {}


class AnswerLiar(ClassifiedBlind):
    """A seat that answers a question of kind `kind` about its own hidden card (one the other seat does not know)
    falsely (yes for no, no for yes)."""

    kind = ""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        q = _question(seen)
        if what != "answer" or len(options) != 1 or q.get("q") != self.kind:
            return None
        if seen.eng.known.get(q[HIDDEN[self.kind]], 0) == seen.eng.all_mask:
            return None  # a card both seats know: the rules judge that answer themselves (not the proofs' case)
        return {**options[0], "yes": not options[0]["yes"]}


class NearLiar(AnswerLiar):
    kind = "near"  # Fortune Teller: within ±2 of the Suitcase


class EqualLiar(AnswerLiar):
    kind = "equal"  # Test Access Codes: is the picked card the Suitcase Number


class WheelLiar(AnswerLiar):
    kind = "in_code"  # Wheel of Fate, Shine Spotlights, Decoy Guard: is the number in the Suitcase's Code


class GuardLiar(AnswerLiar):
    """A false face-down Guard comparison: the defender says its face-down Guard's Code does (not) touch the
    Assassin's."""

    kind = "touch"


class PetalsLiar(ClassifiedBlind):
    """Picking Petals: a seat that names its own Suitcase Number as a number that is not its Suitcase."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what != "name" or not options:
            return None
        s = seen.eng.faces.get(seen.eng.suitcase[p])
        named = seen.eng.stack[-1].get("named", [])
        if s is None or s == 3 or s in named:
            return None
        return {**options[0], "n": s}


class FakeGuard(ClassifiedBlind):
    """A seat that enlists, face down as a Guard, a card that cannot guard (an Assassin)."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what != "action" or len(seen.eng.guards[p]) >= seen.eng.profile.guard_spots:
            return None
        for h in seen.eng.hands[p]:
            f = seen.eng.faces.get(h)
            if f is not None and not card(f).can_guard:
                return {"t": "enlist", "p": p, "h": h, "as": "guard"}
        return None


class FalseReveal(ClassifiedBlind):
    """At the Big Reveal, a seat that claims another number for its Suitcase."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what != "reveal" or not options:
            return None
        s = seen.eng.suitcase[p]
        flat = list(options[0]["cards"])
        for i in range(0, len(flat), 2):
            if flat[i] == s:
                flat[i + 1] = flat[i + 1] % 9 + 1
                return {**options[0], "cards": flat}
        return None


class SwapsSuitcase(ClassifiedBlind):
    """A Suitcase swapped mid-game: once its Suitcase is linked, the seat answers about it as if it were another card
    of its hand (a fresh number commitment and the link of that other card, in the Suitcase's item)."""

    chance_from = 1

    class Part(ClassifiedPart):
        def event_body(self, fold: Any, ev: Event) -> dict[str, Any]:
            out = super().event_body(fold, ev)
            p = fold.seat
            s = fold.state.eng.suitcase[p]
            if fold.cheat_seq is not None or not out.get("hidden") or self.record(fold).commitment(s, p) is None:
                return out
            hand = [h for h in fold.state.eng.hands[p] if fold.state.faces.get(h) is not None
                    and fold.state.eng.faces[h] != fold.state.eng.faces[s] and h in fold.shares
                    and 1 - p in fold.shares[h]]
            items = out["hidden"]
            for i, item in enumerate(items):
                if item["h"] != s or not hand:
                    continue
                other = hand[0]
                face = fold.state.faces[other]
                n = face // 2 + 1
                prover = LyingProver(fold.game_id, fold.table.id_base, fold.deck_key)
                claims = [Claim(b"swap", (n,))]
                fake = prover.item(fold.entries, other, fold.hmap[other], face, n, claims,
                                   link_share=fold.shares[other][1 - p])
                items[i] = {**fake, "h": s, "proofs": fake["proofs"] * len(item["proofs"])}
                fold.cheated()
                return out
            return out

    part_factory = staticmethod(lambda game: SwapsSuitcase.Part(prover=LyingProver))


class WalksAway(ClassifiedBlind):
    """Honest until its first answer about a hidden card is due, then silent (it would rather not prove it)."""

    class Author(ClassifiedBlind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if d is not None and d.seat == fold.seat and d.what == "answer":
                fold.cheated()
                return None
            return super().author_next(fold, choose)

    author = Author()


class FalseNumber(ClassifiedBlind):
    """A consistent liar: with its first proof about a hidden card it commits another number than the card's (one
    of which every claim it makes there is true: a Guard's guild, an answer), proves those claims truly of that
    number, and forges the card link with the id of a card that has that number (crypto/card_link.py's Σ-protocol
    run with the false witness): every peer names it (`number_link`)."""

    class Part(ClassifiedPart):
        def event_body(self, fold: Any, ev: Event) -> dict[str, Any]:
            from adp2p.crypto import card_link as cl
            from adp2p.crypto.deck import Share, combine
            from adp2p.crypto.group import scalar_from_int
            from adp2p.crypto.set_proofs import NumberContext, commit_number, number_blinding, prove_in_set

            out = super().event_body(fold, ev)
            if fold.cheat_seq is not None or not out.get("hidden") or "number" not in out["hidden"][0]:
                return out
            item = out["hidden"][0]
            h, p, seq = item["h"], fold.seat, fold.entries
            true = fold.state.eng.faces[h]
            claims = _claims_at(fold, ev, h)
            false = next((n for n in range(1, 10) if n != true and all(n in c.members for c in claims)), None)
            if false is None:
                return out
            blind = number_blinding(fold.game_id, h, fold.deck_key.secret)
            c = commit_number(false, blind)
            ct = fold.hmap[h]
            share = Share.from_bytes(item["link"][0])
            c2p = combine(ct, [share.d])
            lctx = NumberContext(fold.game_id, p, h, b"link", seq)
            statement = (fold.table.id_base, fold.keys[p][0], ct.c1, c2p, c)
            forged = cl._prove(statement, fold.deck_key.secret, scalar_from_int(2 * (false - 1) + 1), blind,
                               lctx.to_bytes(), bytes(32))
            proofs = [prove_in_set(c, false, blind, cl_.members, NumberContext(fold.game_id, p, h, cl_.purpose, seq))
                      for cl_ in claims]
            out["hidden"][0] = {"h": h, "number": c, "link": [item["link"][0], forged], "proofs": proofs}
            fold.cheated()
            return out

    part_factory = staticmethod(lambda game: FalseNumber.Part())


def _claims_at(fold: Any, ev: Event, h: int) -> list[Claim]:
    from adp2p.games.classified.part import claims_of
    from adp2p.games.classified.table_state import TableState

    st = fold.state
    public = TableState(st.eng, st.faces)
    public.faces = {k: f for k, f in st.faces.items() if st.eng.known.get(k, 0) == st.eng.all_mask}
    return dict(claims_of(public, fold.game.apply(public, ev)))[h]


class ShownCardDealer(Dealer):
    """Its share for the handle the beacon picked to show is its true share of another card of its fold's hand."""

    def share(self, fold: Any, h: int, ct: Any, mode: str) -> Any:
        from adp2p.crypto.deck import make_share

        rnd = fold.round
        hand = fold.state.eng.hands[fold.seat] if fold.seat is not None else []
        shown = bool(fold.events) and fold.events[-1].get("t") == "show"
        others = [x for x in hand if x != h]
        if fold.cheat_seq is None and shown and rnd is not None and h in hand and others:
            fold.cheated()
            return make_share(fold.game_id, fold.deck_key, others[0], fold.hmap[others[0]])
        return super().share(fold, h, ct, mode)


class ChoosesShownCard(ClassifiedBlind):
    """After a failed attempt on it, the defender shows the attacker a card of its choice instead of the beacon's
    pick: its share for the picked handle is its true share of another card of its hand."""

    dealer = ShownCardDealer()


class PeeksBeyond(ClassifiedBlind):
    """A seat that tries to see more than its due: holding no Fortune Teller, it Deploys another card of its hand as
    Fortune Teller (PEEK 2), to look at the top two cards of the Draw Deck. Every peer learns the claim with the
    Deploy (C-CLAIM) and checks it when the card's shares open it to all, before any PEEK is shown: `face_claim`
    names it, with every seat's proven share of that card as the proof."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        from adp2p.engine.classified.abilities import params

        v = seen.eng
        if what != "action" or any(o.get("t") == "deploy" and o.get("card") == 1 for o in options):
            return None  # (holding Fortune Teller, its PEEK is its due)
        for h in v.hands[p]:
            f = v.faces.get(h)
            if f is not None and f != 1 and v.known.get(h, 0) != v.all_mask:
                prm = params(v, p, h, 1)
                return {"t": "deploy", "p": p, "h": h, "card": 1, **prm[len(prm) // 2]}
        return None


class SwapMixer(Mixer):
    """Mixes its hand once with a card swapped in: the first output is a re-masked card of the Draw Deck (or of the
    Encrypted Card Pile), not one of its hand; the proof of shuffle is made from the honest witness, so it proves
    nothing about this output."""

    def output(self, fold: Any, hand: list[Any], pk: bytes) -> tuple[list[Any], Any]:
        from adp2p.crypto.deck import shuffle

        out, w = super().output(fold, hand, pk)
        eng = fold.state.eng
        outside = [*eng.deck, *eng.encrypted]
        if fold.cheat_seq is None and outside:
            fold.cheated()
            out = [shuffle([fold.hmap[outside[0]]], pk)[0][0], *out[1:]]
        return out, w


class MixesIn(ClassifiedBlind):
    """A seat that mixes its hand after a show with a card swapped in (a card of the deck for one it was seen to
    hold): every peer checks the mix's proof of shuffle on arrival and names it (`hand_mix`)."""

    part_factory = staticmethod(lambda game: ClassifiedPart(prover=LyingProver, mixer=SwapMixer()))
