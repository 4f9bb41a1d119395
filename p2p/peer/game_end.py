"""The game's end for us: why it ended (`ended` in English for the outcome, `ended_words` in the player's language),
the outcome `run()` returns, and an abandonment set aside so that the game goes on (`reopened`).

`GameEnd` is an object of its own, given the player's language and game (`cfg`), what the player is told
(narrator.py) and what it does through the peer: cancel our decision in progress, wake the play loop. The parts that
end the game (intake on a verdict, a silent seat's abandon, catching up that gets no answer, the play loop at the end)
call it; the peer wires it (p2p/peer/table_peer.py) and shows `ended` and `outcome` as its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adp2p.p2p.notices import notice
from adp2p.p2p.paths import resume_command
from adp2p.p2p.peer.common import Outcome, PeerConfig
from adp2p.p2p.peer.narrator import Narrator


class GameEnd:
    """Why the game ended for us, and its outcome."""

    def __init__(
        self, cfg: PeerConfig, narrator: Narrator, *, stop_deciding: Callable[[], None], news: Callable[[], None]
    ) -> None:
        self.cfg, self.narrator, self._stop_deciding, self._news = cfg, narrator, stop_deciding, news
        self.ended: str | None = None  # why the game ended for us, in English (None while it goes on)
        self.ended_words: str | None = None  # the same in the player's language
        self.outcome = Outcome()
        self.reopened = False  # an abandonment was set aside by the silent seat's own entry: play on

    def end(self, what: str, **args: Any) -> None:
        """The game ends here for us, and why: notice `what` (p2p/notices.py) in English and in the player's language
        (an argument may be a function of the language)."""
        def words(lang: str) -> str:
            return notice(what, lang, **{k: v(lang) if callable(v) else v for k, v in args.items()})

        self.ended, self.ended_words = words("en"), words(self.cfg.lang)

    def verdict(self, text: str, said: str | None = None) -> None:
        """The game ends on a verdict: `text` in English (the outcome), `said` to the player in its language."""
        self.ended, self.ended_words = text, said or text
        self._stop_deciding()
        self.outcome.verdict = text
        self.narrator.say(self.ended_words)
        self._news()

    def lost_contact(self, seq: int, gdir: Any) -> None:
        """The table did not answer us catching up (at `seq` of the log in `gdir`) within two periods: we leave naming
        nobody, writing nothing."""
        self.outcome.lost_contact = True
        self.end("lost_contact", seq=seq, resume=resume_command(gdir, self.cfg.game))
        self._news()

    def reopen(self) -> None:
        """An abandonment was set aside by the silent seat's own entry (`Abandoning.weigh`): the game goes on."""
        self.ended = self.ended_words = None
        self.outcome = Outcome(game_id=self.outcome.game_id, log_path=self.outcome.log_path)
        self.reopened = True

    def linger(self, m: Any) -> float:
        """At most how long to keep serving after the end, our fold `m` (the others normally all have it at once)."""
        if m is not None and m.complete and not self.ended:
            return max(1.0, min(self.cfg.abandon_after, 30.0))
        if self.outcome.abandoned_by is not None:
            # the silent seat may be a suspended peer about to come back: its own entry, if it arrives now, beats
            # the abandon and the game goes on with one log (longer than a period: its connections must redial)
            return max(1.0, min(2 * self.cfg.abandon_after, 60.0))
        return 1.0

    def finish(self, m: Any, store: Any) -> None:
        """The end, told, and written into the outcome (fold `m` of our log `store`)."""
        self.outcome.entries = len(store)
        self.outcome.head = store.head_id
        self.narrator.finish(m, self.outcome, self.ended, self.ended_words)
