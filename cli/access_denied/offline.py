"""`ad-p2p play --offline` of Access Denied: the engine alone in this process (no network), your seat at the prompt
(the full screen or lines), or only bots with --watch; CHANCE from a seeded generator."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from adp2p.cli.access_denied.ending import end_on_screen, layout_for, password_lines
from adp2p.cli.access_denied.messages import msg, yes
from adp2p.cli.access_denied.profile import profile_of
from adp2p.cli.access_denied.prompt import DEFAULT_REACT_SECONDS, Prompt
from adp2p.cli.access_denied.screen import screen
from adp2p.cli.access_denied.words import history_line
from adp2p.cli.tui.drawing import render_text
from adp2p.cli.tui.fullscreen import FullScreen, wanted
from adp2p.cli.tui.reading import say_wrapped
from adp2p.engine.access_denied.api import apply, learn, legal, new_game, pending, result, view
from adp2p.engine.access_denied.bots import make_bot
from adp2p.engine.access_denied.chance import chance_event, deck_faces
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.state import GameState

Ended = tuple[int, bool | None]  # the exit status, and the answer to "another game?" when the full screen asked it


def board(st: GameState, me: int | None, lang: str, width: int = 100) -> str:
    """The game screen for `me` as plain text (see adp2p.cli.access_denied.screen)."""
    cl = None
    if me is not None:
        cl = Checklist(me)
        cl.sync(st)
    return render_text(screen(st, me, lang, checklist=cl, width=width), width)


def ask_human(
    st: GameState,
    me: int,
    options: list[dict[str, Any]],
    lang: str,
    out: Any,
    inp: Any,
    *,
    react_seconds: float = DEFAULT_REACT_SECONDS,
    events: Any = None,
) -> dict[str, Any]:
    """One decision at the terminal prompt (a fresh Prompt; long-lived callers keep their own)."""
    return Prompt(lang, out, inp, react_seconds=react_seconds, events=events).ask(st, me, options)


def run_offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> Ended:
    """A game in this process (no network); see `run_play` for what the answer means."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    lang = getattr(args, "lang", "en")
    prof = profile_of(args)
    n = args.bots + (0 if args.watch else 1)
    if not prof.min_players <= n <= prof.max_players:
        raise SystemExit(f"ad-p2p play: {prof.name} needs {prof.min_players}-{prof.max_players} players, got {n}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    me = None if args.watch else 0
    bots = {p: make_bot(args.strategy, seed + p) for p in range(n) if p != me}
    st = new_game(prof, n)
    events: list[dict[str, Any]] = []
    react = getattr(args, "react_seconds", None)
    full = me is not None and wanted(getattr(args, "ui", "lines"), inp, out)
    prompt = Prompt(
        lang,
        out,
        inp,
        react_seconds=DEFAULT_REACT_SECONDS if react is None else react,
        react_to=getattr(args, "react", "mine"),
        events=lambda: events,
        width=getattr(args, "width", None),
        ui=FullScreen(layout_for, lang) if full else None,
    )
    prompt.log(
        msg(
            "start_offline",
            lang,
            profile=prof.describe(lang),
            n=n,
            seed=seed,
            you="" if me is None else msg("you_p1", lang),
        )
    )
    shown = 0
    try:
        while True:
            if me is None or prompt.ui is not None:  # the account as it happens (the full screen's log pane)
                for line in st.history[shown:]:
                    prompt.log(("  " if me is not None else "") + history_line(line, lang))
                shown = len(st.history)
            d = pending(st)
            if d is None:
                break
            if d.actor is None:
                ev = chance_event(st, d, rng)
                if ev["t"] == "shuffle":
                    faces = deck_faces(st)
                    rng.shuffle(faces)
                    first = st.next_handle
                    st = apply(st, ev)
                    events.append(ev)
                    st = learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)))
                    continue
            elif d.actor == me:
                seen = view(st, me)
                ev = prompt.ask(seen, me, legal(seen, me))
            else:
                seen = view(st, d.actor)
                ev = bots[d.actor](seen, d.actor, legal(seen, d.actor))
            st = apply(st, ev)
            events.append(ev)
    except KeyboardInterrupt:
        prompt.close()
        prompt.say("\n" + msg("abandoned", lang))
        return 130, None
    res = result(st)
    who = ", ".join(f"P{w + 1}" for w in res.winners)
    winners = msg("winners", lang, who=who, reason=history_line(res.reason or "", lang))
    again = None
    if prompt.ui is not None:  # the end inside the full screen, the rematch asked there; then a short record below
        passwords = password_lines(st, st.faces, None, lang)
        again = yes(end_on_screen(prompt, view(st, me) if me is not None else st, me, passwords,
                                  msg("rematch_ask", lang)))
        prompt.close()
        for line in [winners, *passwords]:
            say_wrapped(line, out)
        return 0, again
    prompt.close()  # the terminal as it was: the end is printed as lines below
    prompt.show(st if me is None else view(st, me), me)
    prompt.say(winners)
    return 0, None
