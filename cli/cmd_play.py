"""`ad-p2p play`: a whole game on this machine, you (or, with --watch, only bots) against bot peers.

The bots are real peers: each its own OS process running `ad-p2p join --bot`, connected over loopback with
the real protocol (signed handshake, signed log, mental-poker deck, audit). The line prompt shows only what
your seat knows and offers only the engine's legal choices. `--offline` plays the same engine in-process
without the network (a quick look at the rules).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from adp2p.cli.words import card_label, describe, sector_name
from adp2p.engine.api import apply, learn, legal, new_game, pending, result, view
from adp2p.engine.bots import make_bot
from adp2p.engine.catalog import LEVEL_NAMES
from adp2p.engine.chance import chance_event, deck_faces
from adp2p.engine.profiles import get_profile
from adp2p.engine.rules import hand_limit
from adp2p.engine.state import GameState


def board(st: GameState, me: int | None, lang: str) -> str:
    lines = []
    for s in range(6):
        ctrl = st.controller[s]
        who = f"P{ctrl + 1}" if ctrl is not None else "-"
        levels = " ".join(
            f"P{p + 1}:{LEVEL_NAMES[st.access[p][s]][0]}" for p in range(st.n) if st.access[p][s]
        )
        lines.append(f"  {sector_name(s, lang):<13} ctrl {who:<3} {levels}")
    lines.append(
        f"  deck {len(st.deck)}  discard {len(st.discard)}"
        + (f"  top: {card_label(st.faces.get(st.discard[-1]), lang)}" if st.discard else "")
    )
    if me is not None:
        hand = ", ".join(card_label(st.face(h, me), lang) for h in st.hands[me]) or "-"
        pw = ", ".join(card_label(st.face(h, me), lang) for h in st.password_handles(me))
        lines.append(f"  your hand ({len(st.hands[me])}, limit {hand_limit(st, me)}): {hand}")
        lines.append(f"  your password: {pw}")
    return "\n".join(lines)


def ask_human(
    st: GameState, me: int, options: list[dict[str, Any]], lang: str, out: Any, inp: Any
) -> dict[str, Any]:
    if len(options) == 1:
        return options[0]
    print(board(st, me, lang), file=out)
    d = pending(st)
    print(f"-- your decision ({d.kind if d else '?'}):", file=out)
    for i, ev in enumerate(options):
        print(f"  {i:>3}. {describe(st, ev, me, lang)}", file=out)
    while True:
        print("choose a number (q quits): ", end="", file=out, flush=True)
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            raise KeyboardInterrupt
        try:
            k = int(line.strip())
            if 0 <= k < len(options):
                return options[k]
        except ValueError:
            pass
        print(f"  please type a number from 0 to {len(options) - 1}", file=out)


def run_offline(args: argparse.Namespace, out: Any = None, inp: Any = None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    prof = get_profile(args.rules, goal=args.goal, round_limit=args.round_limit)
    n = args.bots + (0 if args.watch else 1)
    if not prof.min_players <= n <= prof.max_players:
        raise SystemExit(
            f"ad-p2p play: {prof.name} needs {prof.min_players}-{prof.max_players} players, got {n}"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    me = None if args.watch else 0
    bots = {p: make_bot(args.strategy, seed + p) for p in range(n) if p != me}
    st = new_game(prof, n)
    shown = 0
    print(
        f"ad-p2p play: {prof.describe()}, {n} players, seed {seed}" + ("" if me is None else ", you are P1"),
        file=out,
    )
    try:
        while True:
            for line in st.history[shown:]:
                print(line, file=out)
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
                    st = learn(st, dict(zip(range(first, st.next_handle), faces, strict=True)))
                    continue
            elif d.actor == me:
                seen = view(st, me)
                ev = ask_human(seen, me, legal(seen, me), args.lang, out, inp)
            else:
                seen = view(st, d.actor)
                ev = bots[d.actor](seen, d.actor, legal(seen, d.actor))
            st = apply(st, ev)
    except KeyboardInterrupt:
        print("\nGame abandoned.", file=out)
        return 130
    res = result(st)
    print(f"Winner(s): {', '.join(f'P{w + 1}' for w in res.winners)} — {res.reason}", file=out)
    return 0


def run_play(args: argparse.Namespace, out: Any = None, inp: Any = None) -> int:
    if args.offline:
        return run_offline(args, out, inp)
    import secrets
    import subprocess

    import trio
    from adp2p.cli.cmd_join import human_chooser
    from adp2p.p2p.paths import data_dir
    from adp2p.p2p.peer import PeerConfig, TableError, TablePeer, root_cause

    out = out or sys.stdout
    prof = get_profile(args.rules, goal=args.goal, round_limit=args.round_limit)
    n = args.bots + 1  # your seat (played by a bot with --watch) and the bot peers
    if not prof.min_players <= n <= prof.max_players:
        raise SystemExit(
            f"ad-p2p play: {prof.name} needs {prof.min_players}-{prof.max_players} players, got {n}"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    table = f"play-{secrets.token_hex(4)}"
    root = data_dir(args.data_dir)
    think = args.think if args.think is not None else (0.0 if args.watch else 0.2)
    rng = random.Random(seed)
    cfg = PeerConfig(
        name="watcher" if args.watch else "you",
        table=table,
        want=n,
        profile=args.rules,
        goal=args.goal,
        round_limit=args.round_limit,
        data_dir=root,
        abandon_after=60.0,
        think=(lambda: rng.uniform(0, think)) if think > 0 else (lambda: 0.0),
    )
    choose = make_bot(args.strategy, seed) if args.watch else human_chooser(args.lang)
    peer = TablePeer(cfg, choose, say=lambda line: print(line, file=out, flush=True))
    procs: list[subprocess.Popen[bytes]] = []
    logs = root / "bots" / table
    logs.mkdir(parents=True, exist_ok=True)

    def spawn(port: int) -> None:
        for i in range(args.bots):
            cmd = [
                sys.executable,
                "-m",
                "adp2p.cli",
                "join",
                "--bot",
                args.strategy,
                "--table",
                table,
                "--players",
                str(n),
                "--peer",
                f"127.0.0.1:{port}",
                "--no-mdns",
                "--host",
                "127.0.0.1",
                "--data-dir",
                str(logs / f"bot{i + 1}"),
                "--name",
                f"Bot-{i + 1}",
                "--rules",
                args.rules,
                "--think",
                str(think),
                "--quiet",
                "--seed",
                str(seed + 1 + i),
                "--abandon-after",
                "60",
            ]
            if args.goal:
                cmd += ["--goal", str(args.goal)]
            if args.round_limit:
                cmd += ["--round-limit", str(args.round_limit)]
            with open(logs / f"bot{i + 1}.out", "wb") as fh:
                procs.append(
                    subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
                )

    print(
        f"ad-p2p play: {prof.describe()}, {n} players at table {table} on this machine "
        f"({args.bots} bot peer processes), seed {seed}",
        file=out,
    )
    try:
        outcome = trio.run(lambda: peer.run(on_listening=spawn))
    except BaseException as exc:  # trio wraps task errors in exception groups
        inner = root_cause(exc)
        if isinstance(inner, TableError):
            print(f"ad-p2p play: {inner}", file=sys.stderr)
            return 3
        if isinstance(inner, KeyboardInterrupt):
            print(f"\nLeft the table (resume with: ad-p2p join --resume {peer.gdir}).", file=sys.stderr)
            return 130
        raise
    finally:
        for pr in procs:
            try:
                pr.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pr.kill()
    print(f"Game log: {outcome.log_path}", file=out)
    return 0 if outcome.audit_ok is not False and not outcome.verdict else 4
