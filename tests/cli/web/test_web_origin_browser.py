"""Another origin in a real browser: a page served from another local port (another origin) that knows the whole
link still cannot open the page's websocket nor read the page (the Origin check; the browser's own same-origin
rules). docs/security.md, "The page"."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from _browser import chromium
from adp2p.cli.web.server import PageServer


class Evil(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>other origin</title>")

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def evil() -> object:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()


def test_another_origin_cannot_drive_the_page(evil: ThreadingHTTPServer) -> None:
    got: list[dict] = []
    page_server = PageServer(got.append)
    page_server.start()
    page_server.publish({"secret": "the seat's view"})
    try:
        with chromium() as ctx:
            page = ctx.new_page()
            page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
            ws_url = page_server.url.replace("http://", "ws://") + "ws"
            result = page.evaluate("""(url) => new Promise((done) => {
                const ws = new WebSocket(url);
                let heard = null;
                ws.onmessage = (e) => { heard = e.data; ws.send('{"t":"pick","id":1,"n":0}'); };
                ws.onclose = () => done({ opened: heard !== null, heard });
                setTimeout(() => done({ opened: ws.readyState === 1, heard }), 5000);
            })""", ws_url)
            assert result == {"opened": False, "heard": None}
            read = page.evaluate("""(url) => fetch(url).then(r => r.text()).then(t => 'read: ' + t.length,
                                                                             e => 'refused: ' + e)""",
                                 page_server.url)
            assert read.startswith("refused")  # (the server says 403 to another Origin; the browser hides it anyway)
        assert got == []
    finally:
        page_server.stop()
