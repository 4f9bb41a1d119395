"""Drawing a full screen's panes, for every game's layout: a renderable or words as lines of exactly a pane's width
(the last column left blank, so nothing reaches an edge), a pane cut or filled to its height, two panes side by side,
a scrolled window of lines saying what is hidden, ANSI text of the whole; and `Scroll`, the text panes' contents and
scroll positions the full-screen app owns (cli/tui/fullscreen.py)."""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass, field

from adp2p.cli.words import msg
from rich.color import ColorSystem
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style

SEP = Segment("│", Style(dim=True))
Line = list[Segment]


@dataclass
class Scroll:
    """The text panes' contents and scroll positions (owned by the full-screen app)."""

    log: list[str] = field(default_factory=list)
    log_back: int = 0  # lines scrolled back from the newest (PageUp/PageDown)
    choices: list[str] = field(default_factory=list)
    block: int = 0  # the entry of `choices` where the newest block begins (shown whole when it can be)
    choices_top: int | None = None  # the first line shown, set by the arrows; None: follow the newest block
    shown_top: int = 0  # the first line of the choices last drawn (where the arrows start from)
    secret: bool = False  # compact layout: the password and checklist pane instead of the board (Tab)
    status: str = ""  # the answer to the last key, under the choices


def lines_of(con: Console, renderable: RenderableType, width: int) -> list[Line]:
    """The renderable as lines of exactly `width` columns: drawn at width - 1, the last column left blank."""
    out = con.render_lines(renderable, con.options.update(width=max(1, width - 1), height=None), pad=True)
    return [[*line, Segment(" ")] for line in out]


def text_lines(con: Console, texts: list[str], width: int) -> list[Line]:
    """Plain lines wrapped at words to `width` - 1 (a wrapped line keeps its indent), padded to `width`."""
    out: list[Line] = []
    for text in texts:
        for raw in text.split("\n"):
            indent = len(raw) - len(raw.lstrip(" "))
            for part in textwrap.wrap(raw, max(8, width - 1), subsequent_indent=" " * (indent + 2),
                                      break_long_words=True, break_on_hyphens=False, drop_whitespace=True) or [""]:
                out.append([Segment(part), Segment(" " * max(0, width - len(part)))])
    return out


def solid(lines: list[Line]) -> list[Line]:
    """The lines without the blank ones (a table's spacing, where every line counts)."""
    return [line for line in lines if "".join(seg.text for seg in line).strip()]


def fit(lines: list[Line], height: int, width: int, more: str | None = None) -> list[Line]:
    """Exactly `height` lines: blank lines added, or the tail dropped for a last line saying so (`more`)."""
    blank: Line = [Segment(" " * width)]
    if len(lines) <= height:
        return lines + [blank] * (height - len(lines))
    if height <= 0:
        return []
    note = (more or "…")[: max(1, width - 1)]
    return [*lines[: height - 1], [Segment(note, Style(dim=True)), Segment(" " * (width - len(note)))]]


def beside(left: list[Line], right: list[Line]) -> list[Line]:
    """Two panes of equal height side by side, a dim bar between them."""
    return [[*a, SEP, *b] for a, b in zip(left, right, strict=True)]


def window(lines: list[Line], height: int, top: int, width: int, lang: str) -> list[Line]:
    """`height` lines of `lines` from `top`, the first or last line saying what is hidden above or below."""
    top = max(0, min(top, max(0, len(lines) - height)))
    view = lines[top : top + height]
    below = len(lines) - top - height
    if below > 0 and height >= 2:
        view = view[:-1] + text_lines_plain(msg("more_below", lang, n=below + 1), width)
    if top > 0 and height >= 3:
        view = text_lines_plain(msg("more_above", lang, n=top + 1), width) + view[1:]
    return fit(view, height, width)


def text_lines_plain(text: str, width: int) -> list[Line]:
    note = text[: max(1, width - 1)]
    return [[Segment(note, Style(dim=True)), Segment(" " * (width - len(note)))]]


def choices_top(sc: Scroll, block: int, total: int, height: int) -> int:
    """The first choices line shown: where the arrows put it, else as much as fits ending with the newest block
    (from the block's first line, `block`, when it is longer than the pane)."""
    if sc.choices_top is not None:
        return max(0, min(sc.choices_top, max(0, total - height)))
    top = max(0, min(block, total - height))
    return top - 1 if 0 < top == block and height >= 3 else top  # (the line above says what is above)


def to_ansi(lines: list[Line]) -> str:
    """ANSI text (SGR codes, standard colours) of the lines."""
    out = []
    for line in lines:
        out.append("".join(seg.style.render(seg.text, color_system=ColorSystem.STANDARD) if seg.style else seg.text
                           for seg in line))
    return "\n".join(out)


def render_text(renderable: RenderableType, width: int = 100) -> str:
    """Plain text (no ANSI codes) of a renderable at a fixed width; trailing spaces stripped."""
    con = Console(
        record=True,
        width=width,
        file=io.StringIO(),
        color_system=None,
        highlight=False,
        force_terminal=False,
        legacy_windows=False,
    )
    con.print(renderable)
    text = con.export_text(styles=False)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
