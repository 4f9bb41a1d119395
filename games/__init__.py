"""The games that plug into the table core (p2p/game.py's `Game`): one package each, registered by name as an
``adp2p.games`` entry point in pyproject.toml. See docs/architecture-reference.md, "Adding a game"."""
