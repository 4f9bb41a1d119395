"""The menu of one decision: the engine's legal events in groups (end, attempts, plays, trades, other), numbered
once, folded when long, and listed in stages: the attempts by sector (a, a1..a6), the plays card first (p,
p1..), a password, the cards to discard or the cards to give back in a trade card by card (c1, c2, ...: a card's
key stays the same for the whole stage; c starts again; a trade reply offers the cards picked so far by number).

A stage only narrows the engine's list: every choice offered is one of its legal events, with the number it has
in the whole menu (a number typed picks from the whole list at any stage). The menu says its lines through its
host, the prompt (cli/access_denied/prompt.py), to the full screen's choices pane or as printed lines.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Protocol

from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.words import card_label, describe, player_name, sector_name
from adp2p.engine.access_denied.catalog import CODES, card
from adp2p.engine.access_denied.checklist import Checklist
from adp2p.engine.access_denied.state import GameState

Event = dict[str, Any]
GROUPS = ("done", "attempts", "plays", "trades", "other")
GROUP_KEYS = {"attempts": "a", "plays": "p", "trades": "t", "other": "o"}
GROUP_OF = {
    "done": "done",
    "pass": "done",
    "begin": "done",  # the start of a turn: d begins it without the sector's bonus
    "attempt": "attempts",
    "univ": "attempts",
    "play": "plays",
    "tele_action": "plays",
    "trade": "trades",
    "trade_reply": "trades",
}
FOLD = 12  # groups with more choices than this are folded to one line (its key lists them)
FOLD_FULL = 4  # the same in the full screen, whose choices pane is short
SECTOR_KEY = re.compile(r"a([1-6])")  # the attempts on one sector (a1 = Banking ... a6 = Universities)
TRADE_KEY = re.compile(r"t([1-9])")  # the trades offered to one player: t1, t2, ... (the partner first)
PLAY_KEY = re.compile(r"p([1-9])")  # the plays of one card: p1, p2, ... (the card first, then its targets)
CARD_KEY = re.compile(r"c(\d{1,2})?")  # a password card by card: c1, c2, ... (c alone: start again)
STAGED = frozenset({"password", "discard", "give", "spam_give", "trade_reply"})  # kinds of choices picked card by card
STAGE = 4  # more such choices than this: picked card by card


def group_of(ev: Event) -> str:
    if ev["t"] in ("discard", "spam_give") and not ev.get("cards"):
        return "done"  # giving up nothing ends the step: d does it, as everywhere
    return GROUP_OF.get(ev["t"], "other")


class Host(Protocol):
    """What the menu says its lines through (the prompt, cli/access_denied/prompt.py)."""

    lang: str
    names: list[str] | None
    ui: Any  # the full screen (cli/tui/fullscreen.py), or None: lines

    def say(self, text: str = "", end: str = "\n") -> None: ...

    def tell(self, text: str) -> None: ...

    def cols(self) -> int: ...

    def checklist(self, st: GameState, me: int) -> Checklist: ...


class Menu:
    """The menu of one decision (`options`: the engine's legal events for `me` in `st`), said through `host`."""

    def __init__(self, host: Host, st: GameState, me: int, options: list[Event]) -> None:
        self.host, self.st, self.me, self.options = host, st, me, options
        self.lang = host.lang
        self.full = host.ui is not None
        self.groups: dict[str, list[int]] = {g: [] for g in GROUPS}
        for i, ev in enumerate(options):
            self.groups[group_of(ev)].append(i)
        if options and not self.groups["done"] and all(ev["t"] == "draw" for ev in options):
            # the draw step: d draws as many as the step allows (fewer stay choices of their own)
            most = max(self.groups["other"], key=lambda i: (options[i]["n"], bool(options[i].get("bank"))))
            self.groups["other"].remove(most)
            self.groups["done"].append(most)
        self.order = [i for g in GROUPS for i in self.groups[g]]
        self.picked: list[int] = []  # the cards picked so far (a staged choice)
        self.carded: list[int] | None = None  # the choices being picked card by card (c1, c2, ...), if any
        self.chosen: int | None = None  # the one choice the cards picked complete (its index in `options`)

    def say(self, text: str = "") -> None:
        self.host.say(text)

    def label(self, h: int) -> str:
        return card_label(self.st.face(h, self.me), self.lang)

    def show(self) -> None:
        """The whole menu: every group, a long one folded to one line (its key lists it)."""
        shown = [g for g in GROUPS if self.groups[g]]
        if not self.full:
            self.say()
        folded = self.folded(shown)
        for g in shown:
            idx = self.groups[g]
            title = f"  {msg('group.' + g, self.lang)}:"
            if g in folded:
                first = self.order.index(idx[0]) + 1
                line = f"{first}-{first + len(idx) - 1}: " + msg(
                    "group.collapsed", self.lang, n=len(idx), key=GROUP_KEYS.get(g, "o")
                )
                if self.full:  # a folded group is one line, its title in front
                    self.say(f"{title} {line}")
                else:
                    self.say(title)
                    self.say("    " + line)
                continue
            if not self.full or len(shown) > 1:  # (the full screen has no room for a lone group's title)
                self.say(title)
            if self.staged(idx):
                self.carded = idx
                self.list_stage(idx)
                continue
            if self.given_back(idx):
                self.list_reply(idx)
                continue
            self.list_items(idx)

    def folded(self, shown: list[str]) -> set[str]:
        """The groups shown folded to one line: those longer than the fold (4 on the full screen, 12 as lines), then
        the longest others until at most 12 choices are listed at once (a lone group is listed, in stages if long)."""
        if len(shown) < 2:
            return set()
        fold = FOLD_FULL if self.full else FOLD
        listed = {g: len(self.groups[g]) for g in shown if not self.staged(self.groups[g])}
        out = {g for g, n in listed.items() if n > fold}
        while sum(n for g, n in listed.items() if g not in out) > FOLD:
            out.add(max((g for g in listed if g not in out), key=lambda g: listed[g]))
        return out

    def stage(self, key: str) -> bool:
        """A key that lists a part of the menu (a group, a sector's attempts, a card's plays, a card picked);
        False if `key` is none of them."""
        folded = {v: g for g, v in GROUP_KEYS.items()}
        groups = self.groups
        if key in folded and groups[folded[key]]:
            idx = groups[folded[key]]
            self.new_stage()
            if folded[key] == "attempts" and len(idx) > FOLD:
                self.list_sectors(idx)  # one more stage: the sector first, then its choices
            elif folded[key] == "plays" and len(idx) > STAGE and len(play_cards(self.options, idx)) < len(idx):
                self.list_play_cards(idx)  # the card first, then its targets
            elif folded[key] == "trades" and len(idx) > FOLD and len(partners(self.options, idx)) > 1:
                self.list_partners(idx)  # the partner first, then what to offer
            else:
                self.list_long(idx)
            return True
        pick = CARD_KEY.fullmatch(key)
        if pick and self.carded is not None:
            self.new_stage()
            self.pick_card(self.carded, pick.group(1))
            return True
        trade = TRADE_KEY.fullmatch(key)
        whom = partners(self.options, groups["trades"])
        if trade and 1 <= int(trade.group(1)) <= len(whom):
            q = whom[int(trade.group(1)) - 1]
            self.new_stage()
            self.list_long([i for i in groups["trades"] if self.options[i].get("q") == q])
            return True
        play = PLAY_KEY.fullmatch(key)
        played = play_cards(self.options, groups["plays"])
        if play and 1 <= int(play.group(1)) <= len(played):
            h = played[int(play.group(1)) - 1]
            self.new_stage()
            self.list_items([i for i in groups["plays"] if self.options[i].get("card") == h])
            return True
        sector = SECTOR_KEY.fullmatch(key)
        if sector:
            idx = [i for i in groups["attempts"] if self.options[i].get("s") == int(sector.group(1)) - 1]
            if idx:
                self.new_stage()
                self.list_long(idx)
                return True
        return False

    def list_long(self, idx: list[int]) -> None:
        """The choices `idx` at a stage of their own: more than FOLD sets of cards of one kind (the attempts on one
        sector, the discards) are picked card by card, else listed."""
        if self.given_back(idx):
            self.list_reply(idx)
            return
        if len(idx) > FOLD and len({self.options[i]["t"] for i in idx}) == 1 and all(
                self.options[i].get("cards") for i in idx):
            self.carded, self.picked = idx, []
            self.list_stage(idx)
        else:
            self.list_items(idx)

    def list_partners(self, idx: list[int]) -> None:
        """The trades, one line per partner with how many offers (t1, t2, ...)."""
        for k, q in enumerate(partners(self.options, idx), 1):
            n = sum(1 for i in idx if self.options[i].get("q") == q)
            who = player_name(self.st, q, self.host.names)
            self.say("    " + msg("group.partner", self.lang, key=f"t{k}", who=who, n=n))

    def new_stage(self) -> None:
        """A stage replaces what the full screen's choices pane showed (as lines, it follows it)."""
        if self.host.ui is not None:
            self.host.ui.clear_choices()

    def staged(self, idx: list[int]) -> bool:
        """Are these choices sets of cards of one kind (passwords, discards, cards given), too many for one list?
        Then they are picked card by card."""
        kinds = {self.options[i]["t"] for i in idx}
        every = all(self.options[i].get("cards") for i in idx)
        return len(idx) > STAGE and len(kinds) == 1 and kinds <= STAGED and every

    def given_back(self, idx: list[int]) -> list[int]:
        """The replies to a trade that give cards back, when there are too many to list (picked card by card, with
        the set picked so far offered by its number: any set of cards may go back); else none."""
        given = [i for i in idx if self.options[i]["t"] == "trade_reply" and self.options[i].get("cards")]
        return given if len(given) > STAGE else []

    def list_reply(self, idx: list[int]) -> None:
        """A trade reply: decline and accept-giving-nothing listed, the cards to give back picked card by card."""
        given = self.given_back(idx)
        self.list_items([i for i in idx if i not in given])
        self.carded, self.picked = given, []
        self.list_stage(given)

    def left(self, idx: list[int]) -> list[int]:
        """The choices among `idx` that hold every card picked so far."""
        return [i for i in idx if set(self.picked) <= set(self.options[i]["cards"])]

    def list_stage(self, idx: list[int]) -> None:
        """The choices (passwords, discards, ...) that hold every card picked so far: listed when few are left,
        else the cards that can come next (c1, c2, ...), each with how many of those choices hold it."""
        left = self.left(idx)
        password = self.options[left[0]]["t"] == "password"
        if len(left) <= STAGE and (not self.picked or not password):
            self.list_items(left)
            return
        if len(left) <= STAGE:  # the passwords left, by their cards alone (the sector is said above them)
            sector = sector_name(self.options[left[0]]["s"], self.lang)
            self.say("    " + msg("ev.password", self.lang, sector=sector, cards="").rstrip())
            for i in left:
                labels = ", ".join(self.label(h) for h in self.options[i]["cards"])
                self.say(f"    {self.order.index(i) + 1:>3}. {labels}")
            return
        picked = ", ".join(self.label(h) for h in self.picked)
        least = min(len(self.options[i]["cards"]) for i in idx)  # a discard says how many cards it takes at least
        kind = self.options[left[0]]["t"]
        key = "stage.password" if password else {"discard": "stage.discard", "trade_reply": "stage.give_back"}.get(
            kind, "stage.cards")
        self.say("    " + msg(key, self.lang, n=len(left), k=least,
                              picked=msg("stage.picked", self.lang, cards=picked) if picked else ""))
        if kind == "trade_reply" and self.picked:  # the cards picked so far are a reply of their own: its number
            self.list_items([i for i in left if len(self.options[i]["cards"]) == len(self.picked)])
        items = []
        keys = self.card_keys(idx)
        for h in self.stage_cards(left):
            n = sum(1 for i in left if h in self.options[i]["cards"])
            items.append(msg("stage.card", self.lang, key=f"c{keys[h]}", card=self.label(h), n=n))
        for line in stage_rows(items, max(40, self.host.cols() - 1) - 6):
            self.say("      " + line)

    def stage_cards(self, left: list[int]) -> list[int]:
        """The cards the choices left hold besides those picked, in the order the engine lists them."""
        out: list[int] = []
        for i in left:
            out += [h for h in self.options[i]["cards"] if h not in out and h not in self.picked]
        return out

    def card_keys(self, idx: list[int]) -> dict[int, int]:
        """Every card of the stage with its key's number, fixed for the whole stage (c3 stays the same card while
        cards are picked: a key read on the screen before a pick still means that card after it)."""
        out: dict[int, int] = {}
        for i in idx:
            for h in self.options[i]["cards"]:
                out.setdefault(h, len(out) + 1)
        return out

    def pick_card(self, idx: list[int], number: str | None) -> None:
        """`c<k>`: the card with key k is picked (one the choices left can still hold, also once they are few enough
        to be listed); `c`: start again. Cards that make up the one choice left choose it (`chosen`): c2, c3, c4 set
        a password of those three cards."""
        if number is None:
            self.picked = []
        else:
            now = self.stage_cards(self.left(idx))
            card_of = {k: h for h, k in self.card_keys(idx).items()}
            h = card_of.get(int(number))
            if h is None or h not in now:  # the stage as it was (a new stage cleared the pane), and why
                self.list_stage(idx)
                self.host.tell(msg("stage.none", self.lang))
                return
            self.picked.append(h)
            left = self.left(idx)
            if len(left) == 1 and set(self.options[left[0]]["cards"]) == set(self.picked):
                self.chosen = left[0]
                return
        self.list_stage(idx)

    def list_play_cards(self, idx: list[int]) -> None:
        """The cards that can be played, one line each with how many ways (targets) it has (p1, p2, ...); what
        is not a card's play (TeleComm's action) listed as it is."""
        for k, h in enumerate(play_cards(self.options, idx), 1):
            n = sum(1 for i in idx if self.options[i].get("card") == h)
            self.say("    " + msg("group.card", self.lang, key=f"p{k}", card=self.label(h), n=n))
        rest = [i for i in idx if "card" not in self.options[i]]
        if rest:
            self.list_items(rest)

    def list_sectors(self, idx: list[int]) -> None:
        """The attempts, one line per sector ("a3: Micronopoly — 6 choices"): a stage of at most six lines."""
        for s in range(6):
            n = sum(1 for i in idx if self.options[i].get("s") == s)
            if n:
                line = msg("group.sector", self.lang, key=f"a{s + 1}", sector=sector_name(s, self.lang), n=n)
                self.say("    " + line)

    def list_items(self, idx: list[int]) -> None:
        """The choices `idx`, each with its number in the whole menu, wrapped at words."""
        st, me = self.st, self.me
        width = max(40, self.host.cols() - 1)
        cl: Checklist | None = None
        for i in idx:
            ev = self.options[i]
            text = describe(st, ev, me, self.lang, self.host.names)
            if ev["t"] == "attempt" and st.controller[ev["s"]] not in (None, me):
                cl = cl or self.host.checklist(st, me)
                text += doomed_words(st, me, cl, ev, self.lang)
            head = f"    {self.order.index(i) + 1:>3}. "
            # wrapped at words with a hanging indent: a choice never breaks mid-word on a narrow terminal
            self.say(textwrap.fill(text, width, initial_indent=head, subsequent_indent=" " * len(head),
                                   break_long_words=False, break_on_hyphens=False))


def partners(options: list[Event], idx: list[int]) -> list[int]:
    """The players the trades among `idx` are offered to, each once, in menu order (at most 9: t1..t9)."""
    out: list[int] = []
    for i in idx:
        q = options[i].get("q")
        if options[i]["t"] == "trade" and q is not None and q not in out:
            out.append(q)
    return out[:9]


def play_cards(options: list[Event], idx: list[int]) -> list[int]:
    """The cards the plays among `idx` play, each once, in menu order (at most 9: p1..p9)."""
    out: list[int] = []
    for i in idx:
        h = options[i].get("card")
        if options[i]["t"] == "play" and h is not None and h not in out:
            out.append(h)
    return out[:9]


def stage_rows(items: list[str], width: int) -> list[str]:
    """Short items several to a line, each item whole: in two columns when two fit, else as many as fit."""
    col = max(len(x) for x in items) + 3
    if 2 * col - 3 <= width:
        rows = (len(items) + 1) // 2
        pairs = [(items[r], items[r + rows] if r + rows < len(items) else "") for r in range(rows)]
        return [(a.ljust(col) + b).rstrip() for a, b in pairs]
    out: list[str] = []
    for item in items:
        if out and len(out[-1]) + 3 + len(item) <= width:
            out[-1] += "   " + item
        else:
            out.append(item)
    return out


def doomed_words(st: GameState, me: int, cl: Checklist, ev: Event, lang: str) -> str:
    """" — fails for sure: C not in the password" where the checklist shows a code of the attempt OUT (else "")."""
    out = cl.status(ev["s"])[1]
    faces = [st.face(h, me) for h in ev["cards"]]
    doomed = sorted({card(f).code for f in faces if f is not None and card(f).code in out})
    return " " + msg("doomed", lang, codes=", ".join(CODES[c] for c in doomed)) if doomed else ""
