"""A person's seat at a Classified Information table (`join`/`play --game classified` over the network): the
table's chooser around `Human`. The table hands the chooser its view (the engine's `CState`, or a table state
carrying it as `.eng`, as Hacker's does) and the legal events; the page and menu work on the engine's view and
events and the event picked goes back as the table gave it. `q` leaves the table as Ctrl-C does."""

from __future__ import annotations

import sys
from typing import Any

from adp2p.cli.classified.human import Human, Quit
from adp2p.cli.tui.reading import say_wrapped
from adp2p.cli.tui.roster import asker_for
from adp2p.engine.classified.api import pending

Event = dict[str, Any]


def engine_view(seen: Any) -> Any:
    return getattr(seen, "eng", seen)


def to_engine(ev: Event) -> Event:
    """An event in the table's log form as the engine's (the table's part may carry proofs beside it)."""
    try:
        from adp2p.games.classified.table_events import to_engine as table_to_engine  # type: ignore[import-not-found]
    except ImportError:
        return {k: x for k, x in ev.items() if k in _ENGINE_KEYS}
    return table_to_engine(ev)  # type: ignore[no-any-return]


_ENGINE_KEYS = frozenset({"t", "p", "h", "as", "card", "target", "top", "n", "mode", "mine", "theirs", "drop", "take",
                          "guard", "guards", "yes", "suitcase", "encrypt", "cards", "i"})


def table_chooser(lang: str, human: Human | None = None) -> Any:
    person = human or Human(lang)

    def choose(seen: Any, seat: int, options: list[Event]) -> Event:
        v = engine_view(seen)
        shown = [to_engine(o) for o in options]
        d = pending(v)
        assert d is not None
        try:
            picked = person.choose(v, seat, d, shown)
        except Quit:
            raise KeyboardInterrupt from None
        return options[next(i for i, o in enumerate(shown) if o is picked)]

    def say(line: str) -> None:
        if not line.startswith("  "):
            say_wrapped(line, sys.stdout)

    def final_screen(peer: Any, outcome: Any) -> None:
        """`join`'s end at a terminal: the end page (the board as it ended, the Big Reveal explained) from this peer's
        own fold of the log, as `play` shows it."""
        m = peer.machine
        if m is None or m.seat is None:
            return
        v = engine_view(m.game.view(m.state, m.seat))
        person.finish(v, m.seat, getattr(outcome, "said", None) or getattr(outcome, "line", ""), wait=False)

    choose.human, choose.say, choose.final_screen = person, say, final_screen  # type: ignore[attr-defined]
    choose.ask_roster = asker_for(person, lang)  # type: ignore[attr-defined]  # (cli/tui/roster.py)
    return choose
