"""crypto/ imports no module that imports it back: errors.py is the base of the hierarchy and imports nothing of
ours, encoding.py only errors.py, identity.py and entries.py build on both (issue 30)."""

from __future__ import annotations

from import_graph import circles, graph


def test_no_import_circles_in_crypto() -> None:
    assert circles("adp2p.crypto") == []


def test_the_error_hierarchy_imports_nothing_of_ours() -> None:
    g = graph()
    assert g["adp2p.crypto.errors"] == set()
    assert g["adp2p.crypto.encoding"] == {"adp2p.crypto.errors"}
