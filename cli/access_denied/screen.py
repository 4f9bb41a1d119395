"""The game screen: one rich renderable built from a player's view of the state (never more).

`screen(...)` returns the renderable; `render_text(...)` renders it to plain text at a fixed width (for
snapshot tests and for logs). Widths below `NARROW` get a compact layout of short lines instead of tables.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from adp2p.cli.access_denied.messages import MESSAGES, msg
from adp2p.cli.access_denied.words import LEVEL_LETTER, card_label, history_line, player_name, sector_name
from adp2p.engine.access_denied import flow
from adp2p.engine.access_denied.api import actions_left, pending, result
from adp2p.engine.access_denied.catalog import CODES, LEVEL_NAMES, ROOT, card
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.rules import (
    BONUS_TABLES,
    bonus_of,
    count_level,
    hand_limit,
    meets_access,
    meets_password_code,
    requirement_of,
)
from adp2p.engine.access_denied.state import GameState
from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

NARROW = 80  # below this many columns: the compact layout
WIDE = 120  # from this many columns: two columns side by side
PLAYER_COLOURS = ("cyan", "magenta", "yellow", "green", "bright_blue", "red")
HISTORY_LINES = 8
NAME_HEAD = 12  # names in the short header longer than this are shortened as in the tables
NAME_MAX = 8  # names in table cells (control, access, bonus) longer than this are shortened
GAP = 1  # columns between the two halves of the wide layout (the tables add their own edge space)
RIGHT_MIN = 44  # the wide layout's right half (password, checklist, history) is never narrower


def colour(p: int | None) -> str:
    return "dim" if p is None else PLAYER_COLOURS[p % len(PLAYER_COLOURS)]


def short_names(full: list[str], limit: int = NAME_MAX) -> list[str]:
    """Names for narrow table cells, one rule for all: a name of at most `limit` characters stays whole; a
    longer one keeps its start and ends in "…" ("Christo…"), unless that start is shared with another name:
    then it shows its start, "…" and the part where it differs ("watche…1", "Pl…Alice"). The result is always
    distinct (equal names, or a rare clash, give P1..Pn for everyone); the players' lines say who is who."""

    def common(a: str, b: str) -> int:
        n = 0
        while n < min(len(a), len(b)) and a[n] == b[n]:
            n += 1
        return n

    short = []
    for i, name in enumerate(full):
        if len(name) <= limit:
            short.append(name)
            continue
        d = max((common(name, o) for j, o in enumerate(full) if j != i), default=0)  # chars shared with another
        if d < limit - 1:
            short.append(name[: limit - 1] + "…")
            continue
        keep = name[d : d + limit - 2]  # where it differs (nothing if another name starts with all of it)
        short.append(name[: limit - 1 - len(keep)] + "…" + keep)
    if len(set(short)) < len(short):
        return [f"P{i + 1}" for i in range(len(full))]
    return short


def tags_of(st: GameState, names: list[str] | None) -> list[str]:
    """Every seat's name as shown in the tables (see short_names)."""
    return short_names([player_name(st, p, names) for p in range(st.n)])


def who_text(st: GameState, p: int | None, names: list[str] | None = None, tags: list[str] | None = None) -> Text:
    """A player's name in the player's colour: the full name, or the short one from `tags`."""
    if p is None:
        return Text("-", style="dim")
    return Text(tags[p] if tags else player_name(st, p, names), style=f"bold {colour(p)}")


def current_step(st: GameState) -> str | None:
    """The active player's turn step (the nearest step task on the stack), None outside turns."""
    for task in reversed(st.stack):
        if task.get("op") in flow.STEP_OPS:
            return str(task["op"])
    return None


def codes(xs: Iterable[int]) -> str:
    return " ".join(CODES[c] for c in sorted(xs)) or "-"


# -- facts ---------------------------------------------------------------------------------------------


def hand_status(st: GameState, me: int, options: list[dict[str, Any]] | None, lang: str) -> dict[int, str | None]:
    """For every card in `me`'s hand: None if it can be played now (it appears among the legal events),
    else why not, in words."""
    playable = {ev["card"] for ev in options or [] if ev.get("t") == "play"}
    d = pending(st)
    my_decision = d is not None and d.actor == me
    t = st.turn
    step = current_step(st)
    out: dict[int, str | None] = {}
    for h in st.hands[me]:
        f = st.face(h, me)
        if f is None:
            out[h] = msg("why.not_now", lang)
            continue
        if h in playable:
            out[h] = None
            continue
        c = card(f)
        req = requirement_of(c, st)
        if c.is_companion:
            why = msg("why.companion", lang)
        elif req is not None and not meets_access(st, me, c):
            level = LEVEL_NAMES[req[1]] + ("" if req[1] == ROOT else "+")
            why = msg("why.needs_access", lang, level=level, sector=sector_name(req[0], lang))
        elif meets_password_code(st, me, c, me) is False:
            why = msg("why.needs_code", lang, code=CODES[c.password_code or 0])
        elif c.is_reaction:
            why = msg("why.reaction", lang)
        elif t is None or t.player != me:
            why = msg("why.not_your_turn", lang)
        elif step != "actions" or not my_decision or (d is not None and d.kind != "actions"):
            why = msg("why.not_actions", lang)
        elif flow.actions_available(st) < 1:
            why = msg("why.no_action", lang)
        elif c.effect == "copybot":
            why = msg("why.copybot", lang)
        else:
            why = msg("why.no_target", lang)
        out[h] = why
    return out


def bonuses(st: GameState, s: int) -> list[tuple[int, str]]:
    return [(p, b) for p in range(st.n) if (b := bonus_of(st, p, s)) is not None]


def short_text(face: int, lang: str, limit: int = 60) -> str:
    c = card(face)
    text = (c.text_de if lang == "de" else c.text).split("\n\n")[0].replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def header(st: GameState, me: int | None, lang: str, names: list[str] | None, asked: bool = True) -> Text:
    t = Text()
    t.append(msg("title", lang), style="bold")
    t.append(" — ")
    if st.over:
        res = result(st)
        who = ", ".join(player_name(st, w, names) for w in res.winners) or "-"
        t.append(
            msg("game_over", lang, who=who, reason=history_line(res.reason or "", lang, names)), style="bold green"
        )
    elif st.turn is None:
        t.append(msg("setup", lang))
    else:
        t.append(msg("round_turn", lang, round=st.round_no + 1, turn=st.turn_no, who=""))
        t.append_text(who_text(st, st.turn.player, names))
        step = current_step(st)
        t.append(" · " + msg("step", lang, step=msg(f"step.{step or 'none'}", lang)))
        left = actions_left(st) if step == "actions" else None
        if left is not None:
            t.append(" · " + msg("actions_left", lang, n=left))
    t.append(" · ")
    if me is None:
        t.append(msg("watching", lang))
    else:
        t.append(msg("you_are", lang, who=""))
        t.append_text(who_text(st, me, names))
    said = decision_text(st, me, lang, [player_name(st, p, names) for p in range(st.n)], asked)
    if said is not None:
        t.append("\n")
        t.append_text(said)
    return t


def decision_text(st: GameState, me: int | None, lang: str, tags: list[str], asked: bool = True) -> Text | None:
    """Whose decision the table waits for, and what: yours (in reverse), another's (dim). A reaction window of ours
    on a frame that asks nothing (`asked` False: it follows the game; the prompt passes most windows by itself, see
    `--react`) says only that a window is open, not "Your decision" over "(waiting for the others)". None when
    nobody decides."""
    d = pending(st)
    if d is None or d.actor is None:
        return None
    key = f"decision.{d.kind}"
    what = msg(key, lang) if key in MESSAGES else (
        msg(f"step.{d.kind}", lang) if f"step.{d.kind}" in MESSAGES else msg("decision.other", lang, kind=d.kind))
    if d.actor == me and not asked and d.kind == "window":
        return Text(msg("window_passing", lang), style="dim")
    if d.actor == me:
        return Text(msg("your_decision", lang, what=what), style="bold reverse")
    return Text(msg("waiting_for", lang, who=tags[d.actor], what=what), style="dim")


def short_header(
    st: GameState, me: int | None, lang: str, names: list[str] | None, width: int, extras: list[list[Text]],
    keys: list[str], asked: bool = True,
) -> list[Text]:
    """The header in at most two lines of `width` for a small screen, nothing left out: the turn, whose it is, the
    step with the actions left, your decision (or whom the table waits for), the extras (the effects on you: `extras`
    holds them in words from the longest to the shortest, each tried in turn); then the `keys`, where they still fit
    (they are in the help too). The title goes first when room is short, then the longer words for the effects. Who
    you are is said by the hand's title (`compact_hand`), a watcher's here. A name longer than `NAME_HEAD` is the
    tables' short one."""
    tags = [full if len(full) <= NAME_HEAD else tag
            for full, tag in zip((player_name(st, p, names) for p in range(st.n)), tags_of(st, names), strict=True)]
    forms = extras or [[]]
    for i, form in enumerate(forms):  # the title gives way before the longer words, they before a wrapped header
        for titled in (True, False) if i == 0 else (False,):
            lines = _short_lines(st, me, lang, tags, width, form, keys, titled, asked)
            if all(len(line) <= width for line in lines):
                return lines
    wrapped: list[Text] = []
    for form in forms:  # one text wrapped at words; more than two lines only with six or more effects at once
        whole = Text(" · ").join(_short_lines(st, me, lang, tags, 10**6, form, [], False, asked))
        wrapped = list(whole.wrap(Console(width=width, file=io.StringIO()), width))
        if len(wrapped) <= 2:
            break
    return wrapped


def _short_lines(
    st: GameState, me: int | None, lang: str, tags: list[str], width: int, extras: list[Text], keys: list[str],
    titled: bool, asked: bool = True,
) -> list[Text]:
    first = Text()
    if titled:
        first.append(msg("title", lang), style="bold")
        first.append(" — ")
    if st.over:
        res = result(st)
        who = ", ".join(tags[w] for w in res.winners) or "-"
        first.append(msg("game_over", lang, who=who, reason=history_line(res.reason or "", lang, tags)))
    elif st.turn is None:
        first.append(msg("setup", lang))
    else:
        first.append(msg("round_turn", lang, round=st.round_no + 1, turn=st.turn_no, who=""))
        first.append_text(who_text(st, st.turn.player, tags=tags))
        step = current_step(st)
        left = actions_left(st) if step == "actions" else None
        what = msg(f"step.{step or 'none'}", lang)
        what = what if left is None else msg("step_left", lang, step=what, n=left)
        first.append(" · " + msg("step", lang, step=what))
    you = Text(msg("watching", lang))
    second = decision_text(st, me, lang, tags, asked) or Text()

    listed: set[int] = set()  # the lines holding an effect: the next one follows it after a comma

    def add(piece: Text, where: list[Text], sep: str = " · ", effect: bool = False) -> None:
        """On the first of `where` it fits on, else on the first (too long: the caller tries without the title)."""
        def gap(x: Text) -> str:
            return ", " if effect and id(x) in listed else sep

        line = next((x for x in where if len(x) + len(gap(x)) + len(piece) <= width), where[0])
        if line.plain:
            line.append(gap(line))
        line.append_text(piece)
        if effect:
            listed.add(id(line))

    if me is None:
        add(you, [first, second])
    for extra in extras:
        add(extra, [second, first], effect=True)
    for shown in (" · ".join(keys), *keys[:1]):  # the keys together where they fit, else the first alone
        if shown and any(len(line) + 3 + len(shown) <= width for line in (first, second)):
            add(Text(shown, style="dim"), [second, first], sep="   ")
            break
    return [line for line in (first, second) if line.plain]


def access_cell(st: GameState, s: int, names: list[str] | None) -> Text:
    tags = tags_of(st, names)
    cell = Text()
    for p in range(st.n):
        lvl = st.access[p][s]
        if cell:
            cell.append(" ")
        style = colour(p) + (" bold" if lvl == ROOT else "") + ("" if lvl else " dim")
        cell.append(f"{tags[p]}:{LEVEL_LETTER[lvl]}", style=style)
    return cell


def sectors_table(st: GameState, lang: str, names: list[str] | None, lean: bool = False) -> Table:
    """The six sectors: controller, every player's access, the Root bonuses (`lean`: a bonus held by the sector's
    controller without the holder's name, which the Ctrl column shows), the cards lying on them."""
    tags = tags_of(st, names)
    tb = Table(title=msg("sectors", lang), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False, expand=False)
    tb.add_column(msg("col.sector", lang), no_wrap=True)
    tb.add_column(msg("col.ctrl", lang), no_wrap=True)
    tb.add_column(msg("col.access", lang), no_wrap=True)
    tb.add_column(msg("col.bonus", lang), min_width=len(msg("col.bonus", lang)))
    on = [", ".join(card_label(st.faces.get(h), lang) for h in st.sector_cards.get(s, [])) for s in range(6)]
    if any(on):  # the column of cards lying on sectors only when there are some: its room goes to the others
        tb.add_column(msg("col.on_sector", lang))
    for s in range(6):
        bon = Text()
        for p, b in bonuses(st, s):
            if bon:
                bon.append(", ")
            bon.append(msg(f"bonus.{b}", lang))
            if not lean or p != st.controller[s]:  # lean: the controller's own bonus is named by the Ctrl column
                bon.append(" ")
                bon.append_text(who_text(st, p, tags=tags))
        cells = [sector_name(s, lang), who_text(st, st.controller[s], tags=tags), access_cell(st, s, names), bon]
        tb.add_row(*cells, *([on[s]] if any(on) else []))
    return tb


def piles_line(st: GameState, lang: str) -> Text:
    top = card_label(st.faces.get(st.discard[-1]), lang) if st.discard else "-"
    return Text(msg("piles", lang, deck=len(st.deck), discard=len(st.discard), top=top))


def players_lines(st: GameState, lang: str, names: list[str] | None) -> Text:
    """One line per player, with the full name (and the short one the tables use, when it differs)."""
    tags = tags_of(st, names)
    t = Text()
    for p in range(st.n):
        if p:
            t.append("\n")
        ups = ", ".join(card_label(st.faces.get(h), lang) for h in st.upgrades[p])
        t.append_text(who_text(st, p, names))
        if tags[p] != player_name(st, p, names):
            t.append(msg("short_name", lang, tag=tags[p]), style=colour(p))
        t.append(
            msg(
                "player_line",
                lang,
                who="",
                hand=len(st.hands[p]),
                roots=count_level(st, p, ROOT),
                upgrades=msg("upgrades", lang, cards=ups) if ups else "",
            )
        )
    return t


def hand_table(st: GameState, me: int, options: list[dict[str, Any]] | None, lang: str, text_width: int = 60) -> Table:
    status = hand_status(st, me, options, lang)
    tb = Table(
        title=msg("your_hand", lang, n=len(st.hands[me]), limit=hand_limit(st, me)),
        box=box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
    )
    tb.add_column(msg("col.card", lang), no_wrap=True)
    tb.add_column(msg("col.code", lang), justify="center")
    tb.add_column(msg("col.text", lang), overflow="ellipsis", no_wrap=True, max_width=text_width)
    tb.add_column(msg("col.now", lang))
    for h in st.hands[me]:
        f = st.face(h, me)
        why = status[h]
        now = Text(msg("playable", lang), style="bold green") if why is None else Text(why, style="dim")
        if f is None:
            tb.add_row(msg("hidden_card", lang), "?", "", now)
        else:
            c = card(f)
            tb.add_row(c.display_title(lang), CODES[c.code], short_text(f, lang, text_width), now)
    return tb


def password_text(st: GameState, me: int, lang: str) -> Text:
    t = Text(msg("your_password", lang) + ": ", style="bold")
    secs = st.sectors_of(me)
    if not secs:
        t.append(msg("no_password", lang), style="dim")
    for i, s in enumerate(secs):
        labels = ", ".join(card_label(st.face(h, me), lang) for h in st.passwords.get(s, []))
        t.append(("; " if i else "") + f"{sector_name(s, lang)}: {labels or '-'}")
    return t


def checklist_table(
    st: GameState, cl: Checklist, lang: str, names: list[str] | None, lean: bool = False
) -> RenderableType:
    """The checklist, a row per sector with another controller (`lean`: without the Ctrl column, for a screen that
    shows the board beside it)."""
    rows = cl.sectors()
    if not rows:
        return Text(msg("checklist", lang) + ": " + msg("no_checklist", lang), style="dim")
    tags = tags_of(st, names)
    tb = Table(title=msg("checklist", lang), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    # short header words (the legend under the table explains them), each at least as wide as its header
    tb.add_column(msg("col.sector", lang), no_wrap=True)
    if not lean:
        tb.add_column(msg("col.ctrl", lang), no_wrap=True)
    for key, style in (("col.in", "green"), ("col.out", "red"), ("col.maybe", "")):
        tb.add_column(msg(key, lang), style=style, min_width=len(msg(key, lang)))
    tb.add_column(msg("col.left", lang), min_width=len(msg("col.left", lang)))
    for s in rows:
        inn, out, maybe = cl.status(s)
        n = cl.remaining(s)
        solved = cl.solved(s)
        left = (
            Text(msg("solved", lang, n=n, codes=codes(solved)), style="bold green")
            if solved is not None
            else Text(str(n))
        )
        ctrl = [] if lean else [who_text(st, cl.controller[s], tags=tags)]
        tb.add_row(sector_name(s, lang), *ctrl, codes(inn), codes(out), codes(maybe), left)
    return tb


def account(st: GameState, lang: str, names: list[str] | None, lines: int) -> Text:
    t = Text(msg("account", lang) + ":", style="bold")
    hist = st.history[-lines:] if lines > 0 else []
    if not hist:
        t.append(" " + msg("nothing_yet", lang), style="dim")
    for line in hist:
        t.append("\n  " + history_line(line, lang, names))
    return t


# -- layouts -------------------------------------------------------------------------------------------


def screen(
    st: GameState,
    me: int | None,
    lang: str = "en",
    *,
    checklist: Checklist | None = None,
    options: list[dict[str, Any]] | None = None,
    names: list[str] | None = None,
    width: int = 100,
    history: int = HISTORY_LINES,
) -> RenderableType:
    """The whole screen for `me` (None: a watcher) from `st` (the player's view)."""
    if checklist is None and me is not None:
        checklist = Checklist(me)
        checklist.sync(st)
    if width < NARROW:
        return compact(st, me, lang, checklist=checklist, options=options, names=names, width=width, history=history)
    sectors = sectors_table(st, lang, names)
    top = [header(st, me, lang, names), sectors, piles_line(st, lang), players_lines(st, lang, names)]
    mine: list[RenderableType] = []
    if me is not None:
        mine = [hand_table(st, me, options, lang, text_width=max(16, min(60, width - 72))), password_text(st, me, lang)]
        if checklist is not None:
            mine.append(checklist_table(st, checklist, lang, names))
            if isinstance(mine[-1], Table):  # its short headers explained
                mine.append(Text(msg("checklist_legend", lang), style="dim"))
    acct = account(st, lang, names, history)
    if width >= WIDE and me is not None:
        # Side by side only when both tables fit whole: the left part 3/5 of the width or as wide as the sectors
        # table needs, the right part the rest (at least RIGHT_MIN and the checklist's width). Else one column.
        left = max(natural_width(sectors, width), (width - GAP) * 3 // 5)
        right = max([RIGHT_MIN] + [natural_width(r, width) for r in mine[2:] if isinstance(r, Table)])
        if left + GAP + right <= width:
            grid = Table.grid(padding=(0, GAP, 0, 0), expand=True)
            grid.add_column(width=left)
            grid.add_column(ratio=1)
            grid.add_row(Group(*top), Group(*mine[1:], Text(""), acct))
            return Group(grid, mine[0])
    return Group(*top, *mine, *([Text("")] if len(mine) > 2 else []), acct)


def natural_width(renderable: RenderableType, width: int) -> int:
    """How many columns `renderable` takes when nothing has to wrap (at most `width`)."""
    con = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    return Measurement.get(con, con.options, renderable).maximum


def compact(
    st: GameState,
    me: int | None,
    lang: str,
    *,
    checklist: Checklist | None,
    options: list[dict[str, Any]] | None,
    names: list[str] | None,
    width: int,
    history: int,
) -> RenderableType:
    """Short lines for narrow terminals: no tables, the same facts."""
    parts: list[RenderableType] = [Text(msg("narrow", lang), style="dim"), header(st, me, lang, names)]
    parts += compact_board(st, lang, names)
    if me is not None:
        parts += [compact_hand(st, me, options, lang), password_text(st, me, lang)]
        if checklist is not None:
            parts += compact_checklist(st, checklist, lang)
    parts.append(account(st, lang, names, min(history, 5)))
    return Group(*parts)


def sector_pad(lang: str) -> int:
    """The width of the longest sector name (sector names whole, in one column)."""
    return max(len(sector_name(s, lang)) for s in range(6))


def compact_board(st: GameState, lang: str, names: list[str] | None, one_line: bool = False) -> list[Text]:
    """The sectors in one short line each (controller, access, bonuses), who the short names are, the piles.
    `one_line`: each sector on exactly one line (a bonus too long for it shortened with "…"; the holder's name
    left out where it is the controller's, just before)."""
    tags = tags_of(st, names)
    pad = sector_pad(lang)
    parts: list[Text] = []
    for s in range(6):
        line = Text(f"{sector_name(s, lang):<{pad}} ", no_wrap=one_line, overflow="ellipsis")
        line.append_text(who_text(st, st.controller[s], tags=tags))
        line.append(" ")
        line.append_text(access_cell(st, s, names))
        for p, b in bonuses(st, s):
            line.append(f" *{msg(f'bonus.{b}', lang)}")
            if not one_line or p != st.controller[s]:
                line.append(" ")
                line.append_text(who_text(st, p, tags=tags))
        parts.append(line)
    full = [player_name(st, p, names) for p in range(st.n)]
    if tags != full:  # the compact layout has no players' lines: say who the short names are
        pairs = ", ".join(f"{t} = {n}" for t, n in zip(tags, full, strict=True) if t != n)
        parts.append(Text(msg("names_legend", lang, pairs=pairs), style="dim"))
    parts.append(piles_line(st, lang))
    return parts


def compact_hand(
    st: GameState, me: int, options: list[dict[str, Any]] | None, lang: str, one_line: bool = False,
    names: list[str] | None = None,
) -> RenderableType:
    """The hand, one card a line: its label, and a tick when it can be played now, else why not (`one_line`:
    each card on exactly one line, a reason too long for it shortened with "…"; its title says who you are)."""
    status = hand_status(st, me, options, lang)
    title = Text(msg("your_hand", lang, n=len(st.hands[me]), limit=hand_limit(st, me)) + ":", style="bold")
    if one_line:
        title.append(" " + msg("you_are", lang, who=""))
        title.append_text(who_text(st, me, names))
    lines = [title]
    for h in st.hands[me]:
        why = status[h]
        line = Text("  " + card_label(st.face(h, me), lang), no_wrap=one_line, overflow="ellipsis")
        line.append(" ✓" if why is None else f" ({why})", style="green" if why is None else "dim")
        lines.append(line)
    if one_line:
        return Group(*lines)
    return Text("\n").join(lines)


def compact_checklist(st: GameState, checklist: Checklist, lang: str) -> list[Text]:
    """One line per sector of the checklist: codes in (+), out (-), maybe (?) and the passwords left."""
    pad = sector_pad(lang)
    parts: list[Text] = []
    for s in checklist.sectors():
        inn, out, maybe = checklist.status(s)
        line = Text(f"{sector_name(s, lang):<{pad}} ")
        line.append(f"+{codes(inn)} -{codes(out)} ?{codes(maybe)} = {checklist.remaining(s)}")
        parts.append(line)
    return parts


def bonus_names(lang: str, table: str) -> list[tuple[str, str]]:
    return [(sector_name(s, lang), msg(f"bonus.{b}", lang)) for s, b in BONUS_TABLES[table].items()]
