"""The adversary zoo's Hacker cheaters (games/hacker/seals.py's checks, the rules' `controller_*` and laying rules):
each is a `HBlind` machine (tests/adversaries/_zoo.py's `Blind`) that lies once, on its first chance, in one way."""

from __future__ import annotations

from typing import Any

from _zoo import Blind
from adp2p.crypto.commit_open import commit_value
from adp2p.engine.hacker.board import ring
from adp2p.engine.hacker.catalog import tables
from adp2p.games.hacker.end_openings import EndOpenings
from adp2p.games.hacker.part import HackerPart
from adp2p.games.hacker.seals import Seals, encode
from adp2p.games.hacker.table_state import TableState
from adp2p.p2p.machine.authoring import Author as HonestAuthor
from adp2p.p2p.machine.referee import Referee, Step
from adp2p.p2p.protocol import Kind

Event = dict[str, Any]


class HBlind(Blind):
    """`Blind`'s way to lie once, but its engine keeps every face it knows: each lie here is one every peer sees
    (an opening against a commitment, a public rule), so its own engine needs no blindness to let it pass."""

    referee = Referee()


class LyingController(HBlind):
    """A controller that answers a probe against its committed pad (with the true square's opening)."""

    chance_from = 4  # the first seed of the zoo's 4-player table where a probe comes to its pad

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "answer" and len(options) == 1:
            return {**options[0], "check": not options[0]["check"]}
        return None


class PadBreaksTable(HBlind):
    """A controller that seals a pad the hack table does not allow for its roll (one check too few: none in the
    outer ring), then answers by it and opens it."""

    chance_from = 3  # the first seed of the zoo's 4-player table where a probe comes to its pad

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "seal" and options and options[0]["what"] == "pad":
            roll = seen.eng.secrets[f"roll:{p}"]
            if tables().hack_table[sum(roll)][0] == 0:
                return None
            pad = [s for s in options[0]["secret"] if ring(s) != 0]  # no outer checks: fewer than the table says
            return {**options[0], "secret": pad}
        return None


class WrongRoll(HBlind):
    """A controller that opens a roll of the same sum but other dice than its private roll (the pad still fits the
    hack table: only the dice commitment shows the lie)."""

    chance_from = 3  # the first seed of the zoo's 4-player table where a probe comes to its pad

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "open_pad" and options:
            a, b = options[0]["roll"]
            if a == b == 1 or a == b == 6:
                return None
            other = [a - 1, b + 1] if a > 1 and b < 6 else [a + 1, b - 1]
            return {**options[0], "roll": other}
        return None


class ChangedPlace(HBlind):
    """A seat that turns over another place card than it sealed (sending its seal's true opening)."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "unseal" and options and options[0]["what"] == "place":
            from adp2p.engine.hacker.sealing import places_for

            other = [x for x in places_for(seen.eng, p) if x != options[0]["to"]]
            return {**options[0], "to": other[0]} if other else None
        return None


class ForgedPlaceOpening(ChangedPlace):
    """As ChangedPlace, but it makes up an opening of the other place (a fresh salt): it does not open the seal."""

    class Pieces(Seals):
        def event_body(self, fold: Any, ev: Event) -> dict[str, Any]:
            out = super().event_body(fold, ev)
            if ev.get("t") == "unseal" and fold.cheat_seq == fold.entries:
                seq, _ = self.seals[f"place:{fold.seat}"]
                _, opening = commit_value(self.binding(fold, fold.seat, "place", seq), encode("place", ev["to"]))
                out["opening"] = list(opening)
            return out

    part_factory = staticmethod(lambda game: HackerPart(seals=ForgedPlaceOpening.Pieces))


class HiddenLaidCard(HBlind):
    """A seat that opens its laying with a card left out (a laid card it will not play)."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "unseal" and options and options[0]["what"] == "lay":
            ev = options[0]
            for pile in ("chance", "term"):
                if ev[pile]:
                    return {**ev, pile: ev[pile][1:]}
        return None


class PlaysUnlaid(HBlind):
    """A seat that plays a card from its hand that it did not lay."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        hand = seen.eng.hands[p]
        if what == "play" and options and hand and "h" in options[0]:
            return {**options[0], "h": hand[0]}
        return None


class DiscardsPlayable(HBlind):
    """A seat that discards a laid card as unplayable though it could play it (a laid card not played)."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        if what == "play" and options and options[0]["t"] == "play" and "h" in options[0]:
            return {"t": "discard", "p": p, "h": options[0]["h"], "card": options[0]["card"]}
        return None


class FaceBlindReferee(Referee):
    """`BlindReferee` for a Hacker table: its fold's engine judges its moves on public faces only."""

    def judge(self, fold: Any, seat: int | None, ev: Event, step: Step) -> None:
        before = fold.state
        blind = TableState(before.eng, before.faces)
        blind.faces = {h: f for h, f in before.faces.items() if before.known.get(h, 0) == before.all_mask}
        fold.state = blind
        try:
            step(seat, ev)
        except BaseException:
            fold.state = before
            raise
        kept = {h: f for h, f in before.faces.items() if h in fold.state.eng.loc}
        fold.state.faces = kept | fold.state.faces


class FaceBlind(HBlind):
    """`Blind` for a Hacker table: its engine judges its own moves on public faces only (as the others' engines do),
    so that a lie about a face the others cannot see does not stop its own machine; it keeps its faces for choosing
    (the engine's kinds are set with the physical faces: `TableState.faces`)."""

    referee = FaceBlindReferee()


class PlaysAsOther(FaceBlind):
    """A seat that plays a laid card as another card than it is (one of the same pile that has targets now, so the
    rules, which cannot see the face, accept it)."""

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        from adp2p.engine.hacker.catalog import card_by_key, cards
        from adp2p.engine.hacker.facedown import kind_of
        from adp2p.engine.hacker.playing import targets

        if what != "play":
            return None
        for ev in options:
            if ev["t"] not in ("play", "discard"):
                continue
            pile = "chance" if ev["h"] in seen.eng.laid_chance[p] else "term"
            kind = kind_of(seen.eng, card_by_key(ev["card"]))
            for c in cards():
                if c.key == ev["card"] or kind_of(seen.eng, c) != kind:
                    continue
                tgs = targets(seen.eng, p, c.key, pile)
                if tgs:
                    return {"t": "play", "p": p, "h": ev["h"], "card": c.key, **tgs[0]}
        return None


class FalseSealOpening(HBlind):
    """Honest in play; at the end it reveals an opening of a seal it left unopened (its place or laying, when a
    verdict stopped the game before its turn to open) that does not open the seal: another value, its true salt."""

    class Pieces(EndOpenings):
        def author_secret_fields(self, fold: Any) -> dict[str, Any]:
            out = super().author_secret_fields(fold)
            if out["seals"] and fold.cheat_seq is None:  # once: then it reveals them truly (the table goes on)
                fold.cheated()
                seq, k, value, salt = out["seals"][0]
                out["seals"][0] = [seq, k, value[:-1] + bytes([value[-1] ^ 1]) if value else b"\x01", salt]
            return out

    part_factory = staticmethod(lambda game: HackerPart(ends=FalseSealOpening.Pieces))


class OmitsSealOpening(HBlind):
    """As FalseSealOpening, but it leaves the opening out of its secrets."""

    class Pieces(EndOpenings):
        def author_secret_fields(self, fold: Any) -> dict[str, Any]:
            out = super().author_secret_fields(fold)
            if out["seals"] and fold.cheat_seq is None:
                fold.cheated()
                rest = out["seals"][1:]
                return {"seals": rest} if rest else {}  # (an empty list is malformed: the field goes)
            return out

    part_factory = staticmethod(lambda game: HackerPart(ends=OmitsSealOpening.Pieces))


class HidesBadPad(PadBreaksTable):
    """PadBreaksTable that keeps its pad from being opened: it answers the first probe against the pad (rejected at
    once: the game stops with the pad sealed). At the end it must reveal the pad (its secrets), and every peer's audit
    judges it against the hack table then."""

    lied_again = False

    class Author(PadBreaksTable.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            if (fold.cheat_seq is not None and not fold.lied_again and d is not None and d.seat == fold.seat
                    and d.kind == Kind.EVENT and d.what == "answer"):
                fold.lied_again = True
                ev = fold.game.legal(fold.game.view(fold.state, d.seat), d.seat)[0]
                return HonestAuthor.author_next(self, fold, lambda *_: {**ev, "check": not ev["check"]})
            return super().author_next(fold, choose)

    author = Author()


class StopsMidAttempt(HBlind):
    """A hacker that, once its honest controller has answered a probe, announces a square it may not (`bad_probe`):
    the game stops mid-attempt with the controller's pad sealed and its private roll drawn, never opened."""

    chance_from = 4  # the first seed of the zoo's 4-player basic table (4 rounds) where seat 2 gets its chance

    def lie(self, seen: Any, p: int, options: list[Event], what: str) -> Event | None:
        a = seen.eng.work.get("hack")
        if what == "probe" and a is not None and a["answers"]:
            return {"t": "probe", "p": p, "sq": "no_square"}
        return None


class LateFalseSecret(HBlind):
    """Honest in play; once the game is over it reveals a box secret that is not the one it published (once: then it
    reveals truly and the audit runs)."""

    class Author(HBlind.Author):
        def author_next(self, fold: Any, choose: Any = None) -> Any:
            d = fold.duty()
            out = super().author_next(fold, choose)
            if out is not None and d is not None and d.kind == Kind.SECRETS and fold.cheat_seq is None:
                fold.cheated()
                return out[0], {**out[1], "box_secret": bytes(32)}
            return out

    author = Author()


class AnswersWithOtherSquare(LyingController):
    """LyingController that backs its false answer with a true opening of another square of its pad, one whose value
    is the answer it gives (each square's commitment is bound to its slot: it does not open the probed one)."""

    class Pieces(Seals):
        def event_body(self, fold: Any, ev: Event) -> dict[str, Any]:
            out = super().event_body(fold, ev)
            if ev.get("t") == "answer" and fold.cheat_seq == fold.entries:
                from adp2p.games.hacker.table_events import SQUARES

                at = self.seals[f"pad:{fold.seat}"][0]
                want = bytes([ev.get("check") is True])
                k = next(k for k in range(len(SQUARES)) if self.kept(fold, at, k)[0] == want)
                out["opening"] = list(self.kept(fold, at, k))
            return out

    part_factory = staticmethod(lambda game: HackerPart(seals=AnswersWithOtherSquare.Pieces))
