"""What a peer tells its player, in the player's language: one template per notice, in English and German.

The peer says each line through `TablePeer.tell(key, **args)`; the words are here, never in the peer's code, so
a German table reads German from the lobby to the audit (`tests/p2p/test_notices.py`). Details that come from
elsewhere (an exception's text, a rule's message) are inserted as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

NOTICES: dict[str, dict[str, str]] = {
    # the lobby and the setup
    "waiting": {
        "en": "Waiting at table {table!r} for {want} players (you are {name}, key {key}, at {where})... "
        "Ctrl-C leaves.",
        "de": "Warte an Tisch {table!r} auf {want} Spieler (du bist {name}, Schlüssel {key}, "
        "erreichbar unter {where})... Strg-C verlässt den Tisch.",
    },
    "sat_down": {
        "en": "{name} ({key}) sat down at table {table!r} ({have} of {want} players)",
        "de": "{name} ({key}) sitzt am Tisch {table!r} ({have} von {want} Spielern)",
    },
    "word_refused": {
        "en": "{who} at {address} does not know this table's word (or has another, or none): not let in",
        "de": "{who} unter {address} kennt das Wort dieses Tisches nicht (oder ein anderes, oder keins): "
        "nicht hereingelassen",
    },
    "old_protocol": {
        "en": "{who} runs another version of ad-p2p (protocol {theirs}, ours {ours}): it cannot play at this table",
        "de": "{who} nutzt eine andere Version von ad-p2p (Protokoll {theirs}, unseres {ours}): "
        "kann an diesem Tisch nicht spielen",
    },
    "left_lobby": {
        "en": "{who} left the table before the game began",
        "de": "{who} hat den Tisch vor Spielbeginn verlassen",
    },
    "genesis_differs": {
        "en": "it says {what} {theirs}, you asked for {ours}",
        "de": "dort steht {what} {theirs}, du wolltest {ours}",
    },
    "genesis_strangers": {
        "en": "it seats players who never came to this table",
        "de": "er setzt Spieler ein, die nie an diesen Tisch kamen",
    },
    "setting_table": {"en": "table", "de": "Tisch"},
    "setting_game": {"en": "game", "de": "Spiel"},
    "setting_rules": {"en": "rules", "de": "Regeln"},
    "setting_players": {"en": "players", "de": "Spieler"},
    "setting_goal": {"en": "goal", "de": "Ziel"},
    "setting_round_limit": {"en": "round limit", "de": "Rundenlimit"},
    "setting_stalemate": {"en": "stalemate rounds", "de": "Patt-Runden"},
    "setting_default": {"en": "(the rules' own)", "de": "(das der Regeln)"},
    "see_log": {"en": "details in the log", "de": "Einzelheiten im Protokoll"},
    # the roster agreement before the genesis (p2p/roster.py)
    "roster_head": {
        "en": "At table {table!r} these {n} players would start the game, in seat order:",
        "de": "An Tisch {table!r} würden diese {n} Spieler das Spiel beginnen, in Sitzordnung:",
    },
    "roster_line": {"en": "  {seat}. {name}  key {key}{you}", "de": "  {seat}. {name}  Schlüssel {key}{you}"},
    "roster_you": {"en": "  (you)", "de": "  (du)"},
    "roster_word": {
        "en": "The table has a word: only players who know it can sit down.",
        "de": "Der Tisch hat ein Wort: nur wer es kennt, kann sich setzen.",
    },
    "roster_no_word": {
        "en": "The table has no word: anyone on this network can sit down. Do you know them all?",
        "de": "Der Tisch hat kein Wort: jeder in diesem Netz kann sich setzen. Kennst du alle?",
    },
    "roster_declined": {
        "en": "you declined a game with these players at table {table!r}: left the table (nothing was written)",
        "de": "Spiel mit diesen Spielern an Tisch {table!r} abgelehnt: Tisch verlassen (nichts geschrieben)",
    },
    "other_settings": {
        "en": "{who} asked for {what} {theirs}, you asked for {ours}: it cannot play at this table with you",
        "de": "{who} will {what} {theirs}, du wolltest {ours}: kann an diesem Tisch nicht mit dir spielen",
    },
    "lobby_short": {
        "en": "only {have} of {want} players at table {table!r} could start a game with you within {secs} s (the "
        "others asked for another game, or held the table up)",
        "de": "nur {have} von {want} Spielern an Tisch {table!r} konnten innerhalb von {secs} s mit dir ein Spiel "
        "beginnen (die anderen wollten ein anderes Spiel oder haben den Tisch aufgehalten)",
    },
    "went_on_without_you": {
        "en": "table {table!r} began a game without you (its players are playing; you were not on the roster they "
        "agreed to): nothing was written — join another table, or this one when that game is over",
        "de": "Tisch {table!r} hat ohne dich ein Spiel begonnen (seine Spieler spielen; du warst nicht in der "
        "Besetzung, der sie zugestimmt haben): nichts geschrieben — setz dich an einen anderen Tisch oder an diesen, "
        "wenn das Spiel vorbei ist",
    },
    "agree_waiting": {
        "en": "You agreed to these players; waiting for {who} to agree",
        "de": "Du bist mit diesen Spielern einverstanden; warte auf die Zustimmung von {who}",
    },
    "passed_over": {
        "en": "{who} held the table up for {secs} s (no agreement, or no genesis): the table goes on without "
        "that player",
        "de": "{who} hat den Tisch {secs} s aufgehalten (keine Zustimmung oder kein Spielbeginn): der Tisch "
        "macht ohne diesen Spieler weiter",
    },
    "genesis_unagreed": {
        "en": "its players did not all agree to it ({why})",
        "de": "nicht alle seine Spieler haben zugestimmt ({why})",
    },
    "game_void": {
        "en": "the game did not begin: {who} had agreed to another roster before its genesis reached it (nobody "
        "is named; join again to play)",
        "de": "das Spiel hat nicht begonnen: {who} hatte einer anderen Besetzung zugestimmt, bevor der Spielbeginn "
        "ankam (niemand wird beschuldigt; tritt erneut bei, um zu spielen)",
    },
    "refused_genesis": {
        "en": "Refused the genesis from {who}: {why}",
        "de": "Spielbeginn von {who} abgelehnt: {why}",
    },
    "begins": {
        "en": "Game {game} begins: {rules}, players {players}. Log: {log}",
        "de": "Spiel {game} beginnt: {rules}, Spieler {players}. Protokoll: {log}",
    },
    "you_mark": {"en": " (you)", "de": " (du)"},
    "setup_keys": {
        "en": "Setup: every player publishes a deck key (with proof) and a beacon commitment...",
        "de": "Vorbereitung: jeder Spieler veröffentlicht einen Stapelschlüssel (mit Beweis) "
        "und eine Zufallsfestlegung...",
    },
    "shuffling_you": {
        "en": "Shuffling: you re-mask and permute the deck ({k} of {n})...",
        "de": "Mischen: du maskierst den Stapel neu und mischst ihn ({k} von {n})...",
    },
    "shuffling": {
        "en": "Shuffling: {who} re-masks and permutes the deck ({k} of {n})...",
        "de": "Mischen: {who} maskiert den Stapel neu und mischt ihn ({k} von {n})...",
    },
    "dealing": {
        "en": "Dealing: every player sends its decryption shares so each card opens only for its holder...",
        "de": "Austeilen: jeder Spieler schickt seine Entschlüsselungsanteile, "
        "so öffnet sich jede Karte nur ihrem Besitzer...",
    },
    # what the player was shown privately
    "learned_hand": {"en": "  > New in your hand: {cards}", "de": "  > Neu auf deiner Hand: {cards}"},
    "learned_attempt": {
        "en": "  > Handed to you in an access attempt: {cards}",
        "de": "  > Dir bei einem Zugangsversuch gezeigt: {cards}",
    },
    "learned_password": {
        "en": "  > Password codes shown to you: {cards}",
        "de": "  > Dir gezeigte Passwort-Codes: {cards}",
    },
    "learned": {"en": "  > Shown to you: {cards}", "de": "  > Dir gezeigt: {cards}"},
    # resuming
    "resumed": {
        "en": "Resumed game {game} at entry {seq} as {name}",
        "de": "Spiel {game} bei Eintrag {seq} als {name} fortgesetzt",
    },
    "recap": {
        "en": "  ... ({n} earlier lines of this game are in the log)",
        "de": "  ... ({n} frühere Zeilen dieses Spiels stehen im Protokoll)",
    },
    "log_damaged": {
        "en": "Your log was damaged at entry {seq}: kept as {aside}; the log goes back to entry {back} "
        "and the rest is fetched from the other players",
        "de": "Dein Protokoll war bei Eintrag {seq} beschädigt: aufbewahrt als {aside}; das Protokoll geht zurück auf "
        "Eintrag {back}, der Rest kommt von den anderen Spielern",
    },
    # people and connections
    "who": {"en": "{name} (seat {seat}, key {key})", "de": "{name} (Platz {seat}, Schlüssel {key})"},
    "someone": {"en": "someone", "de": "jemand"},
    "disconnected": {
        "en": "{who} disconnected ({reason}). The game goes on if they come back (or resume); if it is their move "
        "for {secs} s, the game ends as abandoned, naming them.",
        "de": "{who} hat die Verbindung verloren ({reason}). Das Spiel geht weiter, wenn die Verbindung zurückkommt "
        "(oder fortgesetzt wird); ist dieser Spieler {secs} s am Zug, endet das Spiel als abgebrochen und nennt ihn.",
    },
    "disconnected_two": {
        "en": "{who} disconnected ({reason}). The game goes on if they come back (or resume); if it is their move "
        "for {secs} s, the game ends unfinished: nobody wins and nobody is named.",
        "de": "{who} hat die Verbindung verloren ({reason}). Das Spiel geht weiter, wenn die Verbindung zurückkommt "
        "(oder fortgesetzt wird); ist dieser Spieler {secs} s am Zug, endet das Spiel unvollendet: niemand gewinnt, "
        "niemand wird beschuldigt.",
    },
    "waiting_for": {
        "en": "Waiting for {who}, who has not answered for {secs} s...{why} Ctrl-C leaves (the game can be resumed).",
        "de": "Warte auf {who}, seit {secs} s ohne Antwort...{why} Strg-C verlässt den Tisch (das Spiel kann "
        "fortgesetzt werden).",
    },
    "too_few_connected": {
        "en": " (too few players are connected to end the game: the network may be cut)",
        "de": " (zu wenige Spieler sind verbunden, um das Spiel zu beenden: das Netz ist vielleicht getrennt)",
    },
    "gave_up_early": {
        "en": "{who} gave up on {silent}; we have not waited that long yet ({secs} s): the game goes on if they answer",
        "de": "{who} hat {silent} aufgegeben; wir warten noch nicht so lange ({secs} s): das Spiel geht weiter, "
        "wenn eine Antwort kommt",
    },
    "refused_abandon": {
        "en": "Refused an abandon by {who}: the seat it names answered in time",
        "de": "Abbruch durch {who} abgelehnt: der genannte Platz hat rechtzeitig geantwortet",
    },
    "refused_early_abandon": {
        "en": "Refused an abandon by {who} naming {silent}: by our clock that seat has not been due that long",
        "de": "Abbruch durch {who} gegen {silent} abgelehnt: nach unserer Uhr war dieser Platz noch nicht so lange "
        "an der Reihe",
    },
    "answered_after_all": {
        "en": "{who} answered after all: the abandonment is set aside (kept in {path}) and the game goes on",
        "de": "{who} hat doch geantwortet: der Abbruch wird beiseitegelegt (aufbewahrt in {path}), "
        "das Spiel geht weiter",
    },
    # what the table refused
    "ignored_malformed": {
        "en": "Ignored a malformed message from {who}: {why}",
        "de": "Fehlerhafte Nachricht von {who} ignoriert: {why}",
    },
    "ignored_unhandled": {
        "en": "Ignored a message from {who} that could not be handled: {why}",
        "de": "Nachricht von {who} ignoriert, die nicht verarbeitet werden konnte: {why}",
    },
    "ignored_addresses": {
        "en": "Ignored {n} unusable address(es) from {who}: {why}",
        "de": "{n} unbrauchbare Adresse(n) von {who} ignoriert: {why}",
    },
    "ignored_not_seated": {
        "en": "Ignored an entry from {who}, who is not seated at this game",
        "de": "Eintrag von {who} ignoriert: nicht Teil dieses Spiels",
    },
    "rejected_entry": {"en": "Rejected an entry{where}: {why}", "de": "Eintrag abgelehnt{where}: {why}"},
    "from_who": {"en": " from {who}", "de": " von {who}"},
    # cheating
    "equivocation": {
        "en": "{who} signed two different entries for one position (equivocation, seq {seq}); the proof is kept in "
        "{path} and posted to every peer",
        "de": "{who} hat zwei verschiedene Einträge für eine Stelle signiert (Doppelspiel, Eintrag {seq}); der Beweis "
        "liegt in {path} und geht an alle Mitspieler",
    },
    "pass_then_act": {
        "en": "{who} passed and then acted at one point; posting the proof for every peer",
        "de": "{who} hat an einer Stelle gepasst und dann doch gehandelt; der Beweis geht an alle Mitspieler",
    },
    "at_entry": {"en": " (entry {seq})", "de": " (Eintrag {seq})"},
    "stopped_by": {"en": "stopped by evidence: {what}", "de": "durch Beweis beendet: {what}"},
    "broke_rules_end": {"en": "{who} broke the rules: {why}", "de": "{who} hat gegen die Regeln verstoßen: {why}"},
    "broke_rules": {
        "en": "{who} broke the rules: {why}; posting the proof for every peer to check",
        "de": "{who} hat gegen die Regeln verstoßen: {why}; der Beweis geht zur Prüfung an alle Mitspieler",
    },
    "cannot_prove": {
        "en": "Could not prove what we saw at entry {seq} ({why}); nothing posted",
        "de": "Was wir bei Eintrag {seq} sahen, ließ sich nicht beweisen ({why}); nichts veröffentlicht",
    },
    "rejected_evidence": {
        "en": "Rejected evidence by {who} at entry {seq}: {why}",
        "de": "Beweis von {who} bei Eintrag {seq} abgelehnt: {why}",
    },
    "evidence_refused": {
        "en": "Evidence by {who} at entry {seq} sets nothing aside: {why}",
        "de": "Der Beweis von {who} bei Eintrag {seq} legt nichts beiseite: {why}",
    },
    "set_aside": {
        "en": "  ({n} later entr(y/ies) set aside for the evidence; kept in {path})",
        "de": "  ({n} spätere Einträge für den Beweis beiseitegelegt; aufbewahrt in {path})",
    },
    "cheating": {"en": "Cheating detected: {who}: {why}{proof}", "de": "Betrug erkannt: {who}: {why}{proof}"},
    "proof_by": {"en": " (proof posted by {who})", "de": " (Beweis veröffentlicht von {who})"},
    "nobody_named": {
        "en": "no single player named yet (the audit will)",
        "de": "noch kein einzelner Spieler benannt (die Prüfung wird es tun)",
    },
    "stops": {
        "en": "The game stops here; every player now reveals its secrets for the audit.",
        "de": "Das Spiel endet hier; jeder Spieler legt jetzt seine Geheimnisse für die Prüfung offen.",
    },
    # the end
    "lost_contact": {
        "en": "lost contact with most of the table at entry {seq}; nothing was written (resume with: {resume})",
        "de": "Kontakt zu den meisten Spielern bei Eintrag {seq} verloren; nichts wurde geschrieben "
        "(fortsetzen mit: {resume})",
    },
    "abandoned": {
        "en": "abandoned: {who} stopped answering when it was their turn to author entry {seq}",
        "de": "abgebrochen: {who} hat nicht mehr geantwortet, als Eintrag {seq} an der Reihe war",
    },
    "left_after_end": {
        "en": "ended at entry {seq}: {who} had left after the game was abandoned at entry {at}, before the seat it "
        "named answered after all; nobody is named",
        "de": "beendet bei Eintrag {seq}: {who} war gegangen, nachdem das Spiel bei Eintrag {at} abgebrochen war, "
        "bevor der dort genannte Platz doch antwortete; niemand wird genannt",
    },
    "unfinished": {  # a table of two (docs/protocol.md, "Silence at a table of two"): a claim, never a verdict
        "en": "unfinished: {who} did not answer when it was their turn to author entry {seq} (by {clock}'s clock); "
        "at a table of two a silence wins nothing and names nobody",
        "de": "unvollendet: {who} hat nicht geantwortet, als Eintrag {seq} an der Reihe war (nach der Uhr von "
        "{clock}); zu zweit gewinnt ein Schweigen nichts und beschuldigt niemanden",
    },
    "then": {"en": "{result}; then {ended}", "de": "{result}; danach {ended}"},
    "game_over_log": {"en": "Game over — {line}. Log kept at {log}", "de": "Spiel vorbei — {line}. Protokoll: {log}"},
    "game_over": {"en": "Game over — {line}", "de": "Spiel vorbei — {line}"},
    "result": {"en": "winner(s): {who} — {why}", "de": "Gewinner: {who} — {why}"},
    # a table of two has one winner or none (a tie, or a winner named for cheating): never "winner(s)"
    "result_one": {"en": "winner: {who} — {why}", "de": "Gewinner: {who} — {why}"},
    "result_none": {"en": "no winner — {why}", "de": "kein Gewinner — {why}"},
    "audit_ok": {"en": "Audit: {apart}{checked} checks out ({n} entries).", "de": "Prüfung: {apart}{checked} stimmt "
                 "({n} Einträge)."},
    "checked_any": {"en": "every shuffle, card and move", "de": "jedes Mischen, jede Karte und jeder Zug"},
    "apart": {"en": "apart from the cheating above, ", "de": "abgesehen vom Betrug oben: "},
    "audit_bad": {"en": "Audit found violations:", "de": "Die Prüfung fand Verstöße:"},
    "log": {"en": "Log: {log}", "de": "Protokoll: {log}"},
    "standings": {"en": "Standings: {players}", "de": "Stand: {players}"},
    "standing": {"en": "{who} {r} Root, {o} Oper, {u} User", "de": "{who} {r} Root, {o} Oper, {u} User"},
    "password_was": {"en": "  Password of {sector} ({who}): {cards}", "de": "  Passwort von {sector} ({who}): {cards}"},
}

LANGS = ("en", "de")

# why a connection went (the transport's reasons, p2p/transport/streams.py), as a player reads it; matched by the
# reason's start, the transport's detail after it dropped in other languages (it is technical and English)
REASONS: dict[str, dict[str, str]] = {
    "the peer closed the connection": {"de": "die Gegenseite hat die Verbindung geschlossen"},
    "connection lost": {"de": "Verbindung abgerissen"},
    "the peer has not read for": {"de": "die Gegenseite liest nichts mehr"},
    "silent for more than": {"de": "zu lange still"},
    "send failed": {"de": "Senden fehlgeschlagen"},
    "send queue full": {"de": "die Gegenseite kommt nicht hinterher"},
    "replaced by a new session": {"de": "durch eine neue Sitzung ersetzt (neu gestartet)"},
    "mesh closing": {"de": "der Tisch schließt"},
}


def notice(what: str, lang: str = "en", /, **args: Any) -> str:
    """The words of one notice in `lang` (English where the language is unknown)."""
    row = NOTICES[what]
    return (row.get(lang) or row["en"]).format(**args)  # (as engine/words.py `say`: the core imports no engine)


def result_words(winners: Sequence[str], seats: int, why: str, lang: str = "en") -> str:
    """The result line's head: "winner(s): a, b — why" at a table of three or more; at a table of two, which has one
    winner or none, "winner: a — why" or "no winner — why" (EN and DE)."""
    if seats == 2 and len(winners) <= 1:
        return notice("result_one", lang, who=winners[0], why=why) if winners else notice("result_none", lang, why=why)
    return notice("result", lang, who=", ".join(winners) or ("none" if lang == "en" else "keiner"), why=why)


def reason_words(reason: str, lang: str = "en") -> str:
    """Why a connection went, in `lang`: the transport's own words in English (or an unknown reason), else the
    words of the first reason it starts with (REASONS)."""
    if lang == "en":
        return reason
    for start, words in REASONS.items():
        if reason.startswith(start) and lang in words:
            return words[lang]
    return reason
