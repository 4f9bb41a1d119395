"""`ad-p2p play --game classified`: the offline game (`--offline`: the engine alone with an all-knowing referee,
cli/classified/local.py) and the game's pieces of `play` over the table (cli/play_game.py), for when the table's
part (games/classified/) is installed."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from adp2p.cli.classified.human import Human
from adp2p.cli.classified.words import say
from adp2p.engine.classified.profiles import get_profile


class Watched:
    """`--offline --watch`: a bot at your seat; its page shown at every decision, the end screen at the end."""

    def __init__(self, bot: Any, lang: str, out: Any) -> None:
        self.bot, self.lang, self.person = bot, lang, Human(lang, out=out)

    def choose(self, v: Any, me: int, d: Any, options: list[dict[str, Any]]) -> dict[str, Any]:
        self.person.draw(v, me, None)
        self.person.out.write("\n")
        return self.bot(v, me, options)  # type: ignore[no-any-return]

    def finish(self, v: Any, me: int, text: str, wait: bool = True) -> None:
        self.person.finish(v, me, text, wait=False)


def run_offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> tuple[int, bool | None]:
    from adp2p.cli.classified.local import play_local
    from adp2p.engine.classified.bots import make_bot

    out, inp = out or sys.stdout, inp or sys.stdin
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    seat: Any = (Watched(make_bot(args.strategy, seed), args.lang, out) if args.watch
                 else Human(args.lang, inp, out))
    print(say("start_offline", args.lang, profile=args.rules, bot=args.strategy, seed=seed, seat=1), file=out,
          flush=True)
    try:
        res, _st = play_local(seat, seat=0, profile=args.rules, bot=args.strategy, seed=seed,
                              wait_at_end=not args.watch and out.isatty())
    except KeyboardInterrupt:
        res = None
    if res is None:
        print("\n" + say("abandoned", args.lang), file=out, flush=True)
        return 130, None
    return 0, None


def play_game(args: argparse.Namespace, seed: int) -> Any:
    """Classified Information's pieces for `cmd_play.run_networked` (once games/classified/ is registered)."""
    from adp2p.cli.classified.seat import engine_view, table_chooser
    from adp2p.cli.play_game import PlayGame
    from adp2p.p2p.game import get_game

    prof = get_profile(args.rules)

    def seat() -> Any:
        from adp2p.cli import web

        if web.wanted(args) and not args.watch:
            return web.web_seat(args, "classified")
        if args.watch:
            return get_game("classified").make_bot(args.strategy, seed)
        return table_chooser(args.lang)

    def final(peer: Any, outcome: Any, out: Any) -> None:
        m = peer.machine
        if m is None or m.seat is None:
            return
        v = engine_view(m.game.view(m.state, m.seat))
        Human(args.lang, out=out).finish(v, m.seat, getattr(outcome, "line", ""), wait=False)

    return PlayGame(name="classified", profile=prof, rules_words=prof.name, stalemate=None,
                    bot_args=["--game", "classified", "--rules", args.rules], seat=seat,
                    final_screen=final, watch_think=0.3)
