"""`ad-p2p cards` and `ad-p2p rules`: the card reference and the profiles, from the engine's data."""

from __future__ import annotations

import argparse
import json

from adp2p.engine.catalog import CODES, LEVEL_NAMES, cards, sectors
from adp2p.engine.profiles import PROFILES
from rich.console import Console
from rich.table import Table


def card_dicts(lang: str) -> list[dict[str, object]]:
    out = []
    for c in cards():
        req = None
        if c.requires:
            req = {"sector": sectors()[c.requires.sector].key, "level": LEVEL_NAMES[c.requires.level]}
        out.append(
            {
                "id": c.id,
                "key": c.key,
                "title": c.display_title(lang),
                "code": CODES[c.code],
                "kinds": sorted(c.kinds),
                "requires": req,
                "password_code": CODES[c.password_code] if c.password_code is not None else None,
                "text": c.text_de if lang == "de" else c.text,
            }
        )
    return out


def run_cards(args: argparse.Namespace) -> int:
    data = card_dicts(args.lang)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    de = args.lang == "de"
    con = Console(highlight=False)
    con.print(f"[bold]{'Zugang Verweigert — 63 Karten' if de else 'Access Denied — 63 cards'}[/bold]\n")
    for d in data:
        req = ""
        if d["requires"]:
            r = d["requires"]
            req = f"{r['level']}{'' if r['level'] == 'Root' else '+'} {r['sector']}"  # type: ignore[index]
        if d["password_code"]:
            req += f", password has {d['password_code']}"
        kinds = ", ".join(d["kinds"])  # type: ignore[arg-type]
        head = f"[bold]{d['code']}[/bold]  [bold cyan]{d['title']}[/bold cyan]"
        head += f"  [dim]({kinds})[/dim]" if kinds else ""
        head += f"  [yellow]{'benötigt' if de else 'requires'}: {req}[/yellow]" if req else ""
        con.print(head)
        for para in str(d["text"]).split("\n\n"):
            con.print("    " + para.replace("\n", " "), soft_wrap=False)
    return 0


def run_rules(args: argparse.Namespace) -> int:
    rows = []
    for p in PROFILES.values():
        rows.append(
            {
                "name": p.name,
                "players": f"{p.min_players}-{p.max_players}",
                "goal": p.goal,
                "actions": p.actions,
                "hand_limit": p.hand_limit,
                "draws": p.draws,
                "bonus": p.bonus_holder,
                "bonuses": p.bonuses,
                "card_texts": p.card_texts,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    table = Table(title="Rule profiles (see docs/rules.md)")
    for k in rows[0]:
        table.add_column(k)
    for r in rows:
        table.add_row(*(str(v) for v in r.values()))
    Console().print(table)
    return 0
