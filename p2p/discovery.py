"""LAN table discovery over mDNS / DNS-SD, with a trio-native API on top of python-zeroconf.

Every player advertises one service of type ``_accessdenied._tcp.local.`` whose TXT
record carries *hints* (nothing here is authenticated: identity is proven later, in the
handshake, against the key whose fingerprint is announced here):

========  ===============================================
``v``     protocol version (:data:`PROTOCOL_VERSION`)
``table`` table name the player wants to sit at
``pk``    fingerprint of the player's long-term key
``name``  player display name
``seats`` number of players the table wants (optional)
========  ===============================================

API::

    async with advertise("ann", port, "friday", fp, seats=4) as ad:   # registered ...
        ...                                                           # ... until exit
    async with browse() as events:          # PeerSeen / PeerGone on a trio channel
        async for ev in events: ...
    peers = await scan(2.0)                 # `ad-p2p tables`: who is out there now

Threading model: zeroconf runs its own asyncio loop in a thread (plus one thread per
``ServiceBrowser``).  Blocking zeroconf calls (construction, registration, ``close``)
run in trio worker threads via :func:`trio.to_thread.run_sync`; callbacks coming from
zeroconf threads enter trio only through the :class:`trio.lowlevel.TrioToken` captured
when the context is entered (``token.run_sync_soon``), and service resolution runs as a
coroutine on zeroconf's own loop whose completion is handed back the same way.  On exit
every browser is cancelled (joined) and every ``Zeroconf`` closed, so no thread leaks.

``interfaces`` selects the network(s): ``None`` means all interfaces; otherwise a list
(or a single string) of interface names (``"eth0"``, mapped to their IPv4 addresses)
or IPv4 addresses (``"192.0.2.7"``).  Only IPv4 is used.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ipaddress
import re
import secrets
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Final

import ifaddr
import trio
from zeroconf import (
    InterfaceChoice,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceInfo

__all__ = [
    "PROTOCOL_VERSION",
    "SERVICE_TYPE",
    "Advertisement",
    "DiscoveryEvent",
    "PeerGone",
    "PeerSeen",
    "advertise",
    "browse",
    "instance_label",
    "resolve_interfaces",
    "scan",
]

SERVICE_TYPE: Final = "_accessdenied._tcp.local."
PROTOCOL_VERSION: Final = "1"
RESERVED_TXT_KEYS: Final = frozenset({"v", "table", "pk", "name", "seats"})

_RESOLVE_TIMEOUT_MS: Final = 3000
_MAX_QUEUED_CHANGES: Final = 4096  # zeroconf events waiting for the trio side; a flood beyond is dropped
_MAX_TXT_ITEM: Final = 255  # one DNS character-string
_MAX_TXT_VALUE_SHOWN: Final = 255
_MAX_LABEL_BYTES: Final = 63
_LABEL_BAD = re.compile(r"[\x00-\x1f\x7f.\\]")


@dataclass(frozen=True)
class PeerSeen:
    """A player's advertisement was found (or changed). Everything in it is an unverified hint."""

    instance: str  # full DNS-SD service name, e.g. "ann (1a2b3c4d)._accessdenied._tcp.local."
    addresses: tuple[str, ...]  # IPv4 addresses, as strings
    port: int
    txt: Mapping[str, str] = field(default_factory=dict, hash=False)

    @property
    def label(self) -> str:
        """Instance name without the service type suffix."""
        return self.instance.removesuffix("." + SERVICE_TYPE)

    @property
    def version(self) -> str | None:
        return self.txt.get("v")

    @property
    def table(self) -> str | None:
        return self.txt.get("table")

    @property
    def fingerprint(self) -> str | None:
        return self.txt.get("pk")

    @property
    def name(self) -> str | None:
        return self.txt.get("name")

    @property
    def seats(self) -> int | None:
        try:
            return int(self.txt["seats"])
        except (KeyError, ValueError):
            return None


@dataclass(frozen=True)
class PeerGone:
    """A previously seen advertisement was withdrawn (goodbye packet or TTL expiry)."""

    instance: str


DiscoveryEvent = PeerSeen | PeerGone


# --------------------------------------------------------------------------- interfaces


def _ipv4_of_interface(name: str) -> list[str]:
    for adapter in ifaddr.get_adapters():
        if name in (adapter.name, adapter.nice_name):
            return [str(ip.ip) for ip in adapter.ips if ip.is_IPv4]
    known = sorted({a.nice_name for a in ifaddr.get_adapters()})
    raise ValueError(f"unknown network interface {name!r} (known: {', '.join(known) or 'none'})")


def resolve_interfaces(interfaces: str | Iterable[str] | None) -> list[str] | None:
    """Map interface names / IPv4 addresses to a deduplicated list of IPv4 addresses.

    ``None`` stays ``None`` (meaning: all interfaces).  Raises :class:`ValueError` for an
    unknown interface, an interface without IPv4 address, or a non-IPv4 address.
    """
    if interfaces is None:
        return None
    if isinstance(interfaces, str):
        interfaces = [interfaces]
    result: list[str] = []
    for item in interfaces:
        try:
            addr = ipaddress.ip_address(item)
        except ValueError:
            addrs = _ipv4_of_interface(item)
            if not addrs:
                raise ValueError(f"network interface {item!r} has no IPv4 address") from None
        else:
            if addr.version != 4:
                raise ValueError(f"only IPv4 is supported, got {item!r}")
            addrs = [str(addr)]
        result.extend(a for a in addrs if a not in result)
    if not result:
        raise ValueError("no network interface selected")
    return result


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other players can reach (all but loopback; loopback if there is no other)."""
    return _default_addresses()


def _default_addresses() -> list[str]:
    """IPv4 addresses to advertise when the caller picked no interface: all but loopback."""
    addrs: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and not ipaddress.ip_address(ip.ip).is_loopback and str(ip.ip) not in addrs:
                addrs.append(str(ip.ip))
    return addrs or ["127.0.0.1"]


def _make_zeroconf(addresses: list[str] | None) -> Zeroconf:
    # Called in a worker thread: no asyncio loop there, so zeroconf starts its own loop thread.
    choice: Any = InterfaceChoice.All if addresses is None else addresses
    return Zeroconf(interfaces=choice, ip_version=IPVersion.V4Only)


# --------------------------------------------------------------------------- TXT helpers


def instance_label(name: str, fingerprint: str) -> str:
    """Instance label ``"<name> (<fp8>)"``: readable, unlikely to clash, at most 63 bytes."""
    clean = _LABEL_BAD.sub("_", name).strip() or "player"
    suffix = f" ({_LABEL_BAD.sub('_', fingerprint)[:8]})" if fingerprint else ""
    budget = _MAX_LABEL_BYTES - len(suffix.encode())
    raw = clean.encode()[:budget].decode("utf-8", errors="ignore")
    return raw + suffix


def _build_txt(
    name: str, table: str, fingerprint: str, seats: int | None, version: str, extra: Mapping[str, str] | None
) -> dict[str, str]:
    txt = {"v": version, "table": table, "pk": fingerprint, "name": name}
    if seats is not None:
        txt["seats"] = str(int(seats))
    for key, value in (extra or {}).items():
        if key in RESERVED_TXT_KEYS:
            raise ValueError(f"extra_txt may not override the reserved key {key!r}")
        txt[key] = value
    for key, value in txt.items():
        if not key or "=" in key or not key.isascii():
            raise ValueError(f"invalid TXT key {key!r}")
        if len(key.encode()) + 1 + len(value.encode()) > _MAX_TXT_ITEM:
            raise ValueError(f"TXT entry {key!r} is longer than {_MAX_TXT_ITEM} bytes")
    return txt


def _decode_txt(properties: Mapping[bytes, bytes | None]) -> dict[str, str]:
    txt: dict[str, str] = {}
    for key, value in properties.items():
        try:
            k = key.decode("ascii").lower()
        except UnicodeDecodeError:
            continue
        v = "" if value is None else value.decode("utf-8", errors="replace")
        txt[k] = v[:_MAX_TXT_VALUE_SHOWN]
    return txt


def _peer_from_info(info: ServiceInfo) -> PeerSeen | None:
    if info.port is None:
        return None
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    if not addresses:
        return None
    return PeerSeen(instance=info.name, addresses=addresses, port=info.port, txt=_decode_txt(info.properties))


# --------------------------------------------------------------------------- advertise


class Advertisement:
    """A registered service; returned by :func:`advertise`."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, txt: dict[str, str]) -> None:
        self._zc = zc
        self.info = info
        self.txt = txt

    @property
    def instance(self) -> str:
        """Full service name, after any rename zeroconf did to resolve a name conflict."""
        return self.info.name

    @property
    def port(self) -> int:
        assert self.info.port is not None
        return self.info.port

    @property
    def addresses(self) -> list[str]:
        return self.info.parsed_addresses(IPVersion.V4Only)

    async def update(self, **txt: str) -> None:
        """Change TXT values (e.g. ``seats``) and re-announce them."""
        new = dict(self.txt)
        new.update(txt)
        _build_txt(new["name"], new["table"], new["pk"], None, new["v"], None)  # validates lengths
        info = ServiceInfo(
            self.info.type,
            self.info.name,
            port=self.info.port,
            properties=new,
            server=self.info.server,
            parsed_addresses=self.info.parsed_addresses(),
        )
        await trio.to_thread.run_sync(self._zc.update_service, info)
        self.info = info
        self.txt = new


async def _register(zc: Zeroconf, info: ServiceInfo, probe: bool) -> None:
    announced = await zc.async_register_service(
        info, allow_name_change=True, cooperating_responders=not probe
    )
    await announced


@asynccontextmanager
async def advertise(
    name: str,
    port: int,
    table: str,
    fingerprint: str,
    *,
    seats: int | None = None,
    interfaces: str | Iterable[str] | None = None,
    extra_txt: Mapping[str, str] | None = None,
    addresses: Sequence[str] | None = None,
    version: str = PROTOCOL_VERSION,
    probe: bool = True,
) -> AsyncIterator[Advertisement]:
    """Advertise this player while the context is open; unregister (goodbye packets) on exit.

    *addresses* defaults to the IPv4 addresses of *interfaces* (or of every non-loopback
    interface when *interfaces* is None).  With *probe* (the default) zeroconf first probes
    for a name conflict and renames the instance (``"label-2"``) if one is found, which
    takes about 1.5 s; ``probe=False`` skips that.
    """
    if not 0 < port < 65536:
        raise ValueError(f"port out of range: {port}")
    iface_addrs = resolve_interfaces(interfaces)
    txt = _build_txt(name, table, fingerprint, seats, version, extra_txt)
    if addresses is None:
        addresses = iface_addrs if iface_addrs is not None else _default_addresses()
    for a in addresses:
        if ipaddress.ip_address(a).version != 4:
            raise ValueError(f"only IPv4 addresses can be advertised, got {a!r}")
    label = instance_label(name, fingerprint)
    info = ServiceInfo(
        SERVICE_TYPE,
        f"{label}.{SERVICE_TYPE}",
        port=port,
        properties=txt,
        server=f"adp2p-{secrets.token_hex(6)}.local.",
        parsed_addresses=list(addresses),
    )
    zc = await trio.to_thread.run_sync(_make_zeroconf, iface_addrs)
    try:
        # Registration (probe + announcements, ~2 s) runs on zeroconf's loop and is cancellable.
        assert zc.loop is not None
        fut = asyncio.run_coroutine_threadsafe(_register(zc, info, probe), zc.loop)
        await _wait_concurrent(fut, trio.lowlevel.current_trio_token())
        yield Advertisement(zc, info, txt)
    finally:
        # close() sends the goodbye packets for every registered service, then stops the loop thread.
        # Shielded: it must run even when we leave because of a cancellation.
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)


# --------------------------------------------------------------------------- browse


async def _wait_concurrent(fut: concurrent.futures.Future[Any], token: trio.lowlevel.TrioToken) -> Any:
    """Wait in trio for a future completed on zeroconf's loop; cancel it if we are cancelled."""
    done = trio.Event()

    def on_done(_: concurrent.futures.Future[Any]) -> None:
        with suppress(trio.RunFinishedError):
            token.run_sync_soon(done.set)

    fut.add_done_callback(on_done)
    try:
        await done.wait()
    except BaseException:
        fut.cancel()
        raise
    return fut.result()


async def _resolve(zc: Zeroconf, name: str, timeout_ms: int) -> AsyncServiceInfo | None:
    info = AsyncServiceInfo(SERVICE_TYPE, name)
    if await info.async_request(zc, timeout_ms):
        return info
    return None


class _Browser:
    """State of one :func:`browse` call; lives entirely in the trio thread except ``_on_change``."""

    def __init__(self, zc: Zeroconf, out: trio.MemorySendChannel[DiscoveryEvent]) -> None:
        self.zc = zc
        self.out = out
        self.token = trio.lowlevel.current_trio_token()
        self.raw_send, self.raw_recv = trio.open_memory_channel[tuple[ServiceStateChange, str]](
            _MAX_QUEUED_CHANGES
        )
        self.known: dict[str, PeerSeen] = {}
        self.pending: dict[str, trio.CancelScope] = {}

    # Runs in zeroconf's ServiceBrowser thread: hand over to trio, never block, never raise.
    def on_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        with suppress(trio.RunFinishedError):
            self.token.run_sync_soon(self._push, (state_change, name))

    def _push(self, item: tuple[ServiceStateChange, str]) -> None:
        with suppress(trio.ClosedResourceError, trio.BrokenResourceError, trio.WouldBlock):
            self.raw_send.send_nowait(item)

    async def emit(self, event: DiscoveryEvent) -> None:
        # A consumer that closed its end stopped listening: keep draining quietly.
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self.out.send(event)

    async def resolve_and_emit(self, name: str, scope: trio.CancelScope) -> None:
        with scope:
            assert self.zc.loop is not None
            fut = asyncio.run_coroutine_threadsafe(_resolve(self.zc, name, _RESOLVE_TIMEOUT_MS), self.zc.loop)
            try:
                info = await _wait_concurrent(fut, self.token)
            except Exception:  # a zeroconf failure resolving one peer must not end browsing
                info = None
            if self.pending.get(name) is scope:
                del self.pending[name]
            peer = _peer_from_info(info) if info is not None else None
            if peer is not None and self.known.get(name) != peer:
                self.known[name] = peer
                await self.emit(peer)

    async def pump(self, nursery: trio.Nursery) -> None:
        async for state, name in self.raw_recv:
            old = self.pending.pop(name, None)
            if old is not None:
                old.cancel()
            if state is ServiceStateChange.Removed:
                if self.known.pop(name, None) is not None:
                    await self.emit(PeerGone(name))
            else:  # Added / Updated
                scope = trio.CancelScope()
                self.pending[name] = scope
                nursery.start_soon(self.resolve_and_emit, name, scope)


@asynccontextmanager
async def browse(
    *, interfaces: str | Iterable[str] | None = None, buffer: int = 64
) -> AsyncIterator[trio.MemoryReceiveChannel[DiscoveryEvent]]:
    """Browse for players while the context is open.

    Yields a receive channel of :class:`PeerSeen` (new or changed advertisement, resolved to
    addresses/port/TXT) and :class:`PeerGone` events.  The channel is closed on exit.  This
    process's own advertisements are reported too; filter them by ``instance``.
    """
    iface_addrs = resolve_interfaces(interfaces)
    out_send, out_recv = trio.open_memory_channel[DiscoveryEvent](buffer)
    zc = await trio.to_thread.run_sync(_make_zeroconf, iface_addrs)
    browser: ServiceBrowser | None = None
    body_exc: BaseException | None = None
    try:
        state = _Browser(zc, out_send)
        async with out_send, trio.open_nursery() as nursery:
            nursery.start_soon(state.pump, nursery)
            browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[state.on_change])
            try:
                yield out_recv
            except BaseException as exc:
                # Re-raised below, outside the nursery, so the caller gets its own exception
                # back instead of an ExceptionGroup wrapping it.
                body_exc = exc
            finally:
                nursery.cancel_scope.cancel()
        if body_exc is not None:
            raise body_exc
    finally:
        # Shielded: cleanup must run even when we leave because of a cancellation.
        with trio.CancelScope(shield=True):
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel)  # joins the browser thread
            await trio.to_thread.run_sync(zc.close)


async def scan(duration: float, *, interfaces: str | Iterable[str] | None = None) -> list[PeerSeen]:
    """Browse for *duration* seconds and return the advertisements alive at the end, sorted."""
    current: dict[str, PeerSeen] = {}
    async with browse(interfaces=interfaces) as events:
        with trio.move_on_after(duration):
            async for event in events:
                if isinstance(event, PeerSeen):
                    current[event.instance] = event
                else:
                    current.pop(event.instance, None)
    return sorted(current.values(), key=lambda p: (p.txt.get("table", ""), p.instance))
