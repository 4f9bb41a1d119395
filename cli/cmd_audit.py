"""`ad-p2p audit GAME_LOG [--json]`: offline, from the log file alone (`ad-p2p replay` is cli/tui/replay.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_audit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="a game log file (games/<id>/log under the data directory)")
    p.add_argument("--json", action="store_true", help="the report as JSON")


def _path(arg: str) -> Path | None:
    p = Path(arg)
    if p.is_dir() and (p / "log").is_file():
        p = p / "log"
    if not p.is_file():
        print(f"ad-p2p: no game log at {arg}", file=sys.stderr)
        return None
    return p


def run_audit(args: argparse.Namespace) -> int:
    from adp2p.p2p.audit import audit_log

    p = _path(args.log)
    if p is None:
        return 2
    res = audit_log(p)
    print(json.dumps(res.to_json(), indent=2) if args.json else res.text())
    return 0 if res.ok else 1
