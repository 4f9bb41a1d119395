"""Hacker's words in English and German, as data: labels, phases and the menu's labels (one template per event or card
target), with the account's words (one template per history entry, the names of seats and places: engine/hacker/
narration.py,
which the table reads too). `say(key, lang, **fields)` formats one."""

from __future__ import annotations

from typing import Any

from adp2p.engine import words
from adp2p.engine.hacker.board import ring
from adp2p.engine.hacker.catalog import card
from adp2p.engine.hacker.narration import WORDS as ACCOUNT
from adp2p.engine.hacker.narration import card_name, place_name, seat_name, what_name

WORDS: dict[str, dict[str, str]] = {
    # labels of the screen
    "title": {"en": "HACKER", "de": "HACKER"},
    "round": {"en": "round {no}", "de": "Runde {no}"},
    "goal": {"en": "goal {k} codes", "de": "Ziel {k} Codes"},
    "decides": {"en": "decides: {who}", "de": "am Zug: {who}"},
    "you_decide": {"en": "YOUR decision", "de": "DU bist dran"},
    "over": {"en": "game over", "de": "Spielende"},
    "cafe_short": {"en": "Cafe", "de": "Kant."},
    "terminal": {"en": "term", "de": "Term"},
    "queue_mark": {"en": "q", "de": "w"},  # after a place: waiting in its queue ("A1w": wartet in Abteilung 1)
    "queue_legend": {"en": "{q}=in the queue", "de": "{q}=in der Warteschlange"},
    "closed": {"en": "closed", "de": "zu"},
    "broken": {"en": "DEFECT", "de": "DEFEKT"},
    "lock": {"en": "L{k}", "de": "Schl.{k}"},  # (not S{k}: a German seat is S1, S2, ...)
    "extra_pw": {"en": "+pw", "de": "+Pw"},
    "h_player": {"en": "*=you", "de": "*=du"},
    "h_at": {"en": "at", "de": "wo"},
    "h_time": {"en": "TIME", "de": "ZEIT"},
    "h_prio": {"en": "PRIO", "de": "PRIO"},
    "h_pw": {"en": "passwd", "de": "Paßw."},
    "h_codes": {"en": "codes", "de": "Codes"},
    "h_cards": {"en": "hand/laid/fd", "de": "Hd/gel/vd"},
    "hand": {"en": "Hand", "de": "Hand"},
    "laid": {"en": "Laid face down", "de": "Verdeckt gelegt"},
    "chance_pile": {"en": "chance", "de": "Zufall"},
    "term_pile": {"en": "terminal", "de": "Terminal"},
    "nothing": {"en": "none", "de": "keine"},
    "unseen": {"en": "+{k} drawn, not seen yet", "de": "+{k} gezogen, noch nicht gesehen"},
    "passing": {"en": "passing {card}", "de": "gibt {card} weiter"},
    "pad": {"en": "{hacker}@{d} ctrl {ctrl}", "de": "{hacker}@{d} Ktr. {ctrl}"},  # (fits 24 columns with names)
    "pad_roll": {"en": "roll {s}: out{o} mid{m} ctr{c}", "de": "Wurf {s}: au{o} mi{m} ze{c}"},
    "pad_legend": {"en": "@_here ?_asked o_clear X_check #_yours", "de": "@_hier ?_gefragt o_frei X_Check #_deins"},
    "account": {"en": "Account", "de": "Verlauf"},
    "choose": {"en": "Choose a number", "de": "Wähle eine Nummer"},
    "back": {"en": "0 back", "de": "0 zurück"},
    "prompt": {"en": "(? help, q quit) > ", "de": "(? Hilfe, q Ende) > "},
    "bad_choice": {"en": "No such choice: {x} (? for help)", "de": "Keine solche Wahl: {x} (? für Hilfe)"},
    "bad_choice_n": {"en": "No such choice: {x} (the choices are 1..{n})",
                     "de": "Keine solche Wahl: {x} (die Wahl ist 1..{n})"},
    "sq_not_outer": {"en": "{sq}: a hack begins on one of the 16 outer squares (column A or E, row 1 or 5)",
                     "de": "{sq}: ein Hack beginnt auf einem der 16 äußeren Felder (Spalte A oder E, Zeile 1 oder 5)"},
    "sq_not_next": {"en": "{sq} is not next to {at}: the hack moves one square at a time (straight or diagonal)",
                    "de": "{sq} liegt nicht neben {at}: der Hack geht Feld für Feld (gerade oder diagonal)"},
    "sq_cleared": {"en": "{sq} was found clear already: try another square",
                   "de": "{sq} ist schon als frei bekannt: versuch ein anderes Feld"},
    "sq_not_now": {"en": "{sq}: no square is asked for now", "de": "{sq}: jetzt ist kein Feld gefragt"},
    "sq_picked": {"en": "{sq} holds a check already", "de": "{sq} hat schon eine Sperre"},
    "sq_not_check": {"en": "{sq} ({ring}): the roll allows no more checks there",
                     "de": "{sq} ({ring}): der Wurf erlaubt dort keine Sperre mehr"},
    "waiting": {"en": "{who} is deciding ...", "de": "{who} entscheidet ..."},
    "rules_words": {"en": "{name}, goal {k} codes, limit {limit} rounds",
                    "de": "{name}, Ziel {k} Codes, Limit {limit} Runden"},
    "winners": {"en": "Winners: {who} ({why})", "de": "Sieger: {who} ({why})"},
    "news": {"en": "Since your last decision: {k} lines of the account (the last {r} on your page)",
             "de": "Seit deiner letzten Wahl: {k} Zeilen (die letzten {r} auf deiner Seite)"},
    "press_enter_more": {"en": "Enter: go on > ", "de": "Enter: weiter > "},
    "press_enter": {"en": "Press Enter to leave.", "de": "Enter zum Beenden."},
    "last_round": {"en": "Round {no}, all that happened in it:", "de": "Runde {no}, alles, was darin geschah:"},
    "auto": {"en": "(done for you: {what})", "de": "(für dich erledigt: {what})"},
    "unsealed_lay": {"en": "your laid cards turned over", "de": "deine gelegten Karten aufgedeckt"},
    "auto_why": {"en": "(done for you: {what}; {why})", "de": "(für dich erledigt: {what}; {why})"},
    # why a move was the only one (cli/hacker/forced.py)
    "why.must_lay": {"en": "a BLACKOUT or SUPER SPY drawn must be laid",
                     "de": "gezogener STROMAUSFALL oder SUPERSPION muss gelegt werden"},
    "why.empty_hand": {"en": "your hand is empty", "de": "deine Hand ist leer"},
    "why.queue_term": {"en": "in the queue, terminal cards can't be laid",
                       "de": "in der Warteschlange keine Terminalkarten"},
    "why.cafe_term": {"en": "in the cafeteria, terminal cards can't be laid",
                      "de": "in der Kantine keine Terminalkarten"},
    "why.from_hand": {"en": "SUPERSPY PROTECTION is played from the hand",
                      "de": "SUPERSPIONSCHUTZ wird aus der Hand gespielt"},
    "why.time0": {"en": "TIME 0: you must leave the terminal", "de": "ZEIT 0: du musst das Terminal verlassen"},
    "why.no_prio": {"en": "no PRIO left to pay for your HACK card", "de": "keine PRIO mehr für deine HACK-Karte"},
    "why.no_ssp": {"en": "you hold no SUPERSPY PROTECTION", "de": "du hast keinen SUPERSPIONSCHUTZ"},
    "why.must_hack": {"en": "a laid HACK card must be used", "de": "gelegte HACK-Karte ist Pflicht"},
    "why.no_hack": {"en": "you have no HACK card laid", "de": "du hast keine HACK-Karte gelegt"},
    "why.pad_says": {"en": "your pad decides the answer", "de": "dein Pad bestimmt die Antwort"},
    "pick_pad": {"en": "picked {sqs} ({k}/{n})", "de": "gewählt {sqs} ({k}/{n})"},
    "ring0": {"en": "outer ring", "de": "äußerer Ring"},
    "ring1": {"en": "middle ring", "de": "mittlerer Ring"},
    "ring2": {"en": "centre", "de": "Zentrum"},
    "col": {"en": "column {c}", "de": "Spalte {c}"},
    "cards_n": {"en": "{k} cards", "de": "{k} Karten"},
    "cards_1": {"en": "1 card", "de": "1 Karte"},
    "group_more": {"en": "{label} ... ({k})", "de": "{label} ... ({k})"},
    # phases
    "phase.setup": {"en": "setup", "de": "Aufbau"},
    "phase.pass": {"en": "1 pass on cards", "de": "1 Karten weitergeben"},
    "phase.place": {"en": "2 play a place card", "de": "2 Ortskarte spielen"},
    "phase.dummies": {"en": "3 place dummy users", "de": "3 Dummy-User einsetzen"},
    "phase.position": {"en": "4 position players", "de": "4 Spieler aufstellen"},
    "phase.lay": {"en": "6 lay chance & terminal cards", "de": "6 Karten verdeckt legen"},
    "phase.start": {"en": "7 decide starting player", "de": "7 Startspieler bestimmen"},
    "phase.chance": {"en": "8a play chance cards", "de": "8a Zufallskarten spielen"},
    "phase.terminal": {"en": "8b play terminal cards", "de": "8b Terminalkarten spielen"},
    "phase.upkeep": {"en": "9 alter marker stones", "de": "9 Markersteine anpassen"},
    "phase.boss": {"en": "10 the Boss arrives", "de": "10 der Boss kommt"},
    "phase.remove": {"en": "11 remove dummy users", "de": "11 Dummy-User entfernen"},
    "phase.refill": {"en": "12 replace cards, PRIO", "de": "12 Karten ersetzen, PRIO"},
    # decisions (the question over the menu)
    "ask.pass": {"en": "Pass one card to {left}", "de": "Eine Karte an {left} weitergeben"},
    "ask.seal.place": {"en": "Choose your place card (sealed)", "de": "Wähle deine Ortskarte (verdeckt)"},
    "ask.seal.lay": {"en": "Lay cards face down (sealed)", "de": "Karten verdeckt auslegen (versiegelt)"},
    "ask.seal.lay.queue": {"en": "Lay cards face down (sealed; in the queue chance cards only)",
                           "de": "Karten verdeckt auslegen (versiegelt; in der Warteschlange nur Zufallskarten)"},
    "ask.seal.lay.cafe": {"en": "Lay cards face down (sealed; in the cafeteria chance cards only)",
                          "de": "Karten verdeckt auslegen (versiegelt; in der Kantine nur Zufallskarten)"},
    "ask.seal.pad": {"en": "Set your checks on the pad (or type a square)",
                     "de": "Setze deine Checks (oder tippe ein Feld)"},
    "ask.unseal": {"en": "Turn your sealed choice over", "de": "Decke deine versiegelte Wahl auf"},
    "ask.play": {"en": "Play a laid {pile} card", "de": "Spiele eine gelegte Karte ({pile})"},
    "ask.activate": {"en": "Activate a face-down SUPERSPY?", "de": "Einen verdeckten SUPERSPION aktivieren?"},
    "ask.protect": {"en": "{attacker} plays {card} on {who}: stop it?",
                    "de": "{attacker} spielt {card} gegen {who}: verhindern?"},
    "ask.give": {"en": "Give something to {to}", "de": "Gib {to} etwas"},
    "ask.hack_choice": {"en": "Hack the terminal of {d}?", "de": "Das Terminal von {d} hacken?"},
    "ask.probe": {"en": "Announce a square (number, or type e.g. a1)", "de": "Sage ein Feld an (Nummer, oder z.B. a1)"},
    "ask.answer": {"en": "Answer for {sq}", "de": "Antwort für {sq}"},
    "ask.pass_check": {"en": "You hit a check", "de": "Du hast einen Check getroffen"},
    "ask.open_pad": {"en": "Open your hack pad", "de": "Decke dein Hackpad auf"},
    "ask.exchange": {"en": "Cafeteria: exchange cards", "de": "Kantine: Karten tauschen"},
    # menu labels, one per event kind
    "ev.pass": {"en": "pass {card}", "de": "{card} weitergeben"},
    "ev.seal.place": {"en": "go to {to}", "de": "nach {to}"},
    "ev.seal.cafe": {"en": "go to the cafeteria", "de": "in die Kantine gehen"},
    "ev.seal.stay": {"en": "stay in {to}", "de": "in {to} bleiben"},
    "lay.chance": {"en": "chance: {cards}", "de": "Zufall: {cards}"},
    "lay.term": {"en": "terminal: {cards}", "de": "Terminal: {cards}"},
    "lay.none": {"en": "lay nothing", "de": "nichts legen"},
    "ev.seal.pad": {"en": "checks {sqs}", "de": "Checks {sqs}"},
    "ev.unseal.place": {"en": "show: {to}", "de": "zeigen: {to}"},
    "ev.unseal.lay": {"en": "show: chance {chance}, terminal {term}", "de": "zeigen: Zufall {chance}, Terminal {term}"},
    "ev.discard": {"en": "discard {card} (cannot be played)", "de": "{card} abwerfen (nicht spielbar)"},
    "ev.face_down": {"en": "{card} face down before {who}", "de": "{card} verdeckt vor {who}"},
    "ev.activate": {"en": "SUPERSPY before {who}: code of {d}", "de": "SUPERSPION vor {who}: Code von {d}"},
    "ev.no_activate": {"en": "do not activate", "de": "nicht aktivieren"},
    "ev.protect": {"en": "play SUPERSPY PROTECTION", "de": "SUPERSPION-SCHUTZ spielen"},
    "ev.decline": {"en": "no protection", "de": "kein Schutz"},
    "ev.give.pw": {"en": "give the password of {d}", "de": "Paßwort von {d} geben"},
    "ev.give.code": {"en": "give the code of {d}", "de": "Code von {d} geben"},
    "ev.hack": {"en": "hack", "de": "hacken"},
    "ev.no_hack": {"en": "do not hack", "de": "nicht hacken"},
    "ev.probe": {"en": "{sq}", "de": "{sq}"},
    "ev.abandon": {"en": "abandon the attempt", "de": "Versuch abbrechen"},
    "ev.answer.true": {"en": "CHECK", "de": "CHECK"},
    "ev.answer.false": {"en": "no check", "de": "kein Check"},
    "ev.use_hack": {"en": "play HACK, go on", "de": "HACK spielen, weiter"},
    "ev.eject": {"en": "ejected", "de": "rausgeworfen"},
    "ev.open_pad": {"en": "open: roll {roll}, checks {sqs}", "de": "aufdecken: Wurf {roll}, Checks {sqs}"},
    "ev.exchange": {"en": "exchange {cards}", "de": "{cards} tauschen"},
    "ev.exchange.none": {"en": "keep my hand", "de": "Hand behalten"},
    # play targets, by the card's target
    "tg.none": {"en": "play {card}", "de": "{card} spielen"},
    "tg.self": {"en": "{card}: my own +1", "de": "{card}: meine +1"},
    "tg.other": {"en": "{card}: {who} -1", "de": "{card}: {who} -1"},
    "tg.department": {"en": "{card} on {d}", "de": "{card} auf {d}"},
    "tg.remote_department": {"en": "{card} to {d}", "de": "{card} nach {d}"},
    "tg.who_d": {"en": "{card}: {who}'s {d}", "de": "{card}: {who}, {d}"},
    "tg.who": {"en": "{card} on {who}", "de": "{card} auf {who}"},
    "tg.fd": {"en": "{card}: remove a face-down card before {who}",
              "de": "{card}: verdeckte Karte vor {who} entfernen"},
    **ACCOUNT,
    # the replay of a game's log (cli/hacker/replay.py)
    "replay.head": {"en": "Replay of Hacker game {game}: {profile}, players {names}",
                    "de": "Wiederholung von Hacker-Spiel {game}: {profile}, Spieler {names}"},
    "replay.prompt": {"en": "[{at}/{last}] Enter = next round, b = back, a number = that round, a = all, q = quit: ",
                      "de": "[{at}/{last}] Enter = nächste Runde, b = zurück, Zahl = diese Runde, a = alles, "
                            "q = Ende: "},
}


def say(key: str, lang: str, **fields: Any) -> str:
    if key not in WORDS:
        return key.format(**fields) if fields else key
    return words.say(WORDS, key, lang, **fields)


def card_text(face: int, lang: str) -> str:
    c = card(face)
    return c.text_de if lang == "de" else c.text_en


def ring_name(sq: str, lang: str) -> str:
    return say(f"ring{ring(sq)}", lang)


__all__ = ["WORDS", "card_name", "card_text", "place_name", "ring_name", "say", "seat_name", "what_name"]
