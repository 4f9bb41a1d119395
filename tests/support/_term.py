"""Drive the real `ad-p2p` client in a terminal, as a person would: through tmux when it is installed
(a real terminal emulator: its screen is what a person sees), else through a pseudo-terminal (pty).

Both drivers offer the same three calls: `wait_for(regex)`, `send(text)` (a typed line) and `interrupt()`
(Ctrl-C); `text` is everything the client has written so far with ANSI codes removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import uuid
from pathlib import Path

# s: no wait for the client gives up sooner (a loaded machine may take that long to start a table and draw; only a
# broken run ever waits it out): a timeout a test passes is raised to this floor, never a margin the test needs
WAIT_FLOOR = 120.0
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\r")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


def client_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "adp2p.cli", *args]


class PtyTerminal:
    kind = "pty"

    def __init__(self, argv: list[str], cols: int = 100, rows: int = 40, env: dict[str, str] | None = None) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the client, on the pty
            os.environ.update(env or {})
            os.environ["COLUMNS"] = str(cols)
            os.environ["LINES"] = str(rows)
            os.execvp(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.raw = b""
        self.status: int | None = None

    @property
    def text(self) -> str:
        return strip_ansi(self.raw.decode(errors="replace"))

    def _pump(self, wait: float) -> None:
        import select

        ready, _, _ = select.select([self.fd], [], [], wait)
        if ready:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b""
            if chunk:
                self.raw += chunk
                return
            self._reap(block=True)
        else:
            self._reap(block=False)

    def _reap(self, block: bool) -> None:
        if self.status is not None:
            return
        pid, st = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        if pid:
            self.status = os.waitstatus_to_exitcode(st)

    def wait_for(self, pattern: str, timeout: float = 20.0, start: int = 0) -> re.Match[str]:
        rx = re.compile(pattern, re.M)
        end = time.monotonic() + max(timeout, WAIT_FLOOR)
        while True:
            m = rx.search(self.text, start)
            if m:
                return m
            if self.status is not None or time.monotonic() > end:
                raise TimeoutError(f"no {pattern!r} in the terminal; its tail:\n{self.text[-3000:]}")
            self._pump(0.05)

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def interrupt(self) -> None:
        os.write(self.fd, b"\x03")

    def wait_exit(self, timeout: float = 20.0) -> int:
        end = time.monotonic() + max(timeout, WAIT_FLOOR)
        while self.status is None and time.monotonic() < end:
            self._pump(0.05)
        if self.status is None:
            raise TimeoutError("the client did not exit")
        return self.status

    def close(self) -> None:
        if self.status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self._reap(block=True)
        os.close(self.fd)


class TmuxTerminal:
    """The client in a detached tmux session of its own (its own socket: no user sessions touched); the
    output is also piped to a file so nothing scrolled off the screen is lost."""

    kind = "tmux"

    def __init__(self, argv: list[str], cols: int = 100, rows: int = 40, env: dict[str, str] | None = None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="adp2p-tmux-"))
        self.sock = str(self.dir / "sock")
        self.session = f"adp2p-{uuid.uuid4().hex[:8]}"
        self.log = self.dir / "out"
        self.rcfile = self.dir / "rc"
        envs = " ".join(f"{k}={shlex_quote(v)}" for k, v in (env or {}).items())
        cmd = " ".join(shlex_quote(a) for a in argv)
        # the shell handles Ctrl-C itself (so it lives to write the exit code) while the client gets it
        script = f"trap true INT; {envs} {cmd}; echo $? > {shlex_quote(str(self.rcfile))}"
        self._tmux(
            "new-session",
            "-d",
            "-s",
            self.session,
            "-x",
            str(cols),
            "-y",
            str(rows),
            f"sh -c {shlex_quote(script)}; sleep 30",
        )
        self._tmux("pipe-pane", "-t", self.session, "-o", f"cat >> {shlex_quote(str(self.log))}")
        self.status: int | None = None

    def _tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", self.sock, *args], capture_output=True, text=True, check=True, timeout=10
        ).stdout

    @property
    def text(self) -> str:
        raw = self.log.read_bytes() if self.log.exists() else b""
        return strip_ansi(raw.decode(errors="replace"))

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.session)

    def resize(self, cols: int, rows: int) -> None:
        """The terminal window resized, as a person drags it (the client gets SIGWINCH)."""
        self._tmux("resize-window", "-t", self.session, "-x", str(cols), "-y", str(rows))

    def _poll(self) -> None:
        if self.status is None and self.rcfile.exists():
            txt = self.rcfile.read_text().strip()
            if txt:
                self.status = int(txt)

    def wait_for(self, pattern: str, timeout: float = 20.0, start: int = 0) -> re.Match[str]:
        rx = re.compile(pattern, re.M)
        end = time.monotonic() + max(timeout, WAIT_FLOOR)
        while True:
            m = rx.search(self.text, start)
            if m:
                return m
            self._poll()
            if self.status is not None or time.monotonic() > end:
                time.sleep(0.1)
                m = rx.search(self.text, start)
                if m:
                    return m
                raise TimeoutError(f"no {pattern!r} in the terminal; its tail:\n{self.text[-3000:]}")
            time.sleep(0.03)

    def send(self, line: str) -> None:
        if line:
            self._tmux("send-keys", "-t", self.session, "-l", line)
        self._tmux("send-keys", "-t", self.session, "Enter")

    def interrupt(self) -> None:
        self._tmux("send-keys", "-t", self.session, "C-c")

    def keys(self, *names: str) -> None:
        """Keys by tmux name (PageUp, Tab, Up, C-c, ...), no Enter."""
        self._tmux("send-keys", "-t", self.session, *names)

    def wait_exit(self, timeout: float = 20.0) -> int:
        end = time.monotonic() + max(timeout, WAIT_FLOOR)
        while self.status is None and time.monotonic() < end:
            self._poll()
            time.sleep(0.05)
        if self.status is None:
            raise TimeoutError("the client did not exit")
        return self.status

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True, timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def shlex_quote(s: str) -> str:
    import shlex

    return shlex.quote(s)


def terminal(argv: list[str], cols: int = 100, rows: int = 40, env: dict[str, str] | None = None):
    """tmux when installed, else a pty."""
    if shutil.which("tmux"):
        return TmuxTerminal(argv, cols, rows, env)
    return PtyTerminal(argv, cols, rows, env)


PROMPT = r"(choice \(number|Wahl \(Nummer|react\? \(number|reagieren\? \(Nummer)[^\n]*: $|\[y/N\] $|\[j/N\] $"
END = r"Winner\(s\):|Gewinner:"


REMATCH = (
    r"(Another game with the same settings and a new deal\? \[y/N\]"
    r"|Noch eine Partie, gleiche Einstellungen, neu gemischt\? \[j/N\]"
    r"|Another game at table \S+\? The others must choose it too\. \[y/N\]"
    r"|Noch eine Partie am Tisch \S+\? Die anderen müssen es auch wählen\. \[j/N\])"
)


def decline_rematch(term, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """The question after a complete game at a terminal, answered as a player who is done: no. On the full screen it
    is asked at the end screen's input line: read from the screen (the terminal's stream holds only what changed)."""
    if isinstance(term, TmuxTerminal):
        rx = re.compile(REMATCH)
        end = time.monotonic() + max(timeout, WAIT_FLOOR)
        while not (rx.search(term.screen()) or rx.search(term.text)):
            term._poll()
            if time.monotonic() > end or term.status is not None:
                raise TimeoutError(f"no rematch question; the screen:\n{term.screen()}")
            time.sleep(0.05)
    else:
        term.wait_for(REMATCH, timeout=timeout)
    term.send("n")


def play_whole_game(term, *, limit: int = 400, timeout: float = 40.0) -> str:
    """Play as a simple new user: confirm what asks, else end the step / pass (`d`) when the menu offers it,
    else the first choice. Returns the whole terminal text."""
    pos = 0
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        m = term.wait_for(PROMPT + "|" + END, timeout=max(1.0, deadline - time.monotonic()), start=pos)
        if re.match(END, m.group(0)):
            return term.text
        pos = m.end()
        before = term.text[: m.start()]
        if m.group(0).endswith("/N] "):
            term.send("y" if "[y/N]" in m.group(0) else "j")
            continue
        if "react" in m.group(0) or "reagieren" in m.group(0):
            term.send("")  # Enter: pass
            continue
        menu = before[before.rfind("\n\n") :]
        done = re.search(r"^\s+\d+\. (End this step|Pass|Schritt beenden|Passen)$", menu, re.M)
        term.send("d" if done else "1")
    raise AssertionError("the game did not end within the step limit:\n" + term.text[-3000:])
