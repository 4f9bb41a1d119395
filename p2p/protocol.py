"""The table protocol's vocabulary: entry kinds, the genesis record, and strict codecs for entry bodies.

An entry body is canonical msgpack of a map with string keys (see docs/protocol.md, "The table"). The
header that signs it is crypto.entries'; this module only says what a body of each kind must hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from adp2p.crypto.encoding import pack, unpack_canonical
from adp2p.crypto.errors import MalformedEncoding
from adp2p.crypto.identity import PublicIdentity, open_bundle
from adp2p.p2p.game import DEFAULT_GAME

GENESIS_FIELDS = frozenset(
    {"v", "table", "profile", "goal", "round_limit", "roster", "game_id", "chain", "stalemate", "game", "agreed"}
)  # every field a genesis body may hold (docs/protocol.md, "Entry bodies")
PROTOCOL_VERSION = 7  # 2: shuffle, password and answer entries carry proofs; 3: first answers carry link proofs;
# 4: Hacker's claimed faces are checked from the shares and its unopened seals revealed in `secrets` (bounded);
# 5: the handshake may carry a table's word (p2p/table_word.py); strangers' frames are bounded (p2p/transport);
#    card points linear in the card's attribute (a·G + id·J) and constant-size card link proofs (crypto/card_link.py)
#    results are final (evidence that may not take a seq, `refused` evidence, witnesses only for piles shuffled)
# 6: a networked genesis carries its seats' roster agreements (`agreed`, p2p/roster.py) and its game id is theirs;
#    a second accuser's evidence at a seq already taken (`also`, p2p/machine/second_accuser.py)
# 7: `protest` evidence (p2p/machine/protest.py) and Classified's hand mix (ruling C-MIX, games/classified/mixing.py);
#    a version-6 log folds with neither (no mix is due, `protest` is unknown evidence); `left` is of version 6
AUDITABLE_VERSIONS = (4, 5, 6, 7)  # the versions whose logs this code audits and replays (it plays only the newest)
MAX_PLAYERS = 6
MAX_ROUNDS = 10_000  # the most rounds a genesis may name for the round limit or the stalemate rule
CHAIN_LENGTH = 4096  # beacon links per player: far more than any game's random picks


class Kind(IntEnum):
    GENESIS = 0
    JOIN = 1
    LINK = 2
    SHUFFLE = 3
    SHARES = 4
    EVENT = 5
    SECRETS = 6
    ABANDON = 7
    EVIDENCE = 8


class BodyError(ValueError):
    """A body that is not of its kind's shape."""


class ProtocolError(Exception):
    """An entry breaks the protocol or the rules; `seat` is at fault (None: no single seat)."""

    def __init__(self, seat: int | None, msg: str, *, rule: str | None = None) -> None:
        super().__init__(f"seat {seat + 1}: {msg}" if seat is not None else msg)
        self.seat = seat
        self.msg = msg
        self.rule = rule  # the rule a verdict on this entry names (None: "entry", a rule break of its own)


class SealedFault(ProtocolError):
    """A fault inside a box sealed to this peer (a controller's answer proofs): only this peer can see it, so the
    evidence it posts carries its box secret, checked against its published key before anything is opened."""


def encode_body(body: dict[str, Any]) -> bytes:
    return pack(body)


def decode_body(raw: bytes) -> dict[str, Any]:
    try:
        body = unpack_canonical(raw, "entry body")
    except MalformedEncoding as exc:
        raise BodyError(str(exc)) from None
    if not isinstance(body, dict):
        raise BodyError("an entry body is a map")
    return body


def need(
    body: dict[str, Any],
    key: str,
    typ: type | tuple[type, ...],
    *,
    size: int | None = None,
    max_len: int | None = None,
) -> Any:
    """Field `key` of `body`, of type `typ` (bool is never an int), of length `size` (or at most `max_len`) for
    bytes/lists."""
    if key not in body:
        raise BodyError(f"missing field {key!r}")
    v = body[key]
    if isinstance(v, bool) and bool not in (typ if isinstance(typ, tuple) else (typ,)):
        raise BodyError(f"field {key!r} has the wrong type")
    if not isinstance(v, typ):
        raise BodyError(f"field {key!r} has the wrong type ({type(v).__name__})")
    if size is not None and len(v) != size:
        raise BodyError(f"field {key!r} must have length {size}")
    if max_len is not None and len(v) > max_len:
        raise BodyError(f"field {key!r} is longer than {max_len}")
    return v


def _agreed(body: dict[str, Any], n: int) -> tuple[tuple[int, bytes, bytes], ...]:
    """The seats' roster agreements a genesis carries (none, or exactly one [turn, nonce(16), sig(64)] per seat);
    their signatures are checked by the joiner (p2p/roster.py), not here."""
    if "agreed" not in body:
        return ()
    rows = need(body, "agreed", list)
    if len(rows) != n:
        raise BodyError("a genesis carries one roster agreement per seat")
    out = []
    for row in rows:
        if (
            not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], int) or isinstance(row[0], bool)
            or not 1 <= row[0] < 1 << 32 or not isinstance(row[1], bytes) or len(row[1]) != 16
            or not isinstance(row[2], bytes) or len(row[2]) != 64
        ):
            raise BodyError("a roster agreement is [turn 1..2^32-1, nonce of 16 bytes, signature of 64 bytes]")
        out.append((row[0], row[1], row[2]))
    return tuple(out)


@dataclass(frozen=True)
class Genesis:
    """What every player signs up to: the table, the rules, the roster (seat order) and the game id."""

    table: str
    profile: str
    goal: int | None
    round_limit: int | None
    roster: tuple[bytes, ...]  # identity bundles; seat i = roster[i]
    game_id: bytes
    chain_length: int = CHAIN_LENGTH
    stalemate: int | None = None  # rounds without an access change that end the game (a table rule); None: never
    game: str = DEFAULT_GAME  # the game played (p2p/game.py); the body names it only when it is not the default
    version: int = PROTOCOL_VERSION  # the protocol version the log is played under (an older one: audit, replay)
    agreed: tuple[tuple[int, bytes, bytes], ...] = ()  # per seat: (turn, nonce, signature) of its roster agreement
    # (p2p/roster.py); a networked genesis carries one for every seat, a local (offline) table's none

    def to_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "v": self.version,
            "table": self.table,
            "profile": self.profile,
            "goal": self.goal if self.goal is not None else 0,
            "round_limit": self.round_limit if self.round_limit is not None else 0,
            "roster": list(self.roster),
            "game_id": self.game_id,
            "chain": self.chain_length,
            "stalemate": self.stalemate if self.stalemate is not None else 0,
        }
        if self.game != DEFAULT_GAME:  # an Access Denied genesis is byte for byte what it was before games had names
            body["game"] = self.game
        if self.agreed:  # (absent from an offline table's genesis, which is byte for byte what it was)
            body["agreed"] = [[turn, nonce, sig] for turn, nonce, sig in self.agreed]
        return body

    @classmethod
    def from_body(cls, body: dict[str, Any], *, versions: tuple[int, ...] = (PROTOCOL_VERSION,)) -> Genesis:
        """The genesis of a body; `versions`: the protocol versions accepted (to play: this one only; the audit
        and the replay take `AUDITABLE_VERSIONS`)."""
        if need(body, "v", int) not in versions:
            known = " or ".join(map(str, versions))
            raise BodyError(f"protocol version {body['v']} is not {known}")
        extra = set(body) - GENESIS_FIELDS
        if extra:  # one encoding per genesis: a field no peer reads would change its bytes and nothing else
            raise BodyError(f"unknown genesis field(s) {sorted(map(str, extra))[:4]}")
        roster = need(body, "roster", list)
        if not 2 <= len(roster) <= MAX_PLAYERS or any(not isinstance(b, bytes) for b in roster):
            raise BodyError("the roster lists 2 to 6 identity bundles")
        g = cls(
            table=need(body, "table", str),
            profile=need(body, "profile", str),
            goal=need(body, "goal", int) or None,
            round_limit=need(body, "round_limit", int) or None,
            roster=tuple(roster),
            game_id=need(body, "game_id", bytes, size=16),
            chain_length=need(body, "chain", int),
            stalemate=need(body, "stalemate", int) or None,
            game=need(body, "game", str, max_len=32) if "game" in body else DEFAULT_GAME,
            version=body["v"],
            agreed=_agreed(body, len(roster)),
        )
        if "game" in body and g.game == DEFAULT_GAME:
            raise BodyError(f"a genesis of {DEFAULT_GAME} does not name its game (one encoding per genesis)")
        if not 16 <= g.chain_length <= 65536:
            raise BodyError("beacon chain length out of range")
        if not 0 <= (g.stalemate or 0) <= MAX_ROUNDS or not 0 <= (g.round_limit or 0) <= MAX_ROUNDS:
            raise BodyError(f"a round limit or stalemate count is 0 (none) to {MAX_ROUNDS} rounds")
        ids = g.identities()
        keys = [i.sign_pk for i in ids]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            raise BodyError("the roster must be sorted by signing key, without repeats")
        return g

    def identities(self) -> list[PublicIdentity]:
        try:
            return [open_bundle(b)[0] for b in self.roster]
        except Exception as exc:
            raise BodyError(f"a roster bundle does not verify: {exc}") from None

    def names(self) -> list[str]:
        """The players' names by seat, unique at the table: a name two players chose is told apart by the start
        of each one's key fingerprint ("player #9f07"), the same at every peer."""
        opened = [open_bundle(b) for b in self.roster]
        plain = [name for _, name, _ in opened]
        for digits in (4, 9, 14, 19):  # "9f07", then "9f07-8df4", ...: as much as tells them apart
            out = [
                name if plain.count(name) == 1 else f"{name} #{ident.fingerprint()[:digits]}"
                for ident, name, _ in opened
            ]
            if len(set(out)) == len(out):
                break
        return out

    @property
    def n(self) -> int:
        return len(self.roster)
