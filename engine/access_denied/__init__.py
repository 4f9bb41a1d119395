"""adp2p.engine.access_denied: the rules of Access Denied as a pure, replayable state machine. No I/O, no crypto,
no clock.

Public API: new_game, pending, legal, apply, learn, view, is_over, result, replay; Profile and PROFILES;
the card catalog; IllegalEvent. Test positions: `adp2p.engine.access_denied.scenario` (the scenario API).
"""

from adp2p.engine.access_denied.api import (
    Decision,
    Result,
    apply,
    is_over,
    learn,
    legal,
    new_game,
    pending,
    replay,
    result,
    view,
)
from adp2p.engine.access_denied.catalog import card, card_by_key, cards, sectors
from adp2p.engine.access_denied.profiles import PROFILES, Profile, get_profile
from adp2p.engine.access_denied.state import GameState
from adp2p.engine.errors import IllegalEvent

__all__ = [
    "PROFILES",
    "Decision",
    "GameState",
    "IllegalEvent",
    "Profile",
    "Result",
    "apply",
    "card",
    "card_by_key",
    "cards",
    "get_profile",
    "is_over",
    "learn",
    "legal",
    "new_game",
    "pending",
    "replay",
    "result",
    "sectors",
    "view",
]
