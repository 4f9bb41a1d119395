"""`ad-p2p play --game hacker`: Hacker's pieces of `play` (cli/play_game.py: the profile in words, your seat, the
bots' options, the final page) and the offline game (`--offline`: the engine alone, cli/hacker/local.py)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from adp2p.cli.hacker import account
from adp2p.cli.hacker.human import Human
from adp2p.cli.hacker.words import say
from adp2p.cli.play_game import PlayGame
from adp2p.cli.tui.fullscreen import wanted
from adp2p.engine.hacker.api import Decision
from adp2p.engine.hacker.profiles import Profile, get_profile
from adp2p.engine.hacker.state import HState

Event = dict[str, Any]


def profile(args: argparse.Namespace) -> Profile:
    """The Hacker profile the options ask for (checked by cli/checks.py)."""
    return get_profile(args.rules, goal=args.goal, round_limit=args.round_limit)


def describe(prof: Profile, n: int, lang: str) -> str:
    """The profile in a few words: "basic, goal 5 codes, limit 200 rounds"."""
    return say("rules_words", lang, name=prof.name, k=prof.codes_to_win(n), limit=prof.round_limit)


def play_game(args: argparse.Namespace, seed: int) -> PlayGame:
    """Hacker's pieces for `cmd_play.run_networked`: the page and menu of cli/hacker/ at your seat (or one of its
    bots with --watch, the table's account printed line by line), its bots, its final page."""
    from adp2p.cli.hacker.seat import table_chooser
    from adp2p.p2p.game import get_game

    prof = profile(args)

    def seat() -> Any:
        from adp2p.cli import web

        if web.wanted(args) and not args.watch:  # the page in the browser (cli/web/)
            return web.web_seat(args, "hacker")
        if args.watch:
            bot = get_game("hacker").make_bot(args.strategy, seed)
            return watching(bot, args.lang) if wanted(getattr(args, "ui", "auto"), sys.stdin, sys.stdout) else bot
        return table_chooser(args.lang)

    return PlayGame(
        name="hacker",
        profile=prof,
        rules_words=describe(prof, args.bots + 1, args.lang),
        stalemate=None,
        bot_args=["--game", "hacker", "--rules", args.rules, "--stalemate", "0"],  # the table has no stalemate
        seat=seat,
        final_screen=lambda peer, outcome, out: final_page(peer, outcome, args.lang, out),
        watch_think=0.3,  # (a Hacker game has many more moves than Access Denied's)
    )


def watching(bot: Any, lang: str, person: Human | None = None) -> Any:
    """`play --game hacker --watch` at a terminal: a bot plays the seat and the seat's page follows the game, drawn
    again at each line of the table (the account is on the page; before the game starts, the table's notices as
    lines). Where the names do not fit the page, a note under it says which seat label is whom."""
    from adp2p.cli.hacker.seat import legend, page_names
    from adp2p.cli.tui.reading import say_wrapped

    person = person or Human(lang)
    peer: list[Any] = []
    told: list[bool] = []  # the names looked at (once)

    def choose(seen: Any, seat: int, options: list[Event]) -> Event:
        return bot(seen, seat, options)  # type: ignore[no-any-return]

    def attach(p: Any) -> None:
        peer[:] = [p]

    def say(line: str) -> None:
        m = getattr(peer[0], "machine", None) if peer else None
        if m is None or m.seat is None or not m.state.history:  # (before the game's first move: no page yet)
            if not line.startswith("  "):
                say_wrapped(line, person.out)
            return
        if not told:
            told.append(True)
            person.names = page_names(list(m.names))
            person.notes = [] if person.names is not None else [legend(list(m.names), m.seat, lang)]
        person.watch(m.game.view(m.state, m.seat).eng, m.seat)

    choose.attach, choose.say, choose.human = attach, say, person  # type: ignore[attr-defined]
    return choose


def final_page(peer: Any, outcome: Any, lang: str, out: Any) -> None:
    """The last page of a networked game (cli/hacker/seat.py, which `join` shows too)."""
    from adp2p.cli.hacker.seat import final_page as page

    page(peer, outcome, lang, out)


class Watched:
    """`play --game hacker --offline --watch`: a bot at the seat whose page is shown; the account printed as it goes,
    the last page at the end. What cli/hacker/local.py asks of a seat: `lang`, `names`, `choose`, `finish`."""

    def __init__(self, bot: Any, lang: str, out: Any) -> None:
        self.bot, self.lang, self.out, self.names = bot, lang, out, None
        self.seen = 0

    def _account(self, v: HState, me: int) -> None:
        for e in v.history[self.seen:]:
            print("  " + account.line(e, me, self.lang, self.names), file=self.out, flush=True)
        self.seen = len(v.history)

    def choose(self, v: HState, me: int, d: Decision, options: list[Event]) -> Event:
        self._account(v, me)
        return self.bot(v, me, options)  # type: ignore[no-any-return]

    def finish(self, v: HState, me: int, text: str, wait: bool = True) -> None:
        self._account(v, me)
        Human(self.lang, out=self.out).finish(v, me, text, wait=False)


def run_offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> tuple[int, bool | None]:
    """A Hacker game in this process (cli/hacker/local.py): you at seat 1 (a bot with --watch) against the bots."""
    from adp2p.cli.hacker.local import play_local
    from adp2p.cli.words import msg
    from adp2p.engine.hacker.bots import make_bot

    out, inp = out or sys.stdout, inp or sys.stdin
    n = args.bots + (0 if args.watch else 1)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    seat: Any = Watched(make_bot(args.strategy, seed), args.lang, out) if args.watch else Human(args.lang, inp, out)
    you = "" if args.watch else msg("you_p1", args.lang).replace("P1", say("seat", args.lang, n=1))
    print(msg("start_offline", args.lang, profile=describe(profile(args), n, args.lang), n=n, seed=seed, you=you),
          file=out, flush=True)
    try:
        res, _st = play_local(seat, seat=0, players=n, profile=args.rules, bots=args.strategy, seed=seed,
                              round_limit=args.round_limit, goal=args.goal, wait_at_end=False)
    except KeyboardInterrupt:
        res = None
    if res is None:
        print("\n" + msg("abandoned", args.lang), file=out, flush=True)
        return 130, None
    return 0, None
