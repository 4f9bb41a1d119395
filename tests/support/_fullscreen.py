"""Drive the full-screen client in tmux as a person would, and check what one screen shows.

`drive(term, ...)` answers every decision until the client leaves the full screen: it waits (polling
`capture-pane`, bounded) for a screen whose input line is a prompt and which differs from the screen it
answered last, checks it, then types: y/j to a confirmation, Enter to a reaction (pass), `d` where a step
may be ended, else `1`. `check_screen` asserts the fixed layout: the header, the six sectors, the hand, the
prompt on the last line, and that nothing reaches a pane's edge (each pane keeps its last column blank, so a
line cut by the terminal would show there) nor a card title or a sector name is cut.
"""

from __future__ import annotations

import re
import time
from typing import Any

from _term import REMATCH, TmuxTerminal, client_cmd
from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.words import sector_name
from adp2p.engine.access_denied.catalog import cards

INPUT = re.compile(r"^(choice \(number|Wahl \(Nummer|\[\d+ s\] (react\?|reagieren\?)|\[y/N\]|\[j/N\])")
END = re.compile(r"Winner\(s\): P|Gewinner: P|Game abandoned\.|Spiel abgebrochen\.")


def titles(lang: str) -> set[str]:
    return {c.display_title(lang) for c in cards()} | {msg("hidden_card", lang)}


def full_client(*args: str, cols: int, rows: int) -> TmuxTerminal:
    return TmuxTerminal(client_cmd("play", *args), cols=cols, rows=rows)


def input_line(screen: str) -> str:
    lines = screen.rstrip("\n").split("\n")
    return lines[-1] if lines else ""


def normal(screen: str) -> str:
    """The screen without what changes while one decision waits: the seconds of a countdown, the typed text."""
    lines = re.sub(r"\[\d+ s\]", "[_ s]", screen).rstrip("\n").split("\n")
    lines[-1] = re.sub(r"^(.*[:\]])( .*)?$", r"\1", lines[-1])  # the prompt up to its last ':' or ']'; not the typing
    return "\n".join(lines)


WAIT_FLOOR = 120.0  # s: no wait for a screen gives up sooner (a loaded machine may take that long to draw one; only a
# broken run ever waits it out)


def wait_screen(term: TmuxTerminal, ok: Any, timeout: float = 30.0, check: Any = None) -> str:
    """Poll the screen until `ok(screen)` and, with `check`, until `check(screen)` passes too (it asserts what the test
    checks on that screen: the client draws a screen in parts, so a capture can fall between the prompt line and the
    rest; the state checked is waited for, never read off the first capture). On timeout (at least WAIT_FLOOR s), fail
    showing the last screen, or with check's own failure on it."""
    timeout = max(timeout, WAIT_FLOOR)
    end = time.monotonic() + timeout
    failed: AssertionError | None = None
    while True:
        screen = term.screen()
        if ok(screen):
            try:
                if check is not None:
                    check(screen)
                return screen
            except AssertionError as e:
                failed = e
        term._poll()
        if time.monotonic() > end or term.status is not None:
            screen = term.screen()
            if ok(screen):
                if check is not None:
                    check(screen)  # (raises what is wrong with the last screen)
                return screen
            if failed is not None:
                raise failed
            raise AssertionError(f"not seen within {timeout} s; the screen:\n{screen}\nexit: {term.status}")
        time.sleep(0.05)


def check_screen(screen: str, cols: int, rows: int, lang: str, names: tuple[str, ...] = ()) -> None:
    lines = screen.split("\n")[:rows]
    assert len(lines) == rows, screen
    assert all(len(line) <= cols for line in lines), screen
    title = msg("title", lang) + " — "  # (left out of a small screen's header when the room is needed)
    turn = msg("round_turn", lang, round=1, turn=1, who="")[:5]  # "round" / "Runde"
    assert lines[0].startswith((title, turn, msg("setup", lang))), screen
    assert msg("your_decision", lang, what="").strip() in "\n".join(lines[:3]), screen
    assert INPUT.match(lines[-1]), screen
    for line in lines[:-1]:  # nothing reaches an edge: a pane's last column is always blank
        assert len(line.rstrip()) < cols, f"a line reaches the right edge:\n{line}\n{screen}"
        for m in re.finditer("│", line):
            assert m.start() == 0 or line[m.start() - 1] == " ", f"a pane is cut at its edge:\n{line}\n{screen}"
    for s in range(6):  # every sector named whole, at the start of its row (compact) or of its table row (wide)
        name = sector_name(s, lang)
        assert re.search(rf"^ ?{re.escape(name)} ", screen, re.M), f"{name} missing or cut:\n{screen}"
    hand_at = next(i for i, line in enumerate(lines) if line.startswith(msg("your_hand", lang, n=0, limit=0)[:8]))
    known = titles(lang)
    shown = 0
    wide = "│" in lines[hand_at]
    for line in lines[hand_at + 1 :]:
        if wide and "│" not in line:
            break  # the end of the hand's pane (beside it, the log)
        if not wide and not line.startswith(("  ", "…")):
            break  # the end of the hand (the compact layout: under the log, at the whole width)
        left = line.split("│")[0].rstrip()
        if not left.strip() or left.lstrip().startswith(("…", "─", msg("col.card", lang))):
            continue
        if left.startswith("   "):
            continue  # a table cell wrapped at a word, under its column
        m = re.match(r"^  (.+?) \[([A-F?])\]", left) or re.match(r"^ (\S.*?)\s{2,}[A-F?]\s", left)
        assert m is not None, f"a line of the hand cut or unreadable: {left!r}\n{screen}"
        assert m.group(1) in known, f"a card title cut or unknown: {m.group(1)!r}\n{screen}"
        shown += 1
    held = re.search(r"\((\d+),", lines[hand_at])  # "Your hand (N, limit L)": a hand may be empty (all played)
    assert shown >= 1 or (held is not None and held.group(1) == "0"), f"no card of the hand on the screen:\n{screen}"


def ended(term: TmuxTerminal, screen: str = "") -> bool:
    """The game is over: its end printed, or the rematch question asked (any game at a terminal; on the full screen at
    its end screen, read from `screen`: the terminal's stream holds only what changed)."""
    text = term.text
    return any(rx.search(t) is not None for rx in (END, re.compile(REMATCH)) for t in (text, screen))


def drive(
    term: TmuxTerminal,
    cols: int,
    rows: int,
    lang: str = "en",
    *,
    decisions: int = 400,
    timeout: float = 90.0,
    checks: int = 1000,
) -> list[str]:
    """Answer every decision until the client leaves the full screen; the first `checks` decision screens are
    checked with check_screen. Returns every decision screen seen."""
    no_done = msg("no_done", lang)
    seen: list[str] = []
    prev = ""
    last_sent = ""
    deadline = time.monotonic() + timeout
    for _ in range(decisions):
        left = max(1.0, deadline - time.monotonic())
        def ready(s: str, before: str = prev) -> bool:  # a prompt on a new screen, or the end
            return (INPUT.match(input_line(s)) is not None and normal(s) != before) or ended(term, s)

        def checked(s: str, n: int = len(seen)) -> None:  # the layout of a decision screen (not of the end's)
            if n < checks and not (ended(term, s) and not INPUT.match(input_line(s))):
                check_screen(s, cols, rows, lang)

        screen = wait_screen(term, ready, timeout=left, check=checked)
        if ended(term, screen) and not INPUT.match(input_line(screen)):
            return seen
        seen.append(screen)
        prev = normal(screen)
        line = input_line(screen)
        if "/N]" in line:
            last_sent = "y" if "[y/N]" in line else "j"
        elif "s] " in line:
            last_sent = ""
        elif last_sent == "d" and no_done in screen:
            last_sent = "1"
        else:
            last_sent = "d"
        if ended(term, term.screen()):  # a screen read a moment ago may be stale: a key sent now must not answer
            return seen  # the end screen's question (a "y" meant for a confirmation would start a rematch)
        term.send(last_sent)
    raise AssertionError("the game did not end within the decision limit")
