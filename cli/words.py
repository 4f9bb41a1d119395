"""Plain words for the terminal, in English or German: the message table of the commands and the shared client,
which name no game (each game's own words are in its client: cli/access_denied/messages.py and words.py,
cli/hacker/words.py, cli/classified/words.py).

A message table (`MESSAGES`: key -> {"en": ..., "de": ...}, `str.format` fields) is looked up with
`msg(key, lang, **fields)`; code never branches on the language. Adding a language is adding a column.
"""

from __future__ import annotations

import re
from typing import Any

from adp2p.engine.words import say

LANGS = ("en", "de")

MESSAGES: dict[str, dict[str, str]] = {
    "prompt": {
        "en": "choice (number, d = end/pass, ? = help, q = quit): ",
        "de": "Wahl (Nummer, d = beenden/passen, ? = Hilfe, q = Ende): ",
    },
    "roster_ask": {
        "en": "Start the game with them? [y/N] (no: leave the table) ",
        "de": "Spiel mit ihnen beginnen? [j/N] (nein: Tisch verlassen) ",
    },
    "roster_ask_full": {
        "en": "Start the game with them? (no: leave the table)",
        "de": "Spiel mit ihnen beginnen? (nein: Tisch verlassen)",
    },
    "yes_keys": {"en": "y yes", "de": "j ja y yes"},
    "confirm_keys": {"en": "[y/N] ", "de": "[j/N] "},
    # -- the full-screen client (cli/tui/fullscreen.py) --------------------------------------------
    "too_small": {
        "en": "The terminal is {cols}x{rows}: the game needs at least {min_cols}x{min_rows} (80x24 is best). Make the "
        "window larger; the game waits (q leaves).",
        "de": "Das Terminal hat {cols}x{rows}: das Spiel braucht mindestens {min_cols}x{min_rows} (80x24 ist am "
        "besten). Mach das Fenster größer; das Spiel wartet (q verlässt es).",
    },
    "prompt_wait": {"en": "(waiting for the others; q or Ctrl-C: leave) ",
                    "de": "(warte auf die anderen; q oder Strg-C: verlassen) "},
    "more_below": {"en": "▼ {n} more lines (↓)", "de": "▼ {n} weitere Zeilen (↓)"},
    "more_above": {"en": "▲ {n} lines above (↑)", "de": "▲ {n} Zeilen darüber (↑)"},
    "abandoned": {"en": "Game abandoned.", "de": "Spiel abgebrochen."},
    "left_table": {"en": "Left the table.", "de": "Tisch verlassen."},
    "resume_hint": {
        "en": "Left the table (resume with: {command}).",
        "de": "Tisch verlassen (weiter mit: {command}).",
    },
    "audit_ok": {"en": "Audit: {checked} checks out.", "de": "Prüfung: {checked} stimmt."},  # the game's words
    "audit_bad": {"en": "Audit found violations:", "de": "Die Prüfung fand Verstöße:"},
    "audit_entries": {"en": "({n} entries)", "de": "({n} Einträge)"},
    "verdict": {
        "en": "Cheating proven during the game: {verdict}",
        "de": "Während des Spiels nachgewiesener Betrug: {verdict}",
    },
    "replay_unfinished": {
        "en": "the log {path} ends after {n} entries, before the game did: no result and no audit to show (a log cut "
        "short, or a game still being played: ad-p2p join --resume goes on with it)",
        "de": "das Protokoll {path} endet nach {n} Einträgen, vor dem Spiel: kein Ergebnis und keine Prüfung "
        "(ein abgeschnittenes Protokoll oder ein laufendes Spiel: ad-p2p join --resume setzt es fort)",
    },
    "replay_unreadable": {"en": "cannot read {path}: {why}", "de": "{path} ist nicht lesbar: {why}"},
    "seat_n": {"en": "seat {n}", "de": "Platz {n}"},
    "audit_none": {"en": "Audit: not run ({line})", "de": "Prüfung: nicht gelaufen ({line})"},
    "audit.col": {"en": "Audit", "de": "Prüfung"},
    "audit.honest": {"en": "honest", "de": "ehrlich"},
    "audit.violation": {"en": "VIOLATION", "de": "VERSTOSS"},
    "audit.violations_n": {"en": "{n} VIOLATIONS", "de": "{n} VERSTÖSSE"},
    "audit.silent": {"en": "stopped answering", "de": "antwortete nicht mehr"},
    "audit.unfinished": {"en": "did not answer: the game is unfinished (no verdict at a table of two)",
                         "de": "hat nicht geantwortet: das Spiel ist unvollendet (zu zweit kein Urteil)"},
    "audit.unchecked": {"en": "not checked", "de": "nicht geprüft"},
    "audit.player": {"en": "  {who}: {verdict}", "de": "  {who}: {verdict}"},
    "audit.detail": {"en": "    {what}", "de": "    {what}"},
    "audit.named": {"en": "  {who}: {what}", "de": "  {who}: {what}"},
    "audit.breach": {"en": "rule {rule}{where}: {why}", "de": "Regel {rule}{where}: {why}"},
    "audit.breach_words": {"en": "{rule}{where}", "de": "{rule}{where}"},
    "audit.entry": {"en": " (entry {seq})", "de": " (Eintrag {seq})"},
    "audit.nobody": {"en": "  (no single player) {what}", "de": "  (kein einzelner Spieler) {what}"},
    "game_log": {"en": "Game log: {path}", "de": "Spielprotokoll: {path}"},
    "rematch_join_ask": {
        "en": "Another game at table {table}? The others must choose it too. [y/N] ",
        "de": "Noch eine Partie am Tisch {table}? Die anderen müssen es auch wählen. [j/N] ",
    },
    "rematch_ask": {
        "en": "Another game with the same settings and a new deal? [y/N] ",
        "de": "Noch eine Partie, gleiche Einstellungen, neu gemischt? [j/N] ",
    },
    "start_offline": {
        "en": "ad-p2p play: {profile}, {n} players, seed {seed}{you}",
        "de": "ad-p2p play: {profile}, {n} Spieler, Seed {seed}{you}",
    },
    "you_p1": {"en": ", you are P1", "de": ", du bist P1"},
    "play_intro": {
        "en": "ad-p2p play: {rules}, {n} players at table {table} on this machine ({bots} bot peer processes), "
        "seed {seed}",
        "de": "ad-p2p play: {rules}, {n} Spieler an Tisch {table} auf diesem Rechner ({bots} Bot-Prozesse), "
        "Startwert {seed}",
    },
    "watcher": {"en": "watcher", "de": "Zuschauer"},
    "winners": {"en": "Winner(s): {who} — {reason}", "de": "Gewinner: {who} — {reason}"},
}


def msg(name: str, lang: str = "en", /, **fields: Any) -> str:
    """The message `name` in `lang` (English when the language lacks it), formatted with `fields`."""
    return say(MESSAGES, name, lang, **fields)


def name_line(line: str, names: list[str] | None) -> str:
    """A line that says P1..Pn (the table's, the account's) with the players' names instead."""
    if not names:
        return line

    def name(m: re.Match[str]) -> str:
        p = int(m.group(1)) - 1
        return names[p] if p < len(names) else f"P{p + 1}"

    return re.sub(r"\bP(\d)\b", name, line)


def yes(line: str) -> bool:
    """y/j (yes, ja) is yes, anything else no."""
    return line.strip().lower()[:1] in ("y", "j")
