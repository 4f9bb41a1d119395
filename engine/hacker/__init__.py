"""Hacker (Fanfor 1991), the second game of ad-p2p: a pure rules engine shaped like `adp2p.engine.access_denied`.

No I/O, no crypto, no clock, no randomness: CHANCE decisions (dice, shuffles, place-card draws) are resolved by the
caller; secret simultaneous choices (place cards, laid cards, the hack pad) are sealed commitments the engine does not
look into, opened by later events it checks. See `api.py` for the public shape and docs/rules-hacker.md for rulings.
"""
