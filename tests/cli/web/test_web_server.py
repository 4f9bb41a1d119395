"""The page's gate (cli/web/server.py), over real sockets: the token, the Host, the Origin, a websocket's Origin.

docs/security.md, "The page": another local user without the link, a page of another origin, a DNS-rebinding page
(another Host), a forged websocket Origin — each refused before the app sees it."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest
from adp2p.cli.web.server import PageServer


@pytest.fixture
def server() -> Iterator[PageServer]:
    got: list[dict] = []
    srv = PageServer(got.append)
    srv.got = got  # type: ignore[attr-defined]
    srv.start()
    srv.publish({"hello": "page"})
    yield srv
    srv.stop()


def request(srv: PageServer, path: str, headers: dict[str, str] | None = None, *, upgrade: bool = False,
            after: bytes = b"") -> tuple[int, bytes, socket.socket]:
    """One raw HTTP/1.1 request (a websocket upgrade with `upgrade`); the status, what came back, the socket."""
    h = {"Host": f"127.0.0.1:{srv.port}", "Connection": "close"}
    if upgrade:
        h |= {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    h |= headers or {}
    raw = f"GET {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items() if v is not None) + "\r\n"
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    s.sendall(raw.encode() + after)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1") else 0
    return status, data, s


def test_listens_on_loopback_only(server: PageServer) -> None:
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/")
    assert len(server.token) >= 40  # 32 random bytes


def test_the_page_with_the_token(server: PageServer) -> None:
    status, data, s = request(server, f"/{server.token}/")
    s.close()
    assert status == 200
    head = data.decode("latin-1").lower()
    assert "content-security-policy: default-src 'none'" in head and "frame-ancestors 'none'" in head
    assert "referrer-policy: no-referrer" in head


@pytest.mark.parametrize("path", ["/", "/x/", "/s/app.js", "/{wrong}/", "/{wrong}/s/app.js", "/{short}/"])
def test_without_the_token_refused(server: PageServer, path: str) -> None:
    wrong = server.token[:-1] + ("A" if server.token[-1] != "A" else "B")
    status, _, s = request(server, path.format(wrong=wrong, short=server.token[:20]))
    s.close()
    assert status == 404


def test_a_file_not_of_the_page_refused(server: PageServer) -> None:
    status, _, s = request(server, f"/{server.token}/s/server.py")
    s.close()
    assert status == 404
    status, _, s = request(server, f"/{server.token}/s/..%2fserver.py")
    s.close()
    assert status == 404


def test_another_origin_refused(server: PageServer) -> None:
    status, _, s = request(server, f"/{server.token}/", {"Origin": "http://evil.example"})
    s.close()
    assert status == 403


def test_another_host_refused(server: PageServer) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: its Host is not ours."""
    status, _, s = request(server, f"/{server.token}/", {"Host": f"evil.example:{server.port}"})
    s.close()
    assert status == 403


def ws_frame(text: str) -> bytes:
    """A masked client text frame (RFC 6455)."""
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    size = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_websocket_with_our_origin_gets_the_view_and_carries_clicks(server: PageServer) -> None:
    status, data, s = request(server, f"/{server.token}/ws", {"Origin": server.origin}, upgrade=True)
    assert status == 101
    s.sendall(ws_frame(json.dumps({"t": "pick", "id": 1, "n": 0})))
    rest = data.split(b"\r\n\r\n", 1)[1]
    while b"hello" not in rest:
        rest += s.recv(4096)
    done = threading.Event()
    for _ in range(100):
        if server.got:  # type: ignore[attr-defined]
            done.set()
            break
        done.wait(0.05)
    s.close()
    assert b'"hello": "page"' in rest
    assert server.got == [{"t": "pick", "id": 1, "n": 0}]  # type: ignore[attr-defined]


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None, "http://127.0.0.1:1"])
def test_websocket_with_a_forged_or_no_origin_refused(server: PageServer, origin: str | None) -> None:
    status, _, s = request(server, f"/{server.token}/ws", {"Origin": origin}, upgrade=True)
    s.close()
    assert status == 403
    assert server.pages == 0


def test_websocket_without_the_token_refused(server: PageServer) -> None:
    status, _, s = request(server, "/ws", {"Origin": server.origin}, upgrade=True)
    s.close()
    assert status in (403, 404)


def test_an_oversized_message_is_dropped_unread(server: PageServer) -> None:
    status, _, s = request(server, f"/{server.token}/ws", {"Origin": server.origin}, upgrade=True)
    assert status == 101
    big = json.dumps({"t": "pick", "id": 1, "n": 0, "pad": "x" * 5000})
    s.sendall(ws_frame(big) + ws_frame(json.dumps({"t": "pick", "id": 2, "n": 0})))
    got = b""
    s.settimeout(5)
    try:
        while chunk := s.recv(4096):
            got += chunk
            if b"\x88" in got:  # a close frame: 1009, message too big
                break
    except OSError:
        pass
    s.close()
    assert b"\x88\x02\x03\xf1" in got  # the server closed the websocket: code 1009 (too big)
    assert server.got == []  # type: ignore[attr-defined]  (neither the big message nor anything after it)
