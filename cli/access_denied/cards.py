"""`ad-p2p cards` and `ad-p2p rules` of Access Denied: the card reference and the profiles, from the engine's data."""

from __future__ import annotations

import argparse
import json

from adp2p.cli.access_denied.messages import msg
from adp2p.cli.access_denied.words import sector_name
from adp2p.engine.access_denied.catalog import CODES, LEVEL_NAMES, cards, sectors
from adp2p.engine.access_denied.profiles import PROFILES
from rich.console import Console


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
    """The 63 cards as text (every word in the chosen language: titles, kinds, requirements, texts) or JSON."""
    lang = args.lang
    data = card_dicts(lang)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    con = Console(highlight=False)
    con.print(f"[bold]{msg('cards.title', lang)}[/bold]\n")
    for c, d in zip(cards(), data, strict=True):
        req = []
        if c.requires:
            level = LEVEL_NAMES[c.requires.level]
            req.append(f"{level}{'' if level == 'Root' else '+'} {sector_name(c.requires.sector, lang)}")
        if d["password_code"]:
            req.append(msg("cards.password_has", lang, code=d["password_code"]))
        kinds = ", ".join(msg(f"kind.{k}", lang) for k in sorted(c.kinds))
        head = f"[bold]{d['code']}[/bold]  [bold cyan]{d['title']}[/bold cyan]"
        head += f"  [dim]({kinds})[/dim]" if kinds else ""
        head += f"  [yellow]{msg('cards.requires', lang)}: {', '.join(req)}[/yellow]" if req else ""
        con.print(head)
        for para in str(d["text"]).split("\n\n"):
            con.print("    " + para.replace("\n", " "), soft_wrap=False)
    return 0


def profile_lines(lang: str) -> list[str]:
    """Every rule profile in words: players, goal, actions, hand limit, drawing, sector bonuses, card texts."""
    out = [msg("rules.title", lang)]
    for p in PROFILES.values():
        out += ["", msg("rules.head", lang, name=p.name, players=f"{p.min_players}-{p.max_players}", goal=p.goal),
                msg(f"rules.actions.{p.actions}", lang),
                msg("rules.limit.accesses", lang) if p.hand_limit == "accesses"
                else msg("rules.limit.fixed", lang, n=p.hand_limit),
                msg(f"rules.draws.{p.draws}", lang),
                msg(f"rules.bonus.{p.bonus_holder}", lang, table=p.bonuses),
                msg(f"rules.texts.{p.card_texts}", lang)]
    return out


def run_rules(args: argparse.Namespace) -> int:
    """Every profile in words (or as JSON)."""
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
    print("\n".join(profile_lines(getattr(args, "lang", "en"))))
    return 0
