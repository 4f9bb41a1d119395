"""Access Denied's client: its screens in the terminal (the game screen, the prompt and its menu, the full screen's
panes and end, the reference pages), its page in the browser (`web.py`), its pieces of `play` and `replay`
(cli/clients.py says what the shared client asks of a game's client)."""
