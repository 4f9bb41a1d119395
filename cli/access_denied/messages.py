"""Access Denied's message table: its words for the terminal and the page (cards, sectors, steps, decisions, menus,
panes, the rules summary, the end screen), key -> {"en": ..., "de": ...} with `str.format` fields, as cli/words.py's
shared table (the commands' and the shared client's words, which name no game). `msg` looks a key up here first,
then in the shared table."""

from __future__ import annotations

from typing import Any

from adp2p.cli.words import MESSAGES as SHARED
from adp2p.cli.words import name_line, yes
from adp2p.engine.words import say

__all__ = ["MESSAGES", "SHARED", "msg", "name_line", "yes"]

MESSAGES: dict[str, dict[str, str]] = {
    # -- events (menu lines) ------------------------------------------------------------------------
    "hidden_card": {"en": "a hidden card", "de": "eine verdeckte Karte"},
    "ev.play": {"en": "Play {card}", "de": "Spiele {card}"},
    "ev.backdoor": {"en": " + Backdoor", "de": " + Backdoor"},
    "ev.against": {"en": " against {who}", "de": " gegen {who}"},
    "ev.on": {"en": " on {sector}", "de": " auf {sector}"},
    "ev.new_password": {"en": " new password {cards}", "de": " neues Passwort {cards}"},
    "ev.attempt": {
        "en": "Attempt {level} access to {sector} with {cards}",
        "de": "Zugangsversuch {level} auf {sector} mit {cards}",
    },
    "ev.buy_access": {
        "en": "{level} access to {sector} (no controller): discard {cards}",
        "de": "{level}-Zugang zu {sector} (ohne Kontrolleur): {cards} ablegen",
    },
    "doomed": {
        "en": "— fails for sure: {codes} not in the password",
        "de": "— scheitert sicher: {codes} nicht im Passwort",
    },
    "ev.done": {"en": "End this step", "de": "Schritt beenden"},
    "ev.pass": {"en": "Pass", "de": "Passen"},
    "ev.begin": {"en": "Begin your turn", "de": "Zug beginnen"},
    "ev.gov_draw": {"en": "Take the top discard (Government bonus)", "de": "Oberste Ablage nehmen (Regierung)"},
    "ev.news_skip": {
        "en": "Skip your turn and draw (NewsMedia bonus)",
        "de": "Zug überspringen und ziehen (Nachrichten)",
    },
    "ev.univ": {
        "en": "User access to {sector} (Universities bonus)",
        "de": "User-Zugang zu {sector} (Universitäten)",
    },
    "ev.discard_none": {"en": "Discard nothing", "de": "Nichts ablegen"},
    "ev.discard": {"en": "Discard {cards}", "de": "Ablegen: {cards}"},
    "ev.draw": {"en": "Draw {n} card(s)", "de": "{n} Karte(n) ziehen"},
    "ev.draw_bank": {"en": " (Banking: 2, then discard down)", "de": " (Banken: 2, dann abwerfen)"},
    "ev.password": {"en": "Password for {sector}: {cards}", "de": "Passwort für {sector}: {cards}"},
    "ev.password_draw": {"en": "Cannot form a password: draw a card", "de": "Kein Passwort möglich: eine Karte ziehen"},
    "ev.answer": {"en": "Answer: {answers}", "de": "Antwort: {answers}"},
    "ev.match": {"en": "match", "de": "passt"},
    "ev.no_match": {"en": "no match", "de": "passt nicht"},
    "ev.trade": {"en": "Give {card} to {who} in trade", "de": "{card} an {who} zum Tausch geben"},
    "ev.trade_decline": {"en": "Decline the trade", "de": "Tausch ablehnen"},
    "ev.trade_accept": {"en": "Accept, giving {cards}", "de": "Annehmen und geben: {cards}"},
    "nothing": {"en": "nothing", "de": "nichts"},
    "ev.tele_action": {
        "en": "Discard 2 for an action (TeleComm): {cards}",
        "de": "2 Karten ablegen für 1 Aktion: {cards}",
    },
    "ev.take": {"en": "Take {card}", "de": "Nimm {card}"},
    "ev.give_to": {"en": "Give one taken card to {who}", "de": "Gib eine Karte an {who}"},
    "ev.give": {"en": "Give {cards}", "de": "Gib: {cards}"},
    "ev.spam_give": {"en": "Spam: give {cards}", "de": "Spam: gib {cards}"},
    # -- sector bonuses (rules.BONUS_TABLES values) -------------------------------------------------
    "bonus.extra_draw_capped": {"en": "draw +1", "de": "+1 Karte ziehen"},
    "bonus.take_top_discard": {"en": "take top discard", "de": "oberste Ablage nehmen"},
    "bonus.hand_limit_plus2": {"en": "hand limit +2", "de": "Handlimit +2"},
    "bonus.skip_draw_up_to_6": {"en": "skip turn, draw to 6", "de": "Zug aussetzen, auf 6 ziehen"},
    "bonus.immune_action_loss": {"en": "immune to action loss", "de": "immun gegen Aktionsverlust"},
    "bonus.auto_user": {"en": "automatic User access", "de": "automatisch User-Zugang"},
    "bonus.draw2_ignore_limit_then_discard": {"en": "draw 2, then discard down", "de": "2 ziehen, dann abwerfen"},
    "bonus.skip_draw_6": {"en": "skip turn, draw 6", "de": "Zug aussetzen, 6 ziehen"},
    "bonus.discard2_for_action": {"en": "discard 2 for an action", "de": "2 ablegen für 1 Aktion"},
    # -- screen -----------------------------------------------------------------------------------
    "title": {"en": "Access Denied", "de": "Zugang Verweigert"},
    "you_are": {"en": "you are {who}", "de": "du bist {who}"},
    "watching": {"en": "watching", "de": "Zuschauer"},
    "setup": {"en": "setup", "de": "Vorbereitung"},
    "round_turn": {"en": "round {round}, turn {turn}: {who}", "de": "Runde {round}, Zug {turn}: {who}"},
    "step": {"en": "step: {step}", "de": "Schritt: {step}"},
    "actions_left": {"en": "actions left: {n}", "de": "Aktionen übrig: {n}"},
    "step_left": {"en": "{step} ({n} left)", "de": "{step} ({n} übrig)"},
    "step.turn_start": {"en": "start of turn", "de": "Zugbeginn"},
    "step.free": {"en": "free access attempt", "de": "freier Zugangsversuch"},
    "step.actions": {"en": "take actions", "de": "Aktionen"},
    "step.discard": {"en": "discard", "de": "Ablegen"},
    "step.draw": {"en": "draw cards", "de": "Karten ziehen"},
    "step.none": {"en": "-", "de": "-"},
    "waiting_for": {"en": "waiting for {who}: {what}", "de": "warte auf {who}: {what}"},
    "decision.password": {"en": "set a password", "de": "Passwort festlegen"},
    "decision.window": {"en": "reaction?", "de": "Reaktion?"},
    "decision.answer": {"en": "answer an access attempt", "de": "Zugangsversuch beantworten"},
    "decision.trade_reply": {"en": "reply to a trade", "de": "auf einen Tausch antworten"},
    "decision.nsa_take": {"en": "take a card from their hand", "de": "eine Karte aus der Hand nehmen"},
    "decision.hs_give": {"en": "give away one of the cards taken", "de": "eine der genommenen Karten abgeben"},
    "decision.fdic_give": {"en": "give cards away", "de": "Karten abgeben"},
    "decision.spam_give": {"en": "give a harmful card", "de": "eine schädliche Karte abgeben"},
    "decision.other": {"en": "a choice", "de": "eine Wahl"},  # (never the engine's own name of it)
    "sectors": {"en": "Sectors", "de": "Sektoren"},
    "col.sector": {"en": "Sector", "de": "Sektor"},
    "col.ctrl": {"en": "Ctrl", "de": "Kontr."},
    "col.access": {"en": "Access", "de": "Zugang"},
    "col.bonus": {"en": "Root bonus", "de": "Root-Bonus"},
    "col.on_sector": {"en": "On sector", "de": "Auf dem Sektor"},
    "bonus_held": {"en": "{bonus} ({who})", "de": "{bonus} ({who})"},
    "piles": {
        "en": "Deck {deck} · Discard {discard} · top: {top}",
        "de": "Stapel {deck} · Ablage {discard} · oben: {top}",
    },
    "players": {"en": "Players", "de": "Spieler"},
    "player_line": {
        "en": "{who}: {hand} in hand, Roots {roots}{upgrades}",
        "de": "{who}: {hand} auf der Hand, Roots {roots}{upgrades}",
    },
    "upgrades": {"en": ", upgrades: {cards}", "de": ", Upgrades: {cards}"},
    "short_name": {"en": " (shown as {tag})", "de": " (kurz {tag})"},
    "names_legend": {"en": "Short names: {pairs}", "de": "Kurznamen: {pairs}"},
    "your_hand": {"en": "Your hand ({n}, limit {limit})", "de": "Deine Hand ({n}, Limit {limit})"},
    "col.card": {"en": "Card", "de": "Karte"},
    "col.code": {"en": "Code", "de": "Code"},
    "col.text": {"en": "Text", "de": "Text"},
    "col.now": {"en": "Now", "de": "Jetzt"},
    "playable": {"en": "playable", "de": "spielbar"},
    "your_password": {"en": "Your password", "de": "Dein Passwort"},
    "no_password": {"en": "(you control no sector)", "de": "(du kontrollierst keinen Sektor)"},
    "checklist": {"en": "Checklist", "de": "Checkliste"},
    "col.in": {"en": "In", "de": "Drin"},
    "col.out": {"en": "Out", "de": "Raus"},
    "col.maybe": {"en": "Maybe", "de": "Evtl."},
    "col.left": {"en": "Left", "de": "Übrig"},
    "checklist_legend": {
        "en": "In/Out/Maybe: codes in, not in, maybe in the password · Left: passwords still possible",
        "de": "Drin/Raus/Evtl.: Codes im Passwort, nicht darin, vielleicht darin · Übrig: noch mögliche Passwörter",
    },
    "solved": {"en": "{n} — solved: {codes}", "de": "{n} — gelöst: {codes}"},
    "no_checklist": {
        "en": "(no other player controls a sector yet)",
        "de": "(noch kontrolliert kein anderer Spieler einen Sektor)",
    },
    "account": {"en": "What happened", "de": "Was geschah"},
    "nothing_yet": {"en": "(nothing yet)", "de": "(noch nichts)"},
    "game_over": {"en": "Game over — winner(s): {who} ({reason})", "de": "Spiel vorbei — Gewinner: {who} ({reason})"},
    "narrow": {
        "en": "(narrow terminal: compact layout; widen to 80+ columns for the full screen)",
        "de": "(schmales Terminal: kompakte Ansicht; ab 80 Spalten die volle Ansicht)",
    },
    # -- why a card cannot be played now ----------------------------------------------------------
    "why.companion": {"en": "only with another card", "de": "nur mit einer anderen Karte"},
    "why.needs_access": {"en": "needs {level} in {sector}", "de": "braucht {level} in {sector}"},
    "why.needs_code": {"en": "needs code {code} in your password", "de": "braucht Code {code} im Passwort"},
    "why.reaction": {"en": "reaction: not now", "de": "Reaktion: nicht jetzt"},
    "why.not_your_turn": {"en": "not your turn", "de": "nicht dein Zug"},
    "why.not_actions": {"en": "in your Take Actions step", "de": "im Schritt Aktionen"},
    "why.no_action": {"en": "no action left", "de": "keine Aktion übrig"},
    "why.no_target": {"en": "no valid target", "de": "kein gültiges Ziel"},
    "why.copybot": {"en": "nothing to copy", "de": "nichts zu kopieren"},
    "why.not_now": {"en": "not now", "de": "nicht jetzt"},
    # -- prompt -----------------------------------------------------------------------------------
    "your_decision": {"en": "Your decision: {what}", "de": "Deine Entscheidung: {what}"},
    "group.done": {"en": "End / pass", "de": "Beenden / passen"},
    "group.attempts": {"en": "Access attempts", "de": "Zugangsversuche"},
    "group.plays": {"en": "Play a card", "de": "Karte spielen"},
    "group.trades": {
        "en": "Trades (you give one card; any number come back, or none)",
        "de": "Tausch (du gibst eine Karte; zurück kommen beliebig viele oder keine)",
    },
    "group.other": {"en": "Choices", "de": "Auswahl"},
    "group.collapsed": {"en": "{n} choices — type {key} to list them", "de": "{n} Möglichkeiten — {key} zeigt sie"},
    "group.card": {"en": "{key}: {card} — {n} ways to play it", "de": "{key}: {card} — {n} Möglichkeiten"},
    "group.sector": {"en": "{key}: {sector} — {n} choices", "de": "{key}: {sector} — {n} Möglichkeiten"},
    "group.partner": {"en": "{key}: with {who} — {n} choices", "de": "{key}: mit {who} — {n} Möglichkeiten"},
    "react_about": {"en": "  A reaction to: {what}", "de": "  Eine Reaktion auf: {what}"},
    "prompt_react": {
        "en": "[{secs} s] react? (number, Enter = pass): ",
        "de": "[{secs} s] reagieren? (Nummer, Enter = passen): ",
    },
    "auto_pass": {"en": "time is up: you pass", "de": "Zeit abgelaufen: du passt"},
    "bad_key": {
        "en": "'{key}' is not a choice here: type a number from 1 to {n}, or ? for help",
        "de": "'{key}' geht hier nicht: tippe eine Nummer von 1 bis {n} oder ? für Hilfe",
    },
    "no_done": {"en": "there is no end/pass choice right now", "de": "beenden/passen geht gerade nicht"},
    "confirm": {
        "en": "Really: {what}? This cannot be undone [y/N] ",
        "de": "Wirklich: {what}? Das ist endgültig [j/N] ",
    },
    "cancelled": {"en": "cancelled — choose again", "de": "abgebrochen — neu wählen"},
    "confirm_full": {"en": "Really: {what}? This cannot be undone", "de": "Wirklich: {what}? Das ist endgültig"},
    "keys_full": {
        "en": "Tab: {pane} · PgUp/PgDn: log",
        "de": "Tab: {pane} · Bild↑/↓: Verlauf",
    },
    "keys_wide": {"en": "PgUp/PgDn: log · ↑/↓: choices", "de": "Bild↑/↓: Verlauf · ↑/↓: Auswahl"},
    "help_full": {
        "en": "  PgUp/PgDn  scroll the log · ↑/↓ scroll the choices · Tab  checklist (80x24)",
        "de": "  Bild↑/↓  Verlauf blättern · ↑/↓ Auswahl blättern · Tab  Checkliste (80x24)",
    },
    "pane.board": {"en": "board", "de": "Spielfeld"},
    "pane.secret": {"en": "checklist", "de": "Checkliste"},
    "log_scrolled": {"en": "▼ {n} newer (PgDn)", "de": "▼ {n} neuere (Bild↓)"},
    "more_cards": {"en": "… {n} more (cards: all of them)", "de": "… {n} weitere (cards: alle)"},
    "window_passing": {"en": "a reaction window is open", "de": "ein Reaktionsfenster ist offen"},
    "on_you": {"en": "On you: {effects}", "de": "Auf dir: {effects}"},
    "effect.no_attempts_next": {"en": "no attempts next turn", "de": "nächster Zug ohne Versuche"},
    "effect.no_actions_next": {"en": "no actions next turn", "de": "nächster Zug ohne Aktionen"},
    "effect.lose_actions_next": {"en": "{n} action(s) fewer next turn", "de": "{n} Aktion(en) weniger im nächsten Zug"},
    "effect.no_draw_next": {"en": "no drawing next turn", "de": "nächster Zug ohne Ziehen"},
    "effect.extra_actions_next": {"en": "{n} extra action(s) next turn", "de": "{n} Extra-Aktion(en) im nächsten Zug"},
    "effect.etaxes_next": {"en": "no hand limit, draw {n} more next turn", "de": "kein Handlimit, {n} mehr ziehen"},
    "effect.ignore_limit": {"en": "no hand limit until your turn", "de": "kein Handlimit bis zu deinem Zug"},
    "effect.sol": {"en": "1 action a turn (S.O.L.)", "de": "1 Aktion pro Zug (S.O.L.)"},
    "effect.beta": {"en": "hand limit -1 (Beta Site)", "de": "Handlimit -1 (Beta Site)"},
    # the same, shorter, for a header of two lines at 80 columns (effect_short first, effect_tiny if still too long)
    "effect_short.no_attempts_next": {"en": "no attempts next", "de": "keine Versuche nächst. Zug"},
    "effect_short.no_actions_next": {"en": "no actions next", "de": "keine Aktionen nächst. Zug"},
    "effect_short.lose_actions_next": {"en": "-{n} action(s) next", "de": "-{n} Aktion(en) nächst. Zug"},
    "effect_short.no_draw_next": {"en": "no draw next", "de": "kein Ziehen nächst. Zug"},
    "effect_short.extra_actions_next": {"en": "+{n} action(s) next", "de": "+{n} Aktion(en) nächst. Zug"},
    "effect_short.etaxes_next": {"en": "eTaxes: draw {n} more", "de": "eTaxes: {n} mehr ziehen"},
    "effect_short.ignore_limit": {"en": "no hand limit", "de": "kein Handlimit"},
    "effect_short.sol": {"en": "S.O.L.", "de": "S.O.L."},
    "effect_short.beta": {"en": "Beta Site", "de": "Beta Site"},
    "effect_tiny.no_attempts_next": {"en": "no att.", "de": "k. Versuche"},
    "effect_tiny.no_actions_next": {"en": "no act.", "de": "k. Aktionen"},
    "effect_tiny.lose_actions_next": {"en": "-{n} act.", "de": "-{n} Akt."},
    "effect_tiny.no_draw_next": {"en": "no draw", "de": "k. Ziehen"},
    "effect_tiny.extra_actions_next": {"en": "+{n} act.", "de": "+{n} Akt."},
    "effect_tiny.etaxes_next": {"en": "eTaxes", "de": "eTaxes"},
    "effect_tiny.ignore_limit": {"en": "no limit", "de": "k. Limit"},
    "effect_tiny.sol": {"en": "S.O.L.", "de": "S.O.L."},
    "effect_tiny.beta": {"en": "Beta", "de": "Beta"},
    "stage.password": {
        "en": "{n} possible passwords: pick card by card (c1, c2, ...; c: start again){picked}",
        "de": "{n} mögliche Passwörter: Karte für Karte wählen (c1, c2, ...; c: neu){picked}",
    },
    "stage.cards": {
        "en": "{n} choices: pick card by card (c1, c2, ...; c: start again){picked}",
        "de": "{n} Möglichkeiten: Karte für Karte wählen (c1, c2, ...; c: neu){picked}",
    },
    "stage.discard": {
        "en": "{n} ways to discard, at least {k} card(s): pick card by card (c1, c2, ...; c: start again){picked}",
        "de": "{n} Möglichkeiten, mindestens {k} Karte(n) abzulegen: Karte für Karte (c1, c2, ...; c: neu){picked}",
    },
    "stage.give_back": {
        "en": "{n} ways to give cards back: pick card by card (c1, c2, ...; c: start again){picked}",
        "de": "{n} Möglichkeiten zurückzugeben: Karte für Karte (c1, c2, ...; c: neu){picked}",
    },
    "stage.picked": {"en": " — picked: {cards}", "de": " — gewählt: {cards}"},
    "stage.card": {"en": "{key}: {card} ({n})", "de": "{key}: {card} ({n})"},
    "stage.none": {"en": "no card to pick here", "de": "hier gibt es keine Karte zu wählen"},
    "help": {
        "en": (
            "Type the number of a choice and Enter.\n"
            "  d       end this step / pass\n"
            "  a p t o show the attempts / plays / trades / other choices when they are folded\n"
            "  c1 c2.. a password, discards or cards to trade, one by one (c: start again)\n"
            "  p1 p2.. the ways to play one card (after p, when cards have several targets)\n"
            "  t1 t2.. the trades with one player (after t, when there are many)\n"
            "  b       show the board again\n"
            "  cards   your cards with their full texts (cards all: the whole deck)\n"
            "  rules   the turn structure and the sector bonuses\n"
            "  q       leave the game (Ctrl-C works too)"
        ),
        "de": (
            "Tippe die Nummer einer Möglichkeit und Enter.\n"
            "  d       Schritt beenden / passen\n"
            "  a p t o Zugangsversuche / Karten / Tausch / Sonstiges zeigen, wenn zusammengefaltet\n"
            "  c1 c2.. Passwort, Ablage oder Tauschkarten Karte für Karte (c: neu)\n"
            "  p1 p2.. die Möglichkeiten, eine Karte zu spielen (nach p, bei mehreren Zielen)\n"
            "  t1 t2.. die Tauschangebote an einen Spieler (nach t, wenn es viele sind)\n"
            "  b       das Spielfeld erneut zeigen\n"
            "  cards   deine Karten mit vollem Text (cards all: alle Karten)\n"
            "  rules   Zugablauf und Sektor-Boni\n"
            "  q       das Spiel verlassen (Strg-C geht auch)"
        ),
    },
    "rules_text": {
        "en": (
            "Rules {profile}: goal {goal} Root accesses.\n"
            "A turn: 1. free access attempt  2. take actions (attempts, cards, trades)  3. discard down to your "
            "hand limit  4. draw cards.\n"
            "An attempt hands the controller 1/2/3 cards for User/Oper/Root: cards whose code is in the password "
            "come back, the rest stay with the controller.\n"
            "Sector bonuses (the sole Root holder):"
        ),
        "de": (
            "Regeln {profile}: Ziel {goal} Root-Zugänge.\n"
            "Ein Zug: 1. freier Zugangsversuch  2. Aktionen (Versuche, Karten, Tausch)  3. auf das Handlimit "
            "ablegen  4. Karten ziehen.\n"
            "Ein Versuch gibt dem Kontrolleur 1/2/3 Karten für User/Oper/Root: Karten, deren Code im Passwort ist, "
            "kommen zurück, der Rest bleibt beim Kontrolleur.\n"
            "Sektor-Boni (der einzige Root-Inhaber):"
        ),
    },
    "no_cards": {"en": "(no cards in your hand)", "de": "(keine Karten auf der Hand)"},
    "requires": {"en": "requires {level} {sector}", "de": "benötigt {level} {sector}"},
    # ad-p2p cards and ad-p2p rules
    "cards.title": {"en": "Access Denied — 63 cards", "de": "Zugang Verweigert — 63 Karten"},
    "cards.requires": {"en": "requires", "de": "benötigt"},
    "cards.password_has": {"en": "your password has {code}", "de": "dein Passwort enthält {code}"},
    "kind.reaction": {"en": "any time", "de": "jederzeit"},
    "kind.upgrade": {"en": "upgrade", "de": "Upgrade"},
    "kind.sector": {"en": "sector card", "de": "Sektorkarte"},
    "kind.harmful": {"en": "harmful", "de": "schädlich"},
    "kind.virus": {"en": "virus", "de": "Virus"},
    "kind.companion": {"en": "played along another card", "de": "mit einer anderen Karte gespielt"},
    "rules.title": {"en": "Rule profiles (details: docs/rules.md)", "de": "Regelprofile (Einzelheiten: docs/rules.md)"},
    "rules.head": {
        "en": "{name} — {players} players, goal {goal} Roots",
        "de": "{name} — {players} Spieler, Ziel {goal} Roots",
    },
    "rules.actions.roots": {"en": "  actions: one per Root access", "de": "  Aktionen: eine je Root-Zugang"},
    "rules.actions.fixed": {"en": "  actions: 1 a turn", "de": "  Aktionen: 1 pro Zug"},
    "rules.limit.accesses": {
        "en": "  hand limit: the number of sectors you have access to",
        "de": "  Handlimit: die Zahl der Sektoren, zu denen du Zugang hast",
    },
    "rules.limit.fixed": {"en": "  hand limit: {n} cards", "de": "  Handlimit: {n} Karten"},
    "rules.draws.oper_root": {
        "en": "  drawing: as many cards as you have Oper and Root accesses",
        "de": "  Ziehen: so viele Karten wie deine Oper- und Root-Zugänge",
    },
    "rules.draws.upto2": {"en": "  drawing: 0 to 2 cards", "de": "  Ziehen: 0 bis 2 Karten"},
    "rules.bonus.sole": {
        "en": "  sector bonuses: only the one player with Root ({table} table)",
        "de": "  Sektor-Boni: nur der einzige Root-Inhaber (Tabelle {table})",
    },
    "rules.bonus.any": {
        "en": "  sector bonuses: every player with Root ({table} table)",
        "de": "  Sektor-Boni: jeder Root-Inhaber (Tabelle {table})",
    },
    "rules.texts.en": {"en": "  card texts: English (rulebook 000)", "de": "  Kartentexte: englisch (Regelheft 000)"},
    "rules.texts.de": {"en": "  card texts: German (rulebook 001)", "de": "  Kartentexte: deutsch (Regelheft 001)"},
    "end.standings": {"en": "Standings", "de": "Stand"},
    "end.winner": {"en": "winner", "de": "Gewinner"},
    "end.passwords": {"en": "Every password:", "de": "Alle Passwörter:"},
    "end.password": {"en": "  {sector} ({who}): {cards}", "de": "  {sector} ({who}): {cards}"},
    "end.no_passwords": {"en": "  (no password revealed)", "de": "  (kein Passwort aufgedeckt)"},
    "end.replay": {"en": "Replay: {command} replay {path}", "de": "Nachspielen: {command} replay {path}"},
    "end_leave": {"en": "Enter: leave ", "de": "Enter: beenden "},
    "replay_head": {
        "en": "Replay of game {game}: {profile}, players {names}",
        "de": "Wiederholung von Spiel {game}: {profile}, Spieler {names}",
    },
    "replay_prompt": {
        "en": "[{at}/{last}] Enter = next turn, b = back, a number = that turn, a = all, q = quit: ",
        "de": "[{at}/{last}] Enter = nächster Zug, b = zurück, Zahl = dieser Zug, a = alles, q = Ende: ",
    },
}


def msg(name: str, lang: str = "en", /, **fields: Any) -> str:
    """The message `name` in `lang` (English when the language lacks it), formatted with `fields`: Access Denied's
    own words, else the shared table's."""
    return say(MESSAGES if name in MESSAGES else SHARED, name, lang, **fields)
