"""The human seat's flow (cli/hacker/human.py): moves done for the player are all noted, with the rules' reason,
until the player chooses; the account's news goes on the decision's page when it fits there, and on pages of their
own (Enter) only for the lines that do not, none lost."""

from __future__ import annotations

import io

from _hcli_games import positions
from adp2p.cli.hacker.human import Human
from adp2p.cli.hacker.menu import Menu
from adp2p.cli.hacker.page import account_room
from adp2p.engine.hacker.api import Decision, legal, pending, view
from adp2p.engine.hacker.catalog import card_by_key
from adp2p.engine.hacker.narration import line
from adp2p.engine.hacker.state import HState


def _at_lay() -> tuple[HState, int]:
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.kind == "seal"
              and d.info.get("what") == "lay")
    return st, pending(st).actor


def _in_queue_with_terminal_cards(st: HState, p: int) -> HState:
    """p waits in the queue of its department behind a dummy user, holding QUERY cards only."""
    v = view(st, p).clone()
    d = next(x for x in v.open_depts)
    for q in range(v.n):
        if v.where[q] < 6 and q in v.dept[v.where[q]]:
            v.dept[v.where[q]].remove(q)
    v.where[p] = d
    v.dept[d][:] = [-1, p]
    for h in v.hands[p]:
        v.faces[h] = card_by_key("query").id
        v.known[h] = v.known.get(h, 0) | 1 << p
    return v


NEWS_BEFORE = 5


class Typist(io.StringIO):
    """Enter on a page of news, 1 at a menu."""

    def __init__(self, human: Human) -> None:
        super().__init__()
        self.human = human

    def readline(self, *_: object) -> str:
        return "\n" if self.human.menu is None else "1\n"


def test_every_forced_move_is_noted_with_its_reason_until_the_player_chooses() -> None:
    st, p = _at_lay()
    v = _in_queue_with_terminal_cards(st, p)
    opts = legal(v, p)
    assert len(opts) == 1  # lay nothing: terminal cards only at a terminal
    out = io.StringIO()
    h = Human("en", inp=io.StringIO("1\n" * 9), out=out, size=(80, 24))
    h.seen = len(v.history)
    h.choose(v, p, Decision(p, "seal", {"what": "lay"}), opts)
    h.choose(v, p, Decision(p, "unseal", {"what": "place"}), [{"t": "unseal", "p": p, "what": "place", "to": 0}])
    h.choose(v, p, Decision(p, "seal", {"what": "lay"}), opts)
    assert len(h.notes) == 3  # (before: the last two only)
    real = next(s for s in positions(1) if (d := pending(s)) is not None and d.actor is not None
                and len(legal(view(s, d.actor), d.actor)) > 1)
    d = pending(real)
    w = view(real, d.actor)
    h.seen = len(w.history)
    h.choose(w, d.actor, d, legal(w, d.actor))
    page = " ".join(out.getvalue().split())  # (a long note is wrapped, not cut)
    assert page.count("(done for you: lay nothing; in the queue, terminal cards can't be laid)") == 2
    assert "(done for you: show: department 1)" in page
    assert h.notes == []  # the player chose: the notes are done


def test_news_that_fits_the_decision_page_needs_no_enter() -> None:
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.actor is not None
              and d.kind == "seal" and d.info.get("what") == "place" and len(s.history) > 30)
    d = pending(st)
    v = view(st, d.actor)
    out = io.StringIO()
    h = Human("en", inp=io.StringIO("1\n"), out=out, size=(80, 24))
    room = account_room(v, d.actor, "en", Menu(v, d.actor, d.kind, d.info, legal(v, d.actor)).stage(), 80, 24)
    assert room > NEWS_BEFORE  # (before: more than 5 new lines took a page of their own)
    h.seen = len(v.history) - room
    h.choose(v, d.actor, d, legal(v, d.actor))
    page = out.getvalue()
    assert "Enter: go on" not in page and page.count("> ") == 1
    for e in v.history[-room:]:
        assert "· " + line(e, d.actor, "en")[:60] in page


def test_news_that_does_not_fit_goes_first_on_its_own_pages_none_lost() -> None:
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.actor is not None
              and len(legal(view(s, d.actor), d.actor)) > 1 and len(s.history) > 40)
    d = pending(st)
    v = view(st, d.actor)
    out = io.StringIO()
    h = Human("de", out=out, size=(80, 24))
    h.inp = h.reader = Typist(h)  # type: ignore[assignment]
    h.seen = len(v.history) - 40
    h.choose(v, d.actor, d, legal(v, d.actor))
    text = out.getvalue()
    assert "Enter: weiter" in text
    shown = [x[2:] for x in text.replace("> ", "\n").splitlines() if x.startswith("· ")]
    want = [line(e, d.actor, "de") for e in v.history[-40:]]
    assert len(shown) == 40  # each new line once: the news pages' lines, then the page's
    assert all(w.startswith(s.rstrip("…")) for s, w in zip(shown, want, strict=True))


def test_a_short_menu_takes_columns_to_make_room_for_the_news() -> None:
    """Six short choices go in two columns where one column would leave too little room for the new lines."""
    st = next(s for s in positions(1) if (d := pending(s)) is not None and d.kind == "probe"
              and len(legal(view(s, d.actor), d.actor)) >= 5)
    d = pending(st)
    v = view(st, d.actor)
    stage = Menu(v, d.actor, d.kind, d.info, legal(v, d.actor), "en").stage()
    alone = account_room(v, d.actor, "en", stage, 80, 24)
    assert account_room(v, d.actor, "en", stage, 80, 24, fresh=alone + 2) >= alone + 2


def test_the_same_forced_move_again_is_one_note() -> None:
    """A controller's answers, given by its pad, are one note naming each square (not a line per answer)."""
    st, p = _at_lay()
    v = view(st, p)
    h = Human("en", inp=io.StringIO(), out=io.StringIO(), size=(80, 24))
    for sq in ("A1", "B2", "C3"):
        h.choose(v, p, Decision(p, "answer", {"sq": sq}), [{"t": "answer", "p": p, "check": False}])
    assert h.notes == ["(done for you: A1 no check, B2 no check, C3 no check; your pad decides the answer)"]


def test_the_lay_question_in_a_queue_says_chance_cards_only() -> None:
    from adp2p.cli.hacker.labels import question

    st, p = _at_lay()
    v = _in_queue_with_terminal_cards(st, p)
    assert question(v, p, "seal", {"what": "lay"}, "de").endswith("in der Warteschlange nur Zufallskarten)")
    assert "queue" not in question(view(st, p), p, "seal", {"what": "lay"}, "en")
    v.dept[v.where[p]].remove(p)
    v.where[p] = 6  # the cafeteria
    assert question(v, p, "seal", {"what": "lay"}, "en").endswith("in the cafeteria chance cards only)")


def test_the_order_of_discarding_unplayable_cards_is_not_asked() -> None:
    st, p = _at_lay()
    v = view(st, p)
    h = Human("de", inp=io.StringIO(), out=io.StringIO(), size=(80, 24))
    opts = [{"t": "discard", "p": p, "h": 1, "card": "hack"}, {"t": "discard", "p": p, "h": 2, "card": "piping"}]
    assert h.choose(v, p, Decision(p, "play", {"pile": "terminal"}), opts) == opts[0]  # (no line was read)
    assert h.notes == ["(für dich erledigt: HACK abwerfen (nicht spielbar))"]


def test_turning_over_ones_laid_cards_is_a_short_note() -> None:
    """The laid cards are on the page already: the note does not list them again (it took two lines)."""
    st, p = _at_lay()
    v = view(st, p)
    h = Human("de", inp=io.StringIO(), out=io.StringIO(), size=(80, 24))
    h.choose(v, p, Decision(p, "unseal", {"what": "lay"}), [{"t": "unseal", "p": p, "what": "lay", "chance": [],
                                                             "term": list(v.hands[p][:3])}])
    assert h.notes == ["(für dich erledigt: deine gelegten Karten aufgedeckt)"]
