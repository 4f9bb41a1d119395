"""`ad-p2p audit GAME_LOG [--json] [--lang de]`: offline, from the log file alone (`ad-p2p replay` is
cli/tui/replay.py).

Players are numbered from 1 everywhere the audit names a seat (the text's "seat 2", and `--json`'s `seat`,
`winners` and `abandoned_by`; the JSON says so in `seats_numbered_from`). Entries are numbered from 0 (the genesis),
as the log holds them. The evidence of a violation is the machine's own words (English): what a second auditor
checks against.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from adp2p.cli.log_file import game_log
from adp2p.engine.words import say
from adp2p.p2p.machine.finality import silence_suspends

WORDS: dict[str, dict[str, str]] = {
    "head": {"en": "Audit of {path}: game {game} ({profile}), {n} entries",
             "de": "Prüfung von {path}: Spiel {game} ({profile}), {n} Einträge"},
    "tampered": {"en": "THE LOG WAS TAMPERED WITH at entry {seq}: {why}",
                 "de": "DAS PROTOKOLL WURDE VERÄNDERT bei Eintrag {seq}: {why}"},
    "tampered_note": {"en": "  (entries before it verify; nothing after it can be trusted)",
                      "de": "  (die Einträge davor sind geprüft; allem danach ist nicht zu trauen)"},
    "honest": {"en": "  seat {seat} {name}: honest", "de": "  Platz {seat} {name}: ehrlich"},
    "violation": {"en": "  seat {seat} {name}: VIOLATION {rule} ({where}): {why}",
                  "de": "  Platz {seat} {name}: VERSTOSS {rule} ({where}): {why}"},
    "entry": {"en": "entry {seq}", "de": "Eintrag {seq}"},
    "no_entry": {"en": "no single entry", "de": "kein einzelner Eintrag"},
    "nobody": {"en": "  (no single seat) {rule} at entry {seq}: {why}",
               "de": "  (kein einzelner Platz) {rule} bei Eintrag {seq}: {why}"},
    "abandoned": {"en": "  the game was abandoned: seat {seat} stopped answering",
                  "de": "  das Spiel wurde abgebrochen: Platz {seat} hat nicht mehr geantwortet"},
    "unfinished": {"en": "  the game is unfinished: seat {seat} did not answer (at a table of two a silence wins "
                         "nothing and names nobody: this is no verdict)",
                   "de": "  das Spiel ist unvollendet: Platz {seat} hat nicht geantwortet (zu zweit gewinnt ein "
                         "Schweigen nichts und beschuldigt niemanden: dies ist kein Urteil)"},
    "winners": {"en": "  winner(s): {who}", "de": "  Gewinner: {who}"},
    "winner": {"en": "  winner: {who}", "de": "  Gewinner: {who}"},  # a table of two: one winner (or none)
    "checked": {"en": "  checked: {what}", "de": "  geprüft: {what}"},
    "no_answer": {"en": "  seat {seat} {name}: did not answer (no verdict)",
                  "de": "  Platz {seat} {name}: hat nicht geantwortet (kein Urteil)"},
    "unfinished_ok": {"en": "Result: an unfinished game, no violations ({secs:.2f} s)",
                      "de": "Ergebnis: ein unvollendetes Spiel, keine Verstöße ({secs:.2f} s)"},
    "ok": {"en": "Result: no violations ({secs:.2f} s)", "de": "Ergebnis: keine Verstöße ({secs:.2f} s)"},
    "bad": {"en": "Result: VIOLATIONS FOUND ({secs:.2f} s)", "de": "Ergebnis: VERSTÖSSE GEFUNDEN ({secs:.2f} s)"},
}


def add_audit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="a game log file (games/<id>/log under the data directory)")
    p.add_argument("--json", action="store_true", help="the report as JSON (seats numbered from 1, as in the text)")
    p.add_argument("--lang", choices=["en", "de"], default="en", help="language of the report")


def suspended(res: Any) -> bool:
    """A table of two whose game a silence suspended (docs/protocol.md, "Silence at a table of two"): the abandon is
    the other seat's claim by its own clock, never a verdict."""
    return res.abandoned_by is not None and silence_suspends(len(res.names), res.complete)


def unfinished_clean(res: Any) -> bool:
    """Suspended at two seats, and nothing else found: no violation (exit status 0, as for a clean game)."""
    return suspended(res) and res.tampered is None and all(f.rule == "abandoned" for f in res.findings)


def report(res: Any, lang: str) -> str:
    """The audit's report in words, seats numbered from 1."""

    def w(key: str, **fields: Any) -> str:
        return say(WORDS, key, lang, **fields)

    out = [w("head", path=res.path, game=res.game_id[:16], profile=res.profile, n=res.entries)]
    if res.tampered is not None:
        out += [w("tampered", seq=res.tampered.seq, why=res.tampered.evidence), w("tampered_note")]
    two = suspended(res)
    for s, n in enumerate(res.names):
        found = res.seat_status(s)
        if two and s == res.abandoned_by:  # at a table of two a silence is a claim of the other's clock, no verdict
            found = [f for f in found if f.rule != "abandoned"]
            if not found:
                out.append(w("no_answer", seat=s + 1, name=n))
                continue
        if not found:
            out.append(w("honest", seat=s + 1, name=n))
        for f in found:
            where = w("entry", seq=f.seq) if f.seq is not None else w("no_entry")
            out.append(w("violation", seat=s + 1, name=n, rule=f.rule, where=where, why=f.evidence))
    out += [w("nobody", rule=f.rule, seq=f.seq, why=f.evidence) for f in res.findings if f.seat is None]
    if res.abandoned_by is not None:
        out.append(w("unfinished" if two else "abandoned", seat=res.abandoned_by + 1))
    if res.complete and res.winners:
        out.append(w("winner" if len(res.names) == 2 else "winners", who=", ".join(res.names[i] for i in res.winners)))
    if res.checks:
        out.append(w("checked", what="; ".join(res.checks)))
    out.append(w("unfinished_ok" if unfinished_clean(res) else "ok" if res.ok else "bad", secs=res.seconds))
    return "\n".join(out)


def as_json(res: Any) -> dict[str, Any]:
    """The report as data, every seat numbered from 1 (a finding of no single seat: null)."""
    data: dict[str, Any] = res.to_json()

    def one_based(seat: int | None) -> int | None:
        return None if seat is None else seat + 1

    for p in data["players"]:
        p["seat"] = one_based(p["seat"])
        for v in p["violations"]:
            v["seat"] = one_based(v["seat"])
    for v in data["unattributed"]:
        v["seat"] = None
    if data["tampered"] is not None:
        data["tampered"]["seat"] = one_based(data["tampered"]["seat"])
    data["winners"] = [one_based(w) for w in data["winners"]]
    data["abandoned_by"] = one_based(data["abandoned_by"])
    return {"seats_numbered_from": 1, **data}


def run_audit(args: argparse.Namespace) -> int:
    from adp2p.p2p.audit import audit_log

    res = audit_log(game_log(args.log))
    print(json.dumps(as_json(res), indent=2) if args.json else report(res, args.lang))
    return 0 if res.ok or unfinished_clean(res) else 1
