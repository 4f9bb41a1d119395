"""A person's seat at a Hacker table (`ad-p2p join --game hacker`): the table's chooser around `Human`.

The table hands a chooser its view as the Hacker plug-in's `TableState` (games/hacker/table_state.py: the engine's
state beside one number per physical card) and the legal events in the log's form (an opened pad's squares as
numbers: games/hacker/table_events.py). The person's page and menu work from the engine's own view and events, so
this translates both ways: the menu is built on the engine's events and the event picked goes back in the log's
form. A private roll is no choice (the table rolls it by the dice protocol) and `q` leaves the table as Ctrl-C does
(the game can be resumed)."""

from __future__ import annotations

from typing import Any

from adp2p.cli.hacker.human import Human, Quit
from adp2p.games.hacker.table_events import to_engine
from adp2p.hacker.api import pending

Event = dict[str, Any]


def table_chooser(lang: str, human: Human | None = None) -> Any:
    """`choose(seen, seat, options)` for a person at this terminal (`human`: its page and keyboard)."""
    person = human or Human(lang)

    def choose(seen: Any, seat: int, options: list[Event]) -> Event:
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

    choose.human = person  # type: ignore[attr-defined]
    return choose
