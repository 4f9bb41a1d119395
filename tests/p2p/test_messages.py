"""The table messages' schema (p2p/messages.py): the messages peers send pass; every other shape is refused with
MessageError naming the field, never another exception (hypothesis, fixed budget)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from adp2p.crypto.identity import SecretIdentity, make_bundle
from adp2p.p2p.messages import MAX_PEER_ADDRESSES, MessageError, address, check_message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from junk_messages import junk

BUNDLE = make_bundle(SecretIdentity.generate(), "Ada")
REAL: list[dict[str, Any]] = [
    {"k": "lobby", "v": 1, "bundle": BUNDLE, "addr": ["127.0.0.1", 4000], "peers": [["10.0.0.2", 4001]],
     "want": 3, "rules": "original", "here": []},
    {"k": "entry", "raw": b"\x92" + bytes(100)},
    {"k": "head", "seq": 12, "id": bytes(32)},
    {"k": "ask", "seq": 12, "id": bytes(32), "nonce": bytes(8)},
    {"k": "told", "seq": 12, "id": bytes(32), "nonce": bytes(8)},
    {"k": "get", "from": 0},
]  # fmt: skip


@pytest.mark.parametrize("msg", REAL, ids=[m["k"] for m in REAL])
def test_the_messages_peers_send_pass(msg: dict[str, Any]) -> None:
    assert check_message(dict(msg)) == msg


@pytest.mark.parametrize(
    "msg,why",
    [
        ({"k": "head", "seq": True, "id": bytes(32)}, "head.seq must be an integer"),  # a boolean is no count
        ({"k": "head", "seq": -1, "id": bytes(32)}, "head.seq must be an integer >= 0"),
        ({"k": "head", "seq": 1, "id": bytes(31)}, "head.id must be 32 bytes"),
        ({"k": "head", "seq": 1}, "missing field(s) id"),
        ({"k": "ask", "seq": 1, "id": bytes(32)}, "missing field(s) nonce"),
        ({"k": "told", "seq": 1, "id": bytes(32), "nonce": bytes(9)}, "told.nonce must be 8 bytes"),
        ({"k": "get", "from": 1, "x": 2}, "unexpected field(s) x"),
        ({"k": "get", "from": 1.0}, "get.from must be an integer"),
        ({"k": "entry", "raw": "text"}, "entry.raw must be at most"),
        ({"k": "nonsense"}, "unknown message kind 'nonsense'"),
        ({"k": 3}, "unknown message kind 3"),
        ({**REAL[0], "want": 7}, "lobby.want must be an integer 2..6"),
        ({**REAL[0], "want": False}, "lobby.want must be an integer 2..6"),
        ({**REAL[0], "rules": "x" * 65}, "lobby.rules must be a profile name"),
        ({**REAL[0], "peers": [["10.0.0.1", 1]] * (MAX_PEER_ADDRESSES + 1)}, "lobby.peers must be a list of at most"),
        ({**REAL[0], "addr": ["127.0.0.1", 0]}, "bad port 0"),
        ({**REAL[0], "bundle": bytes(5000)}, "lobby.bundle must be at most"),
        ({**REAL[0], "here": ["abcd-abcd-abcd-abcd"] * 65}, "lobby.here must be a list of at most 64"),
        ({**REAL[0], "here": ["bob"]}, "lobby.here must hold key fingerprints"),
        ({**REAL[0], "here": [b"abcd-abcd-abcd-abcd"]}, "lobby.here must hold key fingerprints"),
    ],
)
def test_a_wrong_shape_is_refused_naming_the_field(msg: dict[str, Any], why: str) -> None:
    with pytest.raises(MessageError, match=why.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        check_message(msg)


def test_an_address_is_an_ip_or_a_host_name_and_a_port() -> None:
    assert address(["fe80::1", 5]) == ("fe80::1", 5)
    assert address(["peer-2.local", 65535]) == ("peer-2.local", 65535)
    for bad in [["-bad-", 5], ["a" * 300, 5], ["127.0.0.1", 65536], [b"127.0.0.1", 5], ["x", True], ["x"], "x:5"]:
        with pytest.raises(MessageError):
            address(bad)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mutated_message_passes_or_raises_message_error(seed: int) -> None:
    gen = junk(random.Random(seed), REAL)
    for msg in [next(gen) for _ in range(5)]:
        try:
            out = check_message(msg)
        except MessageError:
            continue
        assert set(out) in ({"k", "raw"}, {"k", "from"}, {"k", "seq", "id"}, {"k", "seq", "id", "nonce"}, set(REAL[0]))
