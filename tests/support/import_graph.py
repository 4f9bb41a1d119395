"""The import graph of our own modules, read from their source (top-level and TYPE_CHECKING imports alike): which
module imports which, and the circles in it (a module that imports a sibling that imports it back)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("crypto", "p2p", "games", "engine", "hacker", "cli")


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for top in PACKAGES:
        for p in (ROOT / top).rglob("*.py") if (ROOT / top).is_dir() else ():
            parts = p.relative_to(ROOT).with_suffix("").parts
            name = "adp2p." + ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = p
    return out


def graph() -> dict[str, set[str]]:
    """module -> the modules of ours it imports."""
    mods = modules()
    out: dict[str, set[str]] = {}
    for name, p in mods.items():
        pkg = name if p.name == "__init__.py" else name.rsplit(".", 1)[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                for a in node.names:
                    deps.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        out[name] = {d for d in deps if d in mods and d != name}
    return out


def circles(prefix: str) -> list[list[str]]:
    """The strongly connected sets of two or more modules that hold a module under `prefix`."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return [c for c in found if any(m.startswith(prefix) for m in c)]
