"""Each game's client, found from the game's one registry line: pyproject.toml's `adp2p.games` entry point
`<name> = "adp2p.games.<game>:GAME"` names the game's folder, `<game>`, and its client is `cli/<game>/` (package
`adp2p.cli.<game>`), as its rules are `engine/<game>/`. The shared client (cli/tui/, cli/web/) and the commands reach
a game's screens only through here, by the module's name, so they import no game.

What the shared client asks of `cli/<game>/` (modules by fixed names):
- `play.py`: `play_game(args, seed) -> PlayGame` (cli/play_game.py): `ad-p2p play`'s pieces of the game;
- `replay.py`: `show_replay(args, machine, steps, out, inp) -> int`: `ad-p2p replay`'s screens (cli/tui/replay.py
  folds the log and walks it);
- `web.py` and `web.js`: the game's page (cli/web/seat.py draws its view and asks its decisions there; the server
  serves `web.js` as `<name>.js`, which app.js imports);
- `commands.py`: the game's parts of the commands: `PROFILES`, `STRATEGIES`, `DEFAULT_RULES`, `DEFAULT_BOT`,
  `check(cmd, args)` (its options of `play`, `join`, `sim`), `profile_of(args)`, `sim(args)`, `cards(args)`,
  `rules(args)`, `offline(args, out, inp)` (`play --offline`) and `seat(args)` (a person's seat at `join`).
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from types import ModuleType

from adp2p.p2p.game import ENTRY_POINTS


@cache
def folders() -> dict[str, str]:
    """Every registered game's name -> its folder (`access-denied` -> `access_denied`)."""
    out = {}
    for ep in entry_points(group=ENTRY_POINTS):
        module = ep.value.split(":")[0]  # adp2p.games.<game>
        out[ep.name] = module.split(".")[2]
    return out


def client(game: str, part: str | None = None) -> ModuleType:
    """The client of the game named `game` (`adp2p.cli.<game>`), or one of its modules (`part`: "play", "replay",
    "web"); KeyError for a game not registered, ModuleNotFoundError for a part the game has not."""
    name = f"adp2p.cli.{folders()[game]}"
    return importlib.import_module(f"{name}.{part}" if part else name)
