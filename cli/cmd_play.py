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
from pathlib import Path
from typing import Any

from adp2p.cli.checks import commands
from adp2p.cli.play_end import printed_audit
from adp2p.cli.tui.reading import say_wrapped
from adp2p.cli.words import msg, yes


def default_name(args: argparse.Namespace) -> str:
    """Your name at the table: --name, else Player (Spieler in German). A name, not "you": the game's lines say
    "Player sets the password", which reads right in both languages."""
    return args.name if getattr(args, "name", None) is not None else ("Spieler" if args.lang == "de" else "Player")


Ended = tuple[int, bool | None]  # the exit status, and the answer to "another game?" when the full screen asked it


HUMAN_PATIENCE = 1800.0  # seconds the bots wait for a person at the prompt before they end the game as abandoned


def run_play(args: argparse.Namespace, out: Any = None, inp: Any = None, resume: Path | None = None) -> int:
    """One game, then, at a terminal and after a complete game, a rematch if the player wants one: the same settings
    (bots, rules, language, name), a new deal. `resume`: the first game is the one left in that directory."""
    while True:
        rc, again = (offline_for(args)(args, out, inp) if getattr(args, "offline", False)
                     else run_networked(args, out, resume))
        resume = None
        if rc != 0 or not (again if again is not None else rematch_wanted(args, out, inp)):
            return rc
        if args.seed is not None:
            args.seed += 1  # a new deal, still reproducible from the first seed


def resume_play(args: argparse.Namespace, saved: dict[str, Any]) -> int:
    """`join --resume DIR` of a game `play` started (its seat file says so): `play` again, the same settings, the
    bot peers resumed beside us (cli/seat_file.py filled `args` from the game directory)."""
    was = saved["play"]
    bots = [str(b) for b in was.get("bots", [])]
    play = argparse.Namespace(
        game=args.game, bots=len(bots), watch=bool(was.get("watch")), name=was.get("name"),
        strategy=was.get("strategy"), lang=args.lang, seed=was.get("seed"), think=was.get("think"),
        data_dir=args.data_dir or str(Path(args.resume).parent.parent), offline=False, ui=args.ui, react=args.react,
        react_seconds=args.react_seconds, web=getattr(args, "web", False),
        rules=args.rules, goal=args.goal, round_limit=args.round_limit, stalemate=args.stalemate, table=args.table,
    )
    play.bot_dirs = bots
    play.command = "join"  # (its one-line errors name the command the player typed)
    return run_play(play, resume=Path(args.resume))


def offline_for(args: argparse.Namespace) -> Any:
    """The offline game of the game `args.game` names: its client's `commands.offline`."""
    return commands(getattr(args, "game", "access-denied")).offline


def rematch_wanted(args: argparse.Namespace, out: Any = None, inp: Any = None) -> bool:
    from adp2p.cli.cmd_join import ask_rematch

    return ask_rematch(args.lang, "rematch_ask", out, inp)


def run_networked(args: argparse.Namespace, out: Any = None, resume: Path | None = None) -> Ended:
    """A whole game over the real protocol: our peer in this process, the bots as peers of their own (the game's own
    pieces: cli/play_game.py). `resume`: the game directory of a `play` game left before its end (its seat file
    names the bot peers, resumed beside us)."""
    import secrets
    import subprocess

    import trio
    from adp2p.cli import seat_file
    from adp2p.cli.cmd_join import exit_code, player_name
    from adp2p.cli.peer_dirs import claim_for
    from adp2p.cli.play_game import play_game
    from adp2p.cli.tui.fullscreen import wanted as full_screen_wanted
    from adp2p.p2p.paths import resume_command
    from adp2p.p2p.peer import PeerConfig, TableError, TablePeer, root_cause, with_patience

    out = out or sys.stdout
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = play_game(args, seed)
    prof = game.profile
    n = args.bots + 1  # your seat (played by a bot with --watch) and the bot peers
    if not prof.min_players <= n <= prof.max_players:
        raise SystemExit(f"ad-p2p play: {prof.name} needs {prof.min_players}-{prof.max_players} players, got {n}")
    table = args.table if resume is not None else f"play-{secrets.token_hex(4)}"
    patience = 60.0 if args.watch else HUMAN_PATIENCE  # a person may think (or fetch a coffee) at the prompt
    try:
        root = claim_for(argparse.Namespace(resume=resume, data_dir=args.data_dir))
    except OSError as exc:
        from adp2p.cli.peer_dirs import unusable

        print(f"ad-p2p play: {unusable(exc, args.lang, args.data_dir)}", file=sys.stderr)
        return 3, None
    watch_screen = args.watch and full_screen_wanted(getattr(args, "ui", "auto"), sys.stdin, out)
    # bots think a moment so a person can follow them; watched at a terminal, long enough to read each move
    think = args.think if args.think is not None else (
        game.watch_think if watch_screen else 0.0 if args.watch else 0.2)
    rng = random.Random(seed)
    logs = root / "bots" / table
    bot_dirs = ([Path(b) for b in args.bot_dirs] if resume is not None and getattr(args, "bot_dirs", None)
                else [logs / f"bot{i + 1}" for i in range(args.bots)])
    remembered = {"strategy": args.strategy, "watch": args.watch, "bots": [str(d) for d in bot_dirs],
                  "think": args.think, "seed": seed, "name": args.name}
    cfg = PeerConfig(
        name=msg("watcher", args.lang) if args.watch else player_name(default_name(args), "play"),
        table=table,
        want=n,
        profile=args.rules,
        goal=args.goal,
        round_limit=args.round_limit,
        stalemate=game.stalemate,
        data_dir=root,
        abandon_after=patience,
        think=(lambda: rng.uniform(0, think)) if think > 0 else (lambda: 0.0),
        lang=args.lang,
        game=game.name,
        on_game_dir=lambda gdir: seat_file.write(gdir, args, play=remembered),
    )
    choose = game.seat()
    cfg = with_patience(cfg, patience)  # the same heartbeats and limits as the bots (`join --abandon-after`)
    prompt = getattr(choose, "prompt", None)
    say = getattr(choose, "say", None) if prompt is None or prompt.ui is not None else None  # (AD's lines: printed)
    peer = TablePeer(cfg, choose, say=say or (lambda line: print(line, file=out, flush=True)))
    getattr(choose, "attach", lambda _peer: None)(peer)
    procs: list[subprocess.Popen[bytes]] = []
    logs.mkdir(parents=True, exist_ok=True)

    def bot_cmd(i: int, port: int) -> list[str]:
        if resume is not None:  # the bot's own game directory (its seat file has the rest)
            return ["join", "--resume", str(bot_dirs[i] / "games" / resume.name), "--peer", f"127.0.0.1:{port}",
                    "--quiet"]
        cmd = ["join", "--bot", args.strategy, "--table", table, "--players", str(n), "--peer", f"127.0.0.1:{port}",
               "--no-mdns", "--host", "127.0.0.1", "--data-dir", str(bot_dirs[i]), "--name", f"Bot-{i + 1}",
               *game.bot_args, "--think", str(think), "--quiet", "--seed", str(seed + 1 + i), "--abandon-after",
               str(patience)]
        if args.goal:
            cmd += ["--goal", str(args.goal)]
        if args.round_limit:
            cmd += ["--round-limit", str(args.round_limit)]
        return cmd

    def spawn(port: int) -> None:
        for i in range(args.bots):
            with open(logs / f"bot{i + 1}.out", "ab" if resume is not None else "wb") as fh:
                procs.append(subprocess.Popen([sys.executable, "-m", "adp2p.cli", *bot_cmd(i, port)], stdout=fh,
                                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))

    intro = msg("play_intro", args.lang, rules=game.rules_words, n=n, table=table, bots=args.bots, seed=seed)
    say_wrapped(intro, out)
    finished = False
    again = None
    try:
        outcome = trio.run(lambda: peer.run(resume=resume, on_listening=spawn))
        finished = True
        rc = exit_code(outcome)
        if hasattr(choose, "end"):  # the page (cli/web/): the end and "another game?" there
            again = choose.end(peer, outcome, rc == 0)
        elif prompt is not None and prompt.ui is not None:  # the end inside the game's full screen, the question there
            again = yes(choose.end_screen(peer, outcome, args.lang, rc == 0)) and rc == 0
    except BaseException as exc:  # trio wraps task errors in exception groups
        if prompt is not None:
            prompt.close()
        inner = root_cause(exc)
        if isinstance(inner, TableError):  # (`join --resume` of a play game: the command the player typed)
            getattr(choose, "fail", lambda _text: None)(str(inner))  # (the page shows it too)
            print(f"ad-p2p {getattr(args, 'command', 'play')}: {inner}", file=sys.stderr)
            return 3, None
        if isinstance(inner, KeyboardInterrupt):
            left = msg("resume_hint", args.lang, command=resume_command(peer.gdir, game.name)) if peer.gdir else msg(
                "left_table", args.lang)
            getattr(choose, "left_table", lambda _text: None)(left)  # (the page says it too)
            print("\n" + left, file=sys.stderr)
            return 130, None
        raise
    finally:
        if prompt is not None:
            prompt.close()  # the terminal as it was before anything more is printed
        for pr in procs:  # after a game the bots finish on their own; if we left, they would wait for us: stop them
            if not finished:
                pr.terminate()
            try:
                pr.wait(timeout=20 if finished else 5)
            except subprocess.TimeoutExpired:
                pr.kill()
    if again is None:  # lines (piped, --ui lines): the final board, then the end
        game.final_screen(peer, outcome, out)
    else:
        say_wrapped(outcome.said or outcome.line, out)  # the full screen showed the board: who won, then the end
    for line in outcome.summary:  # the standings and every password, again below the final board
        say_wrapped(line, out)
    for line in printed_audit(peer, outcome, args.lang):  # the verdict, then a line per player
        say_wrapped(line, out)
    say_wrapped(msg("game_log", args.lang, path=outcome.log_path), out)
    return rc, again
