"""Hacker's game screen from one player's view (`hacker.api.view(state, seat)`) as rich `Text` lines: the header
(round, phase, who decides), the six departments around the cafeteria (terminal, queue, LOCKs, defects), every
player's place, TIME, PRIO and public check list, the player's hand and laid cards, the hack pad while an attempt
runs (the controller's own checks and roll only on the controller's screen) and the latest lines of the account.

It reads nothing but the view, so it can show nothing the player may not know. `lines(...)` gives the lines for a
width; the page (cli/hacker/page.py) fits them with the menu into the terminal's rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from adp2p.cli.hacker import account
from adp2p.cli.hacker.words import card_name, card_text, place_name, say, seat_name
from adp2p.engine.hacker.api import pending
from adp2p.engine.hacker.board import CAFE, COLS
from adp2p.engine.hacker.catalog import tables
from adp2p.engine.hacker.state import HState
from rich.text import Text

PLAYER_STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green", "bold blue", "bold red")
WIDE = 110  # from this width on: card texts in the hand, a wider board


NAME_CELLS = 7  # a player's name (and the reader's *) in the players' table


def style_of(p: int) -> str:
    return PLAYER_STYLES[p % len(PLAYER_STYLES)] if p >= 0 else "dim"


def who(v: HState, p: int, me: int | None, lang: str, names: list[str] | None, short: bool = True) -> Text:
    if p < 0:
        return Text("d" if short else say("dummy", lang), style="dim")
    return Text(seat_name(p, me, lang, names), style=style_of(p) + (" underline" if p == me else ""))


def header(v: HState, me: int | None, lang: str, names: list[str] | None) -> Text:
    t = Text(say("title", lang), style="bold reverse")
    t.append(" " + say("round", lang, no=v.round_no) + ("" if v.over else " · " + say(f"phase.{v.phase}", lang)))
    t.append(" · " + say("goal", lang, k=v.profile.codes_to_win(v.n)))
    d = pending(v)
    if v.over:
        t.append(" · " + say("over", lang), style="bold")
    elif d is not None and d.actor is not None:
        t.append(" · ")
        if d.actor == me:
            t.append(say("you_decide", lang), style="bold reverse green")
        else:
            t.append(say("decides", lang, who=seat_name(d.actor, me, lang, names)), style=style_of(d.actor))
    return t


def dept_lines(v: HState, me: int | None, lang: str, names: list[str] | None, width: int) -> list[Text]:
    """Up to four lines: each department's name and flags, its terminal, its queue (none while every queue is empty);
    then the cafeteria (none while it is empty: the players' table says where everyone is)."""
    cw = max(10, min(22, width // 6))
    top, term, queue = Text(), Text(), Text()
    for d in range(6):
        head = Text(place_name(d, lang), style="bold")
        if d not in v.open_depts:
            head.append(" " + say("closed", lang), style="dim")
        else:
            if v.locks[d]:
                head.append(" " + say("lock", lang, k=v.locks[d]), style="yellow")
            if v.extra_pw[d]:
                head.append(" " + say("extra_pw", lang), style="yellow")
            if v.broken[d]:
                head.append(" " + say("broken", lang), style="bold red")
        occ = v.dept[d]
        t = Text("▣ ", style="green" if occ and not v.broken[d] else "dim")
        if occ:
            t.append_text(who(v, occ[0], me, lang, names))
            if occ[0] >= 0 and v.time[occ[0]] is not None:
                t.append(f" T{v.time[occ[0]]}", style="dim")
        q = Text("  ")
        for i, x in enumerate(occ[1:]):
            q.append(" " if i else "")
            q.append_text(who(v, x, me, lang, names))
        for line, cell in ((top, head), (term, t), (queue, q)):
            cell.truncate(cw - 1, overflow="ellipsis")
            cell.pad_right(cw - cell.cell_len)
            line.append_text(cell)
    cafe = Text(say("cafe", lang).capitalize() + ": ", style="bold")
    inside = [p for p in range(v.n) if v.where[p] == CAFE]
    for i, p in enumerate(inside):
        cafe.append(", " if i else "")
        cafe.append_text(who(v, p, me, lang, names))
    if not inside:
        cafe.append("-", style="dim")
    rows = [top, term] + ([queue] if any(v.dept[d][1:] for d in range(6)) else [])
    return rows + ([cafe] if inside else [])  # (an empty queue line or cafeteria: no line, more for the account)


def marks(row: list[bool], extra: list[bool] | None, open_depts: list[int]) -> Text:
    t = Text()
    for d in range(6):
        if d not in open_depts:
            t.append(" ")
        elif row[d]:
            t.append(str(d + 1), style="bold green")
            if extra is not None and extra[d]:
                t.stylize("underline", len(t) - 1)
        else:
            t.append("·", style="dim")
    return t


def player_lines(v: HState, me: int | None, lang: str, names: list[str] | None, legend: bool = True) -> list[Text]:
    """One line per player: place, TIME, PRIO (used), passwords and codes of the public check list, card counts
    (`legend`: the header says what the queue mark means; not beside the hack pad, which takes that room)."""
    d = pending(v)
    actor = d.actor if d else None
    you = say("h_player", lang) if me is not None else ""  # an onlooker (a replay) is nobody at the table
    head = Text(f"  {you:<8}{say('h_at', lang):<7}{'Time' if lang == 'en' else 'Zeit':>4} "
                f"{'Prio':>5}  {say('h_pw', lang)[:6]:<7}{say('h_codes', lang):<7}{say('h_cards', lang)}", style="dim")
    if legend:
        head.append("  " + say("queue_legend", lang, q=say("queue_mark", lang)))
    out = [head]
    for p in range(v.n):
        t = Text("▶ " if p == actor else "  ", style="bold")
        name = who(v, p, me, lang, names)
        name.truncate(NAME_CELLS)
        t.append_text(name)
        t.pad_right(NAME_CELLS + 3 - t.cell_len)
        w = v.where[p]
        queued = w != CAFE and v.terminal_of(p) != w
        place = place_name(w, lang) + (say("queue_mark", lang) if queued else "")
        if w == CAFE:
            place = say("cafe_short", lang)
        t.append(f"{place:<6}")
        t.append(f"{'-' if v.time[p] is None else v.time[p]:>4} ")
        prio = f"{v.prio[p]}" + (f"-{v.used[p]}" if v.used[p] else "")
        t.append(f"{prio:>5}  ")
        t.append_text(marks(v.pw[p], v.pwx[p], v.open_depts))
        t.append(" ")
        t.append_text(marks(v.code[p], None, v.open_depts))
        t.append(f" {v.codes(p)}", style="bold")
        t.append(f"  {len(v.hands[p])}/{len(v.laid_chance[p]) + len(v.laid_term[p])}/{len(v.front[p])}")
        out.append(t)
    return out


def pad_lines(v: HState, me: int | None, lang: str, names: list[str] | None,
              picking: Sequence[str] = ()) -> list[Text]:
    """The 5x5 hack pad while an attempt runs: position, squares found clear, checks found; the controller's own
    sealed checks (#) and roll only on the controller's screen (they are in its view's secrets only); `picking`: the
    checks the controller has picked so far while it sets them (also #)."""
    a = v.work.get("hack") if isinstance(v.work, dict) else None
    if not a or a.get("status") != "running":
        return []
    mine = (v.secrets.get(f"pad:{me}") or list(picking)) if me == a["ctrl"] else None
    roll = v.secrets.get(f"roll:{me}") if me == a["ctrl"] else None
    out = [Text(say("pad", lang, hacker=seat_name(a["p"], me, lang, names), d=place_name(a["d"], lang),
                    ctrl=seat_name(a["ctrl"], me, lang, names)), style="bold")]
    out.append(Text("   " + " ".join(COLS) + "   ", style="dim"))
    legend = [x.replace("_", " ") for x in say("pad_legend", lang).split(" ")][: 5 if mine else 4]
    for r in range(1, 6):
        t = Text(f"{r}  ", style="dim")
        for c in COLS:
            sq = f"{c}{r}"
            answered = any(x[0] == sq for x in a.get("answers", []))
            if sq == a["pos"]:
                t.append("@", style="bold reverse")
            elif sq == a.get("pending") and not answered:
                t.append("?", style="bold yellow")
            elif sq in a["hit"] or [sq, True] in a.get("answers", []):
                t.append("X", style="bold red")
            elif sq in a["cleared"]:
                t.append("o", style="green")
            elif mine and sq in mine:
                t.append("#", style="yellow")
            else:
                t.append("·", style="dim")
            t.append(" ")
        if r - 1 < len(legend):
            t.append(" " + legend[r - 1], style="dim")
        out.append(t)
    if roll:
        k = tables().hack_table[sum(roll)]
        out.append(Text(say("pad_roll", lang, s=sum(roll), o=k[0], m=k[1], c=k[2]),
                        style="yellow"))
    return out


def hand_lines(v: HState, me: int, lang: str, width: int) -> list[Text]:
    """The player's hand (names; at a wide screen with their texts) and the cards it laid face down (no line while
    it has laid none)."""
    wide = width >= WIDE
    t = Text(say("hand", lang) + ": ", style="bold")
    hand = [h for h in v.hands[me] if v.face(h, me) is not None]  # a card just drawn may not be seen yet
    unseen = len(v.hands[me]) - len(hand)
    for i, h in enumerate(hand):
        t.append(", " if i else "")
        t.append(card_name(v.face(h, me), lang), style="bold" if v.passing[me] != h else "dim")
    if unseen:
        t.append(("  " if hand else "") + say("unseen", lang, k=unseen), style="dim")
    elif not hand:
        t.append(say("nothing", lang), style="dim")
    p = v.passing[me]
    if p is not None:
        t.append("  (" + say("passing", lang, card=card_name(v.face(p, me), lang)) + ")", style="dim")
    out = wrapped(t, width)
    if wide:
        faces = [f for f in dict.fromkeys(v.face(h, me) for h in hand) if f is not None]  # each card once
        for f in faces:
            out.append(Text(f"  {card_name(f, lang)}: {card_text(f, lang)}", style="dim"))
    laid = Text(say("laid", lang) + ": ", style="bold")
    for key, pile in (("chance_pile", v.laid_chance[me]), ("term_pile", v.laid_term[me])):
        laid.append(say(key, lang) + " ")
        laid.append(", ".join(card_name(v.face(h, me), lang) for h in pile) or "-", style="cyan")
        laid.append("  ")
    fronts = [(h, q) for q in range(v.n) for h in v.front[q] if v.front_by.get(h) == me]
    for h, q in fronts:
        laid.append(f"{card_name(v.face(h, me), lang)}→{seat_name(q, me, lang)} ", style="magenta")
    if v.laid_chance[me] or v.laid_term[me] or fronts:  # (nothing laid: no line, one more for the account)
        out += wrapped(laid, width)
    return out


def wrapped(t: Text, width: int) -> list[Text]:
    """A line too long for the width broken after a comma or a space, the rest indented (no card name cut)."""
    out: list[Text] = []
    while t.cell_len > width - 1:
        cut = max(t.plain.rfind(", ", 0, width - 2) + 1, t.plain.rfind("  ", 0, width - 1), 0)
        if cut <= 8:
            break
        out.append(t[:cut])
        rest = t[cut:]
        t = Text("    ") + rest[len(rest.plain) - len(rest.plain.lstrip()):]
    out.append(t)
    return out


def side_by_side(left: list[Text], right: list[Text], left_width: int) -> list[Text]:
    out = []
    for i in range(max(len(left), len(right))):
        t = left[i].copy() if i < len(left) else Text()
        if i < len(right):
            t.truncate(left_width)
            t.pad_right(left_width - t.cell_len)
            t.append_text(right[i])
        out.append(t)
    return out


def lines(v: HState, me: int | None, lang: str = "en", names: list[str] | None = None, width: int = 80,
          account_lines: int = 3, picking: Sequence[str] = ()) -> list[Text]:
    """The screen at `width` columns (each line at most width - 1 cells), top to bottom (`picking`: the pad's checks
    picked so far, see `pad_lines`; `me` None: an onlooker's, a replay's, with no hand)."""
    out = [header(v, me, lang, names)]
    out += dept_lines(v, me, lang, names, width)
    pad = pad_lines(v, me, lang, names, picking)
    players = player_lines(v, me, lang, names, legend=not pad)
    out += side_by_side(players, pad, 56)  # (a space after the table, 55 wide) if pad else players
    if me is not None:
        out += hand_lines(v, me, lang, width)
    for s in account.lines(v.history, me, lang, names, account_lines):
        out.append(Text("· " + s, style="italic"))
    for t in out:
        t.truncate(width - 1, overflow="ellipsis")
    return out
