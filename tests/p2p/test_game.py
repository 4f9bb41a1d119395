"""The game interface (p2p/game.py): the table core imports no game (p2p/ and crypto/ never import engine/ or games/),
games are found by name, the genesis names its game only when it is not Access Denied (so Access Denied's logs are
byte for byte what they were), and a genesis naming a game this peer does not have is refused, not folded."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.game import DEFAULT_GAME, Game, UnknownGame, get_game, registered
from adp2p.p2p.machine import Machine, ProtocolError
from adp2p.p2p.machine.game_part import TablePart
from adp2p.p2p.protocol import BodyError, Genesis

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("adp2p.engine", "adp2p.games", "adp2p.cli")


def _imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out


@pytest.mark.parametrize("package", ["p2p", "crypto"])
def test_the_table_core_imports_no_game(package: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in _imports(path)
        if name.startswith(FORBIDDEN) or name in ("engine", "games")
    ]
    assert not found, "the table core imports a game (inject it through p2p/game.py instead):\n" + "\n".join(found)


def test_games_are_found_by_name() -> None:
    assert DEFAULT_GAME in registered()
    game = get_game()
    assert isinstance(game, Game) and game.name == DEFAULT_GAME and get_game(DEFAULT_GAME) is game
    with pytest.raises(UnknownGame):
        get_game("no-such-game")


def _genesis(**kw: object) -> Genesis:
    ids = sorted((SecretIdentity.generate() for _ in range(3)), key=lambda s: s.public.sign_pk)
    g = Genesis("t", "classic", None, None, tuple(make_bundle(s, f"p{i}") for i, s in enumerate(ids)), bytes(16))
    return replace(g, **kw)  # type: ignore[arg-type]


def test_an_access_denied_genesis_does_not_name_its_game() -> None:
    g = _genesis()
    assert g.game == DEFAULT_GAME and "game" not in g.to_body()
    assert Genesis.from_body(g.to_body()) == g
    with pytest.raises(BodyError):  # one encoding per genesis: the default is never spelt out
        Genesis.from_body(dict(g.to_body(), game=DEFAULT_GAME))


def test_a_genesis_names_another_game_and_an_unknown_one_is_refused() -> None:
    g = _genesis(game="no-such-game")
    body = g.to_body()
    assert body["game"] == "no-such-game" and Genesis.from_body(body) == g
    with pytest.raises(ProtocolError, match="no game 'no-such-game'"):
        Machine(g, None)
    with pytest.raises(BodyError):
        Genesis.from_body(dict(body, game=7))


def test_the_machine_of_a_game_is_no_class_built_at_run_time_its_part_an_object_of_the_game() -> None:
    m = Machine(_genesis(), None)
    assert type(m) is Machine and m.game is get_game()
    assert type(m.part) is type(m.game.table_part()) and isinstance(m.part, TablePart)
    snap, fork = m.snapshot(), m.fork()
    assert type(snap) is Machine and type(fork) is Machine and snap.game is m.game
    assert snap.part is not m.part and fork.part is m.part  # a snapshot folds on alone; a fork only looks ahead

