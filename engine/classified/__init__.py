"""Classified Information (seed 003), the third game of ad-p2p: a pure rules engine shaped like `adp2p.engine.hacker`.

No I/O, no crypto, no clock, no randomness: CHANCE (the shuffle, the first player, the random card shown after a
failed assassination attempt) is resolved by the caller; every question the rules ask a player about their own
hidden cards (the Suitcase, a face-down Guard, a card shown) is an explicit decision of that player, checked where
this instance knows the faces and recorded as an obligation where it does not (so the table can prove each answer
against the card). See `api.py` for the public shape and docs/rules-classified.md for the rulings.
"""
