"""`ad-p2p tables`: the tables and players seen on the LAN (mDNS)."""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

import trio
from adp2p.p2p.discovery import resolve_interfaces, scan


def run_tables(args: argparse.Namespace) -> int:
    interfaces = resolve_interfaces(args.interface) if args.interface else None
    seen = trio.run(lambda: scan(args.seconds, interfaces=interfaces))
    tables: dict[str, list[dict[str, object]]] = defaultdict(list)
    for p in seen:
        tables[p.table or "?"].append(
            {
                "name": p.name,
                "key": p.fingerprint,
                "seats": p.seats,
                "addresses": list(p.addresses),
                "port": p.port,
            }
        )
    if args.json:
        print(json.dumps(tables, indent=1))
        return 0
    if not tables:
        print(f"No tables seen on the LAN in {args.seconds:g} s.")
        return 0
    for name, players in sorted(tables.items()):
        want = next((p["seats"] for p in players if p["seats"]), "?")
        print(f"table {name!r}: {len(players)} of {want} players")
        for p in players:
            print(f"  {p['name']}  key {p['key']}  at {', '.join(map(str, p['addresses']))}:{p['port']}")
    return 0
