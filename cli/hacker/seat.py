"""A person's seat at a Hacker table (`ad-p2p join --game hacker`): the table's chooser around `Human`.

The table hands a chooser its view as the Hacker plug-in's `TableState` (games/hacker/table_state.py: the engine's
state beside one number per physical card) and the legal events in the log's form (an opened pad's squares as
numbers: games/hacker/table_events.py). The person's page and menu work from the engine's own view and events, so
this translates both ways: the menu is built on the engine's events and the event picked goes back in the log's
form. A private roll is no choice (the table rolls it by the dice protocol) and `q` leaves the table as Ctrl-C does
(the game can be resumed). The table's own lines are its notices only (the account of the game is on the page)."""

from __future__ import annotations

import sys
from typing import Any

from adp2p.cli.hacker.human import Human, Quit
from adp2p.cli.hacker.words import seat_name
from adp2p.cli.tui.reading import say_wrapped
from adp2p.cli.tui.roster import asker_for
from adp2p.engine.hacker.api import pending
from adp2p.games.hacker.table_events import to_engine

Event = dict[str, Any]


NAME_COLUMN = 6  # the page's players column (screen.NAME_CELLS), less the reader's *


def page_names(names: list[str]) -> list[str] | None:
    """The players' names on the page, if each fits its column (with a * for the reader) and they differ there; else
    None (the page's seat labels, P1.. / S1..: two "planner-bot #..." cut to one column would look alike)."""
    cut = [n[:NAME_COLUMN] for n in names]
    return names if all(len(n) <= NAME_COLUMN for n in names) and len(set(cut)) == len(cut) else None


def legend(names: list[str], me: int, lang: str) -> str:
    """Who is who on the page when it shows seat labels: "S1 = Bot-2, S2 = Bot-1, S3* = Spieler"."""
    return ", ".join(f"{seat_name(p, me, lang)} = {n}" for p, n in enumerate(names))


def final_page(peer: Any, outcome: Any, lang: str, out: Any) -> None:
    """The last page of a networked game, from this peer's own fold of the log, with how it ended."""
    m = peer.machine
    if m is None or m.seat is None:
        return
    v = m.game.view(m.state, m.seat).eng
    names = page_names(list(m.names))
    Human(lang, out=out, names=names).finish(v, m.seat, outcome.said or outcome.line, wait=False)
    if names is None:  # the page's seat labels, and the names the lines below use
        print(legend(list(m.names), m.seat, lang), file=out, flush=True)


def table_chooser(lang: str, human: Human | None = None) -> Any:
    """`choose(seen, seat, options)` for a person at this terminal (`human`: its page and keyboard). Where the
    players' names do not fit the page, its first question says which seat label is whom."""
    person = human or Human(lang)
    peer: list[Any] = []
    told: list[bool] = []  # the names looked at (once)

    def choose(seen: Any, seat: int, options: list[Event]) -> Event:
        m = getattr(peer[0], "machine", None) if peer else None
        if not told and m is not None:
            told.append(True)
            person.names = page_names(list(m.names))
            if person.names is None:
                person.notes = [*person.notes, legend(list(m.names), seat, lang)]
        if options and options[0].get("t") == "private_roll":
            return options[0]  # the table's dice protocol makes the roll, whatever is picked here
        v = seen.eng
        shown = [to_engine(o) for o in options]
        d = pending(v)
        assert d is not None
        try:
            picked = person.choose(v, seat, d, shown)
        except Quit:
            raise KeyboardInterrupt from None  # leave the table as Ctrl-C does: the game can be resumed
        return options[next(i for i, o in enumerate(shown) if o is picked)]

    def attach(p: Any) -> None:
        peer[:] = [p]

    def say(line: str) -> None:
        if not line.startswith("  "):  # the table's notices (setup, faults, the end); its account is on the page
            say_wrapped(line, sys.stdout)

    def final_screen(p: Any, outcome: Any) -> None:
        """`join`'s end at a terminal: the last page from this peer's own fold of the log, as `play` shows it."""
        final_page(p, outcome, lang, person.out)

    choose.human, choose.attach, choose.say = person, attach, say  # type: ignore[attr-defined]
    choose.final_screen = final_screen  # type: ignore[attr-defined]
    choose.ask_roster = asker_for(person, lang)  # type: ignore[attr-defined]  # (cli/tui/roster.py)
    return choose
