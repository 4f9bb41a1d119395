"""Classified Information's words in English and German (the seed is English only: every German text is ours)."""

from __future__ import annotations

from typing import Any

from adp2p.engine.classified.catalog import card

WORDS: dict[str, tuple[str, str]] = {
    "title": ("Classified Information", "Geheimsache"),
    "turn": ("turn {n}", "Zug {n}"),
    "final": ("final turn", "letzter Zug"),
    "setup": ("set-up", "Aufbau"),
    "reveal_phase": ("the Big Reveal", "die große Enthüllung"),
    "over": ("game over", "Spiel vorbei"),
    "you_decide": ("you decide", "du entscheidest"),
    "they_decide": ("the opponent decides", "der Gegner entscheidet"),
    "decides": ("{who} decides", "{who} entscheidet"),
    "you": ("You", "Du"),
    "them": ("Opponent", "Gegner"),
    "you_l": ("you", "du"),
    "them_l": ("the opponent", "der Gegner"),
    "deck": ("Deck {k}", "Stapel {k}"),
    "hand": ("Your hand", "Deine Hand"),
    "their_hand": ("cards in hand: {k}", "Karten auf der Hand: {k}"),
    "a_guard": ("a Guard", "ein Wächter"),
    "top": ("top", "oben"),
    "seen": ("seen", "gesehen"),
    "mixed_in": ("seen, then mixed in", "gesehen, dann eingemischt"),
    "suitcase": ("Your Suitcase", "Dein Koffer"),
    "code": ("Code", "Code"),
    "guards": ("Guards", "Wächter"),
    "no_guards": ("none", "keine"),
    "down": ("face down", "verdeckt"),
    "maybe": ("maybe", "vielleicht"),
    "wheel": ("Their Suitcase", "Sein Koffer"),
    "shown": ("They may know of yours", "Er kann über deinen wissen"),
    "still": ("{k} possible", "{k} möglich"),
    "encrypted": ("Encrypted pile: {k}", "Verschlüsselt: {k}"),
    "discard": ("Discard", "Ablage"),
    "empty": ("-", "-"),
    "prompt": ("> ", "> "),
    "back": ("0 back", "0 zurück"),
    "bad_choice": ("{x!r} is no choice here: type a number from the list", "{x!r} ist hier keine Wahl: tippe eine "
                   "Zahl der Liste"),
    "auto": ("done for you: {what}", "für dich erledigt: {what}"),
    "waiting": ("waiting for {who}", "warte auf {who}"),
    "press_enter": ("Enter: end", "Enter: Ende"),
    "press_enter_more": ("Enter: more", "Enter: weiter"),
    "group_more": ("{label} …", "{label} …"),
    # questions
    "q.action": ("Your action: choose a card", "Deine Aktion: wähle eine Karte"),
    "q.final_action": ("Your final turn (no draw): choose a card", "Dein letzter Zug (ohne Ziehen): wähle eine Karte"),
    "q.window": ("{card} attacks {guard}: REACT?", "{card} greift {guard} an: REAKTION?"),
    "q.answer": ("Answer truly: {q}", "Antworte wahr: {q}"),
    "q.name": ("Picking Petals: name a number that is not your Suitcase Number (nor 3)",
               "Blütenblätter zupfen: nenne eine Zahl, die nicht deine Koffernummer ist (und nicht 3)"),
    "q.pick": ("Test Access Codes: pick one of their cards", "Zugangscodes testen: wähle eine seiner Karten"),
    "q.choose": ("Choose your Suitcase, then the card to encrypt", "Wähle deinen Koffer, dann die Karte zum "
                 "Verschlüsseln"),
    "q.reveal": ("The Big Reveal: show your hidden cards", "Die große Enthüllung: zeige deine verdeckten Karten"),
    "q.mix": ("Your hand was seen: mix it", "Deine Hand wurde gesehen: mische sie"),
    "mix_hand": ("mix your hand (the opponent no longer knows which card is which)",
                 "Hand mischen (der Gegner weiß nicht mehr, welche Karte welche ist)"),
    # how a card is played
    "encrypt": ("Encrypt (face down onto the Encrypted pile)", "Verschlüsseln (verdeckt auf den Verschlüsselt-Stapel)"),
    "as_guard": ("Enlist as Guard (face down)", "Als Wächter anwerben (verdeckt)"),
    "as_assassin": ("Enlist as Assassin", "Als Assassine anwerben"),
    "deploy": ("Deploy: {ability}", "Einsetzen: {ability}"),
    "against": ("against {guard}", "gegen {guard}"),
    "top.assassin": ("the Assassin ends on top of the discard", "der Assassine liegt oben auf der Ablage"),
    "top.guard": ("the Guard ends on top of the discard", "der Wächter liegt oben auf der Ablage"),
    "number": ("number {n}", "Zahl {n}"),
    "ask_show": ("they show you their hand", "er zeigt dir seine Hand"),
    "ask_petals": ("they name a number", "er nennt eine Zahl"),
    "swap": ("swap {mine} with {theirs}", "tausche {mine} mit {theirs}"),
    "swap_discard": ("swap {mine} with the discard's top", "tausche {mine} mit der obersten Ablagekarte"),
    "swap_self": ("take {mine} back, discard {drop}", "nimm {mine} zurück, wirf {drop} ab"),
    "take_drop": ("take {take}, discard {drop}", "nimm {take}, wirf {drop} ab"),
    "tuck": ("tuck {guard}", "schütze {guard}"),
    "flip": ("turn {guard} face up", "decke {guard} auf"),
    "spot": ("turn up {guards}", "decke {guards} auf"),
    "pass": ("No, let it happen", "Nein, geschehen lassen"),
    "react": ("REACT with {card}", "REAKTION mit {card}"),
    "yes": ("yes", "ja"),
    "no": ("no", "nein"),
    "name_n": ("{n} (not my Suitcase)", "{n} (nicht mein Koffer)"),
    "their_card": ("their {card}", "seine {card}"),
    "case_enc": ("Suitcase {s}, encrypt {e}", "Koffer {s}, verschlüssle {e}"),
    "reveal_all": ("reveal {cards}", "enthülle {cards}"),
    "my_guard": ("your Guard {i} ({card})", "Wächter {i} bei dir ({card})"),
    "their_guard": ("their Guard {i} ({card})", "Wächter {i} beim Gegner ({card})"),
    "their_guard_down": ("their Guard {i} (face down)", "Wächter {i} beim Gegner (verdeckt)"),
    "extra": ("Extra Protection", "Extraschutz"),
    "tucked": ("under Extra Protection", "unter Extraschutz"),
    # questions in words
    "qq.near": ("is {n} within 2 of your Suitcase Number?", "liegt {n} höchstens 2 von deiner Koffernummer?"),
    "qq.in_code": ("is {n} in your Code?", "ist {n} in deinem Code?"),
    "qq.equal": ("is {n} your Suitcase Number?", "ist {n} deine Koffernummer?"),
    "qq.touch": ("does Assassin {a}'s Code touch {guard}?", "berühren sich die Codes? Assassine {a} – {guard}"),
    "qq.other": ("{q}", "{q}"),
    # the account
    "a.dealt": ("the cards are dealt", "die Karten sind gegeben"),
    "a.chose": ("{who} chose a Suitcase", "{who}: Koffer gewählt"),
    "a.start": ("{who} begin", "{who}: beginnt"),
    "a.turn": ("— {who}: turn {n}{final}, deck {left}", "— {who}: Zug {n}{final}, Stapel {left}"),
    "a.forgo": ("{who} forgo the action (REACT), PEEK 1", "{who}: setzt aus (REAKTION), SPÄHEN 1"),
    "a.encrypt": ("{who} encrypt {card}", "{who}: verschlüsselt {card}"),
    "a.guard": ("{who} enlist a Guard face down{card}", "{who}: wirbt verdeckt einen Wächter an{card}"),
    "a.assassin": ("{who} play {card} as Assassin against {guard}", "{who}: spielt {card} als Assassine gegen {guard}"),
    "a.react": ("{who} REACT: {guard} tucked, the attack blocked", "{who}: REAKTION: {guard} geschützt, Angriff "
                "abgewehrt"),
    "a.assassinated": ("{guard} is assassinated", "{guard} ist ausgeschaltet"),
    "a.attempt_failed": ("the attempt on {guard} failed", "der Anschlag auf {guard} scheiterte"),
    "a.shown": ("{who} show {to} a random card{card}", "{who}: zeigt {to} eine Zufallskarte{card}"),
    "a.peek": ("{who} PEEK {n}{cards}", "{who}: SPÄHT {n}{cards}"),
    "a.deploy": ("{who} deploy {card}{more}", "{who}: setzt {card} ein{more}"),
    "a.answer": ("{who} answer {yes}: {q}", "{who}: antwortet {yes}: {q}"),
    "a.named": ("{who} name {n}: not the Suitcase", "{who}: nennt {n}: nicht der Koffer"),
    "a.pick": ("{who} pick {card}", "{who}: wählt {card}"),
    "a.mix": ("{who} mix the hand (a card of it was seen)", "{who}: mischt die Hand (eine Karte war bekannt)"),
    "a.big_reveal": ("— the deck is out: the Big Reveal", "— der Stapel ist leer: die große Enthüllung"),
    "a.reveal": ("{who} reveal {cards}", "{who}: enthüllt {cards}"),
    "a.end": ("— the end: {result}", "— Ende: {result}"),
    "you_s": ("You", "Du"),
    "opp_s": ("The opponent", "Der Gegner"),
    "to_you": ("you", "dir"),
    "to_them": ("them", "dem Gegner"),
    "them_s": ("They", "Gegner"),
    # the end
    "end.head": ("The Big Reveal", "Die große Enthüllung"),
    "end.case": ("{who}: Suitcase {s} (Code {code}), Guards {guards}, Final Card {final}",
                 "{who}: Koffer {s} (Code {code}), Wächter {guards}, letzte Karte {final}"),
    "end.match": ("{who}: Final Card {f} is in {whose} Code {code} and no Guard holds it: an Unguarded Match",
                  "{who}: letzte Karte {f} ist in {whose} Code {code} und kein Wächter hält sie: ein ungeschützter "
                  "Treffer"),
    "end.nomatch": ("{who}: Final Card {f}: no Unguarded Match ({why})", "{who}: letzte Karte {f}: kein "
                    "ungeschützter Treffer ({why})"),
    "whose.you": ("your", "deinem"),
    "whose.them": ("their", "seinem"),
    "end.both": ("Both have an Unguarded Match: the Guards decide", "Beide haben einen ungeschützten Treffer: die "
                 "Wächter entscheiden"),
    "end.none": ("No Unguarded Match: the Guards decide", "Kein ungeschützter Treffer: die Wächter entscheiden"),
    "why.not_in_code": ("not in {code}", "nicht in {code}"),
    "why.guarded": ("{f} is guarded", "{f} ist bewacht"),
    "why.none": ("no Final Card", "keine letzte Karte"),
    "end.counts": ("Guards: you {a}, the opponent {b}", "Wächter: du {a}, der Gegner {b}"),
    "res.win": ("You win", "Du gewinnst"),
    "res.lose": ("The opponent wins", "Der Gegner gewinnt"),
    "res.tie": ("A tie", "Unentschieden"),
    "reason.unguarded_match": ("by an Unguarded Match", "durch einen ungeschützten Treffer"),
    "reason.guards": ("by more Guards", "durch mehr Wächter"),
    "reason.tie": ("no match decides and the Guards are equal", "kein Treffer entscheidet, gleich viele Wächter"),
    "start_offline": ("Classified Information ({profile}) against the {bot} bot, seed {seed}. You are seat {seat}. "
                      "Type a number to choose, 0 to go back, ? for help, q to leave.",
                      "Geheimsache ({profile}) gegen den Bot {bot}, Startwert {seed}. Du bist Platz {seat}. "
                      "Tippe eine Zahl zum Wählen, 0 für zurück, ? für Hilfe, q zum Verlassen."),
    "replay.head": ("Replay of Classified Information {game} ({profile}): {names}",
                    "Wiederholung von Geheimsache {game} ({profile}): {names}"),
    "replay.prompt": ("[step {at} of {last}] Enter: next, b: back, a number: that step, a: all, q: quit > ",
                      "[Schritt {at} von {last}] Enter: weiter, b: zurück, eine Zahl: dieser Schritt, a: alle, "
                      "q: Ende > "),
    "abandoned": ("You left the game.", "Du hast das Spiel verlassen."),
}


# The account's lines in the other persons: (English, third person singular: a watcher's "P1 begins"; German,
# second person: "Du beginnst"). The base lines above are "You/They begin" and "Gegner: beginnt".
PERSONAL: dict[str, tuple[str, str]] = {
    "a.chose": ("{who} chose a Suitcase", "Du hast einen Koffer gewählt"),
    "a.start": ("{who} begins", "Du beginnst"),
    "a.forgo": ("{who} forgoes the action (REACT), PEEK 1", "Du setzt aus (REAKTION), SPÄHEN 1"),
    "a.encrypt": ("{who} encrypts {card}", "Du verschlüsselst {card}"),
    "a.guard": ("{who} enlists a Guard face down{card}", "Du wirbst verdeckt einen Wächter an{card}"),
    "a.assassin": ("{who} plays {card} as Assassin against {guard}", "Du spielst {card} als Assassine gegen {guard}"),
    "a.react": ("{who} REACTS: {guard} tucked, the attack blocked", "Du REAGIERST: {guard} geschützt, Angriff "
                "abgewehrt"),
    "a.shown": ("{who} shows {to} a random card{card}", "Du zeigst {to} eine Zufallskarte{card}"),
    "a.peek": ("{who} PEEKS {n}{cards}", "Du SPÄHST {n}{cards}"),
    "a.deploy": ("{who} deploys {card}{more}", "Du setzt {card} ein{more}"),
    "a.answer": ("{who} answers {yes}: {q}", "Du antwortest {yes}: {q}"),
    "a.named": ("{who} names {n}: not the Suitcase", "Du nennst {n}: nicht der Koffer"),
    "a.pick": ("{who} picks {card}", "Du wählst {card}"),
    "a.mix": ("{who} mixes the hand (a card of it was seen)", "Du mischst die Hand (eine Karte war bekannt)"),
    "a.reveal": ("{who} reveals {cards}", "Du enthüllst {cards}"),
}


def act(key: str, lang: str, p: int | None, me: int | None, who: str, **fields: Any) -> str:
    """An account line about seat `p`'s act, as `me` reads it: "You/They begin" and a watcher's "P1 begins";
    "Gegner: beginnt", a watcher's "P1: beginnt" and "Du beginnst"."""
    en_3sg, de_2nd = PERSONAL[key]
    if lang == "de" and me is not None and p == me:
        return de_2nd.format(who=who, **fields)
    if lang != "de" and me is None:
        return en_3sg.format(who=who, **fields)
    return say(key, lang, who=who, **fields)


def say(key: str, lang: str = "en", **fields: Any) -> str:
    en, de = WORDS[key]
    return (de if lang == "de" else en).format(**fields)


def card_name(number: int | None, lang: str = "en", short: bool = False) -> str:
    """"5 Scavenge" (short: "5"); "?" for a card whose face is not known."""
    if number is None:
        return "?"
    return str(number) if short else f"{number} {card(number).name(lang)}"


GUILD = {"guard": ("Guard", "Wächter"), "assassin": ("Assassin", "Assassine"), "sentinel": ("Sentinel", "Sentinel")}
ABILITY = {"near": ("name a number: near their Suitcase?", "nenne eine Zahl: nahe an seinem Koffer?"),
           "code": ("name a number: in their Code?", "nenne eine Zahl: in seinem Code?"),
           "equal": ("see their hand, test one card", "sieh seine Hand, teste eine Karte"),
           "petals": ("they name a number that is not theirs", "er nennt eine Zahl, die nicht seine ist"),
           "switch": ("swap Guards", "Wächter tauschen"),
           "scavenge": ("take from the discard", "aus der Ablage nehmen"),
           "tuck": ("tuck a Guard under it", "einen Wächter schützen"),
           "wheel": ("turn up one of your Guards: in their Code?", "einen eigenen Wächter aufdecken: in seinem "
                     "Code?"),
           "spotlights": ("turn up their Guards: in their Code?", "seine Wächter aufdecken: in seinem Code?")}


def guild(g: str, lang: str) -> str:
    return GUILD[g][lang == "de"]


def ability(a: str, lang: str) -> str:
    return ABILITY[a][lang == "de"]
