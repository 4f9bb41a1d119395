"""The terminal client: the game screen (rich) and the human prompt, shared by `play`, `join` and `replay`."""

from adp2p.cli.tui.prompt import DEFAULT_REACT_SECONDS, Prompt, irreversible
from adp2p.cli.tui.screen import NARROW, render_text, screen

__all__ = ["DEFAULT_REACT_SECONDS", "NARROW", "Prompt", "irreversible", "render_text", "screen"]
