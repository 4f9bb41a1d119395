"""`ad-p2p join`: sit down at a table on the LAN (or at given peers) and play as a person or a bot."""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

import trio
from adp2p.cli import seat_file
from adp2p.cli.peer_dirs import claim_for
from adp2p.cli.usage import UsageError
from adp2p.p2p.game import DEFAULT_GAME, get_game
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer import Outcome, PeerConfig, TableError, TablePeer, root_cause, with_patience


def outcome_dict(o: Outcome) -> dict[str, Any]:
    return {
        "game_id": o.game_id.hex(),
        "log": str(o.log_path) if o.log_path else None,
        "winners": o.winners,
        "line": o.line,
        "audit_ok": o.audit_ok,
        "violations": o.violations,
        "abandoned_by": o.abandoned_by,
        "left_by": o.left_by,
        "verdict": o.verdict,
        "entries": o.entries,
        "head": o.head.hex(),
    }


def player_name(name: str, command: str) -> str:
    """`name` if it can be a player's name at a table (1..64 bytes of printable text); else one line and exit 2."""
    from adp2p.crypto.identity import MAX_NAME_BYTES

    if not (1 <= len(name.encode("utf-8")) <= MAX_NAME_BYTES and name.isprintable() and name.strip() == name):
        raise SystemExit(
            f"ad-p2p {command}: --name must be 1..{MAX_NAME_BYTES} bytes of printable text, without leading or "
            f"trailing spaces (got {name[:40]!r})"
        )
    return name


def default_name(bot: str | None) -> str:
    """A seat's name when --name is not given: "player", or for a bot "Bot-" and four hex digits ("Bot-3fa1"): short
    enough for every table cell (cli/access_denied/screen.py NAME_MAX), and bots at one table told apart (before: every
    "deduction-bot" was cut to "deducti…", all alike)."""
    import secrets

    return f"Bot-{secrets.token_hex(2)}" if bot else "player"


def config_from(args: argparse.Namespace, *, name: str | None = None) -> PeerConfig:
    from adp2p.cli.checks import commands

    game = getattr(args, "game", DEFAULT_GAME)
    commands(game).profile_of(args)  # a clear error early (a profile from a resumed seat's file, too)
    mdns = not args.no_mdns
    host = args.host or ("0.0.0.0" if mdns else "127.0.0.1")
    advertise = None
    interfaces = None
    if args.interface:
        from adp2p.p2p.discovery import resolve_interfaces

        interfaces = resolve_interfaces(args.interface)
        advertise = interfaces[0]
    elif host not in ("0.0.0.0", ""):
        advertise = host
    think = args.think if args.think is not None else (0.3 if args.bot else 0.0)
    rng = random.Random()
    cfg = PeerConfig(
        name=player_name(name or args.name or default_name(args.bot), "join"),
        table=args.table,
        want=args.players,
        profile=args.rules,
        goal=args.goal,
        round_limit=args.round_limit,
        stalemate=args.stalemate or None,
        host=host,
        port=args.port,
        peers=list(args.peer),
        mdns=mdns,
        interfaces=interfaces,
        advertise_host=advertise,
        data_dir=claim_for(args),
        on_game_dir=lambda gdir: seat_file.write(gdir, args),
        abandon_after=args.patience,
        think=(lambda: rng.uniform(0, think)) if think > 0 else (lambda: 0.0),
        timings=Path(args.timings) if args.timings else None,
        lang=args.lang,
        game=game,
        word=getattr(args, "word", None),
    )
    return with_patience(cfg, args.patience)


def run_join(args: argparse.Namespace) -> int:
    """One game at the table; then, for a person at a terminal after a complete game, another at the same table if
    they want one (the others must choose it too: they meet again in the lobby)."""
    while True:
        rc, again = _join_once(args)
        if rc != 0 or args.bot:
            return rc
        if not (again if again is not None else ask_rematch(args.lang, "rematch_join_ask", table=args.table)):
            return rc
        args.resume = None  # the next game is a new one


def ask_rematch(lang: str, key: str, out: Any = None, inp: Any = None, **fields: Any) -> bool:
    """Ask at a terminal only (piped or scripted runs end after one game); yes is y/j, anything else no. Keys typed
    during the game do not answer it."""
    from adp2p.cli.words import msg

    out, inp = out or sys.stdout, inp or sys.stdin
    if not (hasattr(inp, "isatty") and inp.isatty() and hasattr(out, "isatty") and out.isatty()):
        return False
    try:
        import termios

        termios.tcflush(inp.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass
    out.write(msg(key, lang, **fields))
    out.flush()
    return inp.readline().strip().lower()[:1] in ("y", "j")


def _join_once(args: argparse.Namespace) -> tuple[int, bool | None]:
    """One game; the exit status, and the answer to "another game?" when the full screen asked it (else None)."""
    level = os.environ.get("ADP2P_LOG", "").upper()  # diagnostics: ADP2P_LOG=info|debug logs the mesh to stderr
    if level in ("DEBUG", "INFO", "WARNING"):
        logging.basicConfig(level=level, format="%(relativeCreated)8.0f %(name)s %(levelname)s %(message)s")
    elif args.quiet:
        logging.getLogger().setLevel(logging.ERROR)
    try:
        cfg = config_from(args)
    except UsageError as exc:
        print(f"ad-p2p join: {exc.said(args.lang)}", file=sys.stderr)
        return 2, None
    except OSError as exc:
        from adp2p.cli.peer_dirs import unusable

        print(f"ad-p2p join: {unusable(exc, args.lang, args.data_dir)}", file=sys.stderr)
        return 3, None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.bot:  # the game's bots (the table's game is Access Denied until a join can learn it from the lobby)
        choose = get_game(getattr(args, "game", DEFAULT_GAME)).make_bot(args.bot, seed)
    elif _web(args):  # a person at the page in the browser (cli/web/)
        from adp2p.cli.web import web_seat

        choose = web_seat(args, getattr(args, "game", DEFAULT_GAME))
    else:  # a person in the terminal: the game's own seat (cli/<game>/commands.py `seat`)
        from adp2p.cli.checks import commands

        choose = commands(getattr(args, "game", DEFAULT_GAME)).seat(args)
    say = (lambda _line: None) if args.quiet else getattr(choose, "say", lambda line: print(line, flush=True))
    prompt = getattr(choose, "prompt", None)
    if not args.bot and not getattr(args, "yes", False):  # the person confirms who is at the table (p2p/roster.py)
        cfg.confirm = choose.ask_roster if _web(args) else roster_asker(choose, args.lang)  # (the page: two buttons)
    try:
        identity, note = _rejoining(args)
    except (OSError, ValueError) as exc:
        print(f"ad-p2p join: --resume: the seat's key or lobby note cannot be read ({exc})", file=sys.stderr)
        return 3, None
    peer = TablePeer(cfg, choose, say=say, identity=identity)
    if note is not None:
        try:
            peer.agreeing.restore(note)  # our agreement before the crash: the genesis that seats us is taken
        except (KeyError, TypeError, ValueError) as exc:
            print(f"ad-p2p join: --resume: {args.rejoin} is not a usable lobby note ({exc})", file=sys.stderr)
            return 3, None
    getattr(choose, "attach", lambda _peer: None)(peer)
    resume = Path(args.resume) if args.resume else None  # (a game directory: cli/seat_file.py found it)
    problem = _writable(cfg.data_dir, args.lang)
    if problem is not None:
        print(f"ad-p2p join: {problem}", file=sys.stderr)
        return 3, None
    try:
        outcome = trio.run(lambda: peer.run(resume=resume))
    except BaseException as exc:  # trio wraps task errors in exception groups
        if prompt is not None:
            prompt.close()
        inner = root_cause(exc)
        if isinstance(inner, TableError):
            getattr(choose, "fail", lambda _text: None)(str(inner))  # (the page shows it too)
            print(f"ad-p2p join: {inner}", file=sys.stderr)
            return 3, None
        if isinstance(inner, OSError):  # port in use, too many open files, a disk that fails: one line
            what = inner.strerror or type(inner).__name__
            where = f" ({inner.filename})" if inner.filename else ""
            hint = f"; resume with: {resume_command(peer.gdir, cfg.game)}" if peer.gdir else ""
            print(f"ad-p2p join: {what}{where}{hint}", file=sys.stderr)
            return 3, None
        if isinstance(inner, KeyboardInterrupt):
            from adp2p.cli.words import msg

            left = msg("resume_hint", args.lang, command=resume_command(peer.gdir, cfg.game)) if peer.gdir else msg(
                "left_table", args.lang
            )
            getattr(choose, "left_table", lambda _text: None)(left)  # (the page says it too)
            print("\n" + left, file=sys.stderr)
            return 130, None
        raise
    rc, again = exit_code(outcome), None
    from adp2p.cli.verdicts import audit_lines
    if hasattr(choose, "end"):  # the page: the end and "another game?" there; the verdicts printed here too
        again = choose.end(peer, outcome, rc == 0)
        for line in [outcome.said or outcome.line, *audit_lines(peer.machine, args.lang)]:
            print(line, flush=True)
    elif prompt is not None and prompt.ui is not None:
        from adp2p.cli.play_end import printed_audit
        from adp2p.cli.tui.reading import say_wrapped
        from adp2p.cli.words import yes

        fields = {"table": args.table}
        again = yes(choose.end_screen(peer, outcome, args.lang, rc == 0, "rematch_join_ask", fields))
        prompt.close()  # the terminal as it was; the end again as lines (wrapped at words), kept in the terminal
        for line in [*outcome.summary, outcome.said or outcome.line, *printed_audit(peer, outcome, args.lang)]:
            say_wrapped(line, sys.stdout)
    elif hasattr(choose, "final_screen") and peer.machine is not None and sys.stdout.isatty():
        choose.final_screen(peer, outcome)  # Hacker, Classified: the game's end page, then the audit per player
        for line in audit_lines(peer.machine, args.lang):
            print(line, flush=True)
    elif prompt is not None and peer.machine is not None:  # lines: the table told the verdict; now per player
        for line in audit_lines(peer.machine, args.lang):
            print(line, flush=True)
    if args.result_json:
        Path(args.result_json).write_text(json.dumps(outcome_dict(outcome), indent=1))
    if args.quiet:
        print(outcome.line)
    return rc, again and rc == 0


def _rejoining(args: argparse.Namespace) -> tuple[Any, dict[str, Any] | None]:
    """The seat's key and lobby note of a `join --resume` that found no game but the note of an agreement
    (cli/seat_file.py rejoin_args); (None, None) for any other join."""
    if not getattr(args, "rejoin", None):
        return None, None
    from adp2p.p2p import lobby_note
    from adp2p.p2p.paths import read_secret
    from adp2p.p2p.seat_secrets import seat_key_from_bytes

    path = Path(args.rejoin)
    return seat_key_from_bytes(read_secret(path.parent.parent / "seats" / path.name)), lobby_note.load(path)


def roster_asker(choose: Any, lang: str, inp: Any = None, out: Any = None) -> Any:
    """Ask the person at this terminal whether to start with the players the table would seat (their names and key
    fingerprints, the table word's status: p2p/peer/agreeing.py writes the text): on the game's own screen (the full
    screen's choices pane, or the seat's `ask_roster` page: cli/tui/roster.py), plain lines only with `--ui lines`.
    None where nobody can be asked (input or output not a terminal: a script stands for the person, and agrees)."""
    from adp2p.cli.tui.reading import say_wrapped
    from adp2p.cli.words import msg

    inp, out = inp or sys.stdin, out or sys.stdout
    if not (hasattr(inp, "isatty") and inp.isatty() and hasattr(out, "isatty") and out.isatty()):
        return None
    own = getattr(choose, "ask_roster", None)
    if own is not None:  # the game's seat asks on a page of its own (Hacker, Classified: cli/tui/roster.py)
        return own
    prompt = getattr(choose, "prompt", None)

    def ask(text: str) -> bool:
        if prompt is not None and prompt.ui is not None:  # the full screen: the question in the choices pane
            prompt.ui.start()
            prompt.say(text + "\n\n" + msg("roster_ask_full", lang))
            prompt.discard_typed_ahead()
            line = prompt.read(msg("confirm_keys", lang))
        else:
            for line in text.split("\n"):
                say_wrapped(line, out)
            try:
                import termios

                termios.tcflush(inp.fileno(), termios.TCIFLUSH)
            except (ImportError, OSError, ValueError):
                pass
            out.write(msg("roster_ask", lang))
            out.flush()
            line = inp.readline()
        if not line:
            raise KeyboardInterrupt  # end of input: leave, as Ctrl-C does
        return line.strip().lower() in msg("yes_keys", lang).split()

    return ask


def _web(args: argparse.Namespace) -> bool:
    from adp2p.cli.web import wanted

    return wanted(args)


def exit_code(outcome: Outcome) -> int:
    """The exit status of a networked game (`join` and `play` alike)."""
    if outcome.verdict or outcome.audit_ok is False:
        return 4  # cheating proven (during play or by the audit)
    if outcome.void:
        return 3  # the game never began (a seat had moved on before its genesis reached it): nobody named
    if outcome.lost_contact:
        return 6  # we left a game we could no longer reach: resume to learn its end
    if outcome.abandoned_by is not None or outcome.left_by is not None:
        return 5  # abandoned: no complete, audited game
    return 0


def _writable(root: Path, lang: str = "en") -> str | None:
    """Why the data directory cannot hold a game (None: it can), checked before we sit down at a table."""
    from adp2p.cli.peer_dirs import unusable

    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return unusable(exc, lang, str(root))
    return None
