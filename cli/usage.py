"""The commands' one error: a command-line value (or a file it names) that cannot work, said in one line."""

from __future__ import annotations


class UsageError(Exception):
    """A command-line value that cannot work; its message is the one line the user sees (`de`: the line in German,
    shown under --lang de)."""

    def __init__(self, text: str, de: str | None = None) -> None:
        super().__init__(text)
        self.de = de

    def said(self, lang: str | None) -> str:
        return self.de if lang == "de" and self.de else str(self)
