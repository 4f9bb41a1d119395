"""What the other peers told us of their logs (their heads), and whether ours is news to them.

`Heads` only remembers and answers: which head each peer last told us (or an entry it authored implied), the longest
it ever told, whether every seat holds ours; and when our head changed since we last told the table. Sending is the
caller's."""

from __future__ import annotations

from collections.abc import Iterable

import trio

Head = tuple[int, bytes]  # (log length, id of the last entry)


class Heads:
    """The others' heads, and ours as last sent."""

    def __init__(self) -> None:
        self.longest: dict[str, int] = {}  # fingerprint -> the longest log length that peer told us it holds
        self.last: dict[str, Head] = {}  # fingerprint -> the last (length, head id) it told us
        self._news = trio.Event()  # our head changed since we last told the table
        self._sent: Head | None = None  # the head we last broadcast

    def told(self, fp: str, seq: int, hid: bytes) -> None:
        """`fp` told us its head (a `head`, `ask` or `told` message)."""
        self.longest[fp] = max(seq, self.longest.get(fp, 0))
        self.last[fp] = (seq, hid)

    def implied(self, fp: str, seq: int, hid: bytes) -> None:
        """An entry received from its own author: the author's log holds it, so it tells us the author's head (unless
        it told us a longer one already)."""
        self.longest[fp] = max(seq, self.longest.get(fp, 0))
        if self.last.get(fp, (0, b""))[0] <= seq:
            self.last[fp] = (seq, hid)

    def heard_from(self, fp: str) -> bool:
        """Whether `fp` ever told us a head (a seat still in the lobby has not)."""
        return fp in self.longest

    def all_hold(self, fps: Iterable[str], head: Head) -> bool:
        """Whether every one of `fps` told us the very head we hold (its length and its id)."""
        return all(self.last.get(fp) == head for fp in fps)

    def news(self) -> None:
        """Our head is news: the gossip sends it soon (one message for a whole burst of entries)."""
        self._news.set()

    async def wait_news(self) -> None:
        await self._news.wait()
        self._news = trio.Event()

    def to_send(self, head: Head) -> bool:
        """Whether `head` differs from the one we last sent (it is then taken as sent)."""
        if head == self._sent:
            return False
        self._sent = head
        return True
