"""The shared terminal client, game-neutral (it imports no game): reading a player's lines, the full screen, following
a game, the replay walk. Each game's screens are in `cli/<game>/`."""
