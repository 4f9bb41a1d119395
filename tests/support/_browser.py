"""Helpers for the page's browser tests: the OS's Chromium driven by Playwright, a command serving a page, and a
player who plays by clicks."""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# the screenshots of each stage: under docs/screens/ with ADP2P_SCREENS=1 (`ADP2P_SCREENS=1 ./dev test tests/cli -k web`
# refreshes the README's), else in a temporary directory (taken all the same)
SCREENS = (Path(__file__).resolve().parents[2] / "docs" / "screens" if os.environ.get("ADP2P_SCREENS")
           else Path(tempfile.gettempdir()) / f"adp2p-screens-{os.getpid()}")


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: ./dev installs it (apt-get install chromium)")
        pytest.skip("Chromium is missing (./dev test installs it as root)")


_browser: list[Any] = []  # [playwright, browser]: one Chromium per test process, launched by the first test that asks


def _shared_browser() -> Any:
    """The test process's Chromium (launching one costs ~2 s of CPU and a process tree: ~15 browser tests used to launch
    one each). Launched again if the last one died; stopped when the process exits."""
    if _browser and _browser[1].is_connected():
        return _browser[1]
    from playwright.sync_api import sync_playwright

    if _browser:  # (a browser that died: its driver goes with it)
        with contextlib.suppress(Exception):
            _browser[0].stop()
        _browser.clear()
    pw = sync_playwright().start()
    _browser.extend([pw, pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)])
    atexit.register(_stop_browser)
    return _browser[1]


def _stop_browser() -> None:
    if _browser:
        pw, browser = _browser
        _browser.clear()
        with contextlib.suppress(Exception):
            browser.close()
        with contextlib.suppress(Exception):
            pw.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    """A fresh browser context (no cookies, storage or cache from any other test: a new profile, as a person's first
    visit) of the process's one Chromium."""
    need_chromium()
    ctx = _shared_browser().new_context(viewport={"width": 1280, "height": 720})
    try:
        yield ctx
    finally:
        ctx.close()


@contextmanager
def serving(args: list[str], data: Path | None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`ad-p2p ARGS --web [--data-dir DATA]` in a process of its own; it and the URL it prints. Stopped at the end if
    still running."""
    env = {**os.environ, "ADP2P_NO_BROWSER": "1", "PYTHONUNBUFFERED": "1"}
    where = ["--data-dir", str(data)] if data is not None else []
    proc = subprocess.Popen([sys.executable, "-m", "adp2p.cli", *args, "--web", *where],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                            env=env)
    try:
        url = None
        assert proc.stdout is not None
        for line in proc.stdout:
            m = re.search(r"(http://127\.0\.0\.1:\d+/[\w-]+/)", line)
            if m:
                url = m.group(1)
                break
        assert url is not None, "no URL printed"
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if proc.stdout is not None and not proc.stdout.closed:  # what the command said (shown when a test fails)
            with contextlib.suppress(OSError, ValueError):
                print(f"--- ad-p2p {' '.join(args)}:\n{proc.stdout.read()[-4000:]}")


def shoot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / name))


def rev(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.rev || '0'"))


def until(page: Any, script: str, timeout: float = 120.0) -> Any:
    """Poll `script` (an expression) in the page until it is truthy (the page's CSP allows no eval, so Playwright's
    wait_for_function cannot run there; `evaluate` can)."""
    deadline = time.monotonic() + max(timeout, 120.0)  # (a floor: only a broken run waits it out)
    while True:
        got = page.evaluate(script)
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {script}")
        time.sleep(0.05)


def click_choice(page: Any, choice: Any, keys: bool = False) -> None:
    """Click one choice (`keys`: the first choice by its key, 1, as a keyboard-only player does) and wait for the
    peer's next snapshot."""
    before = rev(page)
    if keys:
        page.keyboard.press("1")
    else:
        choice.click(timeout=10_000)
    until(page, f"Number(document.body.dataset.rev || 0) > {before}")


def play_by_clicks(page: Any, shots: dict[str, str] | None = None, limit: float = 400.0, keys: bool = False) -> None:
    """Play the seat to the end screen by clicks: a choice that is picked card by card by clicking the cards
    (each card once, until one choice is left), a group by opening it, else the first choice (`keys`: by the
    keyboard). `shots`: stage name -> file name under docs/screens/, each taken the first time that stage shows."""
    deadline = time.monotonic() + limit
    seen: set[str] = set()

    def shot(stage: str) -> None:
        if shots and stage in shots and stage not in seen:
            seen.add(stage)
            shoot(page, shots[stage])

    while time.monotonic() < deadline:
        until(page, "!!(document.querySelector('#end:not([hidden])') || "
                    "document.querySelector('#ask-choices button'))", timeout=300)
        if page.locator("#end:not([hidden])").count():
            shot("end")
            return
        if page.locator("#ask-clock:not([hidden])").count() and page.locator("#ask-clock").inner_text():
            shot("react")
        cards = page.locator("#mine button.card.selectable:not(.picked)")
        if page.locator("#ask-filter:not([hidden])").count() and cards.count():
            shot("cards")
            rev = page.evaluate("document.body.dataset.rev || '0'")
            before = page.locator("#ask-choices button.choice").count()
            try:
                if keys:  # a card is a button: Tab to it, Enter
                    cards.first.focus(timeout=10_000)
                    page.keyboard.press("Enter")
                else:
                    cards.first.click(timeout=10_000)  # (drawn at once by the page: no round trip)
            except Exception:  # the decision went away under the click (the peer pushed the next one): look again
                continue
            after = page.locator("#ask-choices button.choice").count()
            if page.evaluate("document.body.dataset.rev || '0'") != rev:
                continue  # the peer pushed a new view meanwhile (another decision): look again
            assert after <= before
            if after == 1:
                click_choice(page, page.locator("#ask-choices button.choice").first)
            continue
        choices = page.locator("#ask-choices button.choice")
        if not choices.count():
            continue
        shot("decision")
        more = page.locator("#ask-choices button.choice.more")
        if more.count():
            shot("groups")
        rev0 = page.evaluate("document.body.dataset.rev || '0'")
        try:
            click_choice(page, choices.first, keys)
        except Exception:  # the decision went away under the click (the peer moved on, or the game ended): look again
            gone = not page.locator("#ask-choices button.choice").count()
            moved = page.evaluate("document.body.dataset.rev || '0'") != rev0
            if gone or moved or page.locator("#end:not([hidden])").count():
                continue
            raise
    raise AssertionError("the game did not end in time")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bot_peer(common: list[str], port: int, data: Path, name: str, seed: int) -> subprocess.Popen[bytes]:
    """A bot peer (`ad-p2p join --bot deduction`) that finds us at 127.0.0.1:port."""
    return subprocess.Popen([sys.executable, "-m", "adp2p.cli", "join", "--bot", "deduction", *common,
                             "--peer", f"127.0.0.1:{port}", "--data-dir", str(data), "--quiet", "--seed", str(seed),
                             "--name", name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
