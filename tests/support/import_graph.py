"""The import graph of our own modules, read from their source (top-level and TYPE_CHECKING imports alike): which
module imports which, and the circles in it (a module that imports a sibling that imports it back). One reading for
every test that asks (tests/test_architecture.py, tests/p2p/peer/test_peer_imports.py); `root` a tree of the product's
folders (the repository, or a made-up one)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("engine", "games", "crypto", "p2p", "cli")  # the product's folders, installed as adp2p.<folder>

Graph = dict[str, set[str]]


def modules(root: Path) -> dict[str, Path]:
    """Every product module: its dotted name (adp2p.cli.tui.replay) -> its file."""
    out = {}
    for top in TOP:
        for path in (root / top).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out["adp2p." + ".".join(parts)] = path
    return out


def imported(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The product modules `name` imports: `from a.b import c` names the module a.b.c when there is one, else a.b."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.update(f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names)
    return {m for m in out if m in known and m != name}


@cache
def import_graph(root: Path = ROOT) -> Graph:
    """module -> the modules of ours it imports."""
    mods = modules(root)
    return {name: imported(name, path, mods) for name, path in mods.items()}


def circles(graph: Graph) -> list[list[str]]:
    """The import circles: each set of modules that reach one another (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
