"""Exception hierarchy of adp2p.crypto.

Every failure of a cryptographic check raises a subclass of :class:`CryptoError`.
Messages say what was wrong (which field, which seat, which step) and never contain
secret material (secret keys, unopened salts, permutations, seeds, masking scalars). The hierarchy imports nothing:
every other module of the package imports it (an error that carries a structure, `Equivocation` with its proof,
lives beside that structure, in entries.py).
"""

from __future__ import annotations


class CryptoError(Exception):
    """Base class of every error raised by adp2p.crypto."""


class MalformedEncoding(CryptoError):
    """Bytes that do not decode to the expected canonical structure (type, length, trailing bytes)."""


class InvalidSignature(CryptoError):
    """An Ed25519 signature that does not verify."""


class InvalidProof(CryptoError):
    """A zero-knowledge proof (Schnorr, DLEQ) or an equivocation proof that does not verify."""


class FalseStatement(CryptoError):
    """A prover asked to prove what its secret does not satisfy (a match for a code the password lacks, ...).

    Raised by an honest prover before it computes anything: it never makes a proof of a false statement."""


class InvalidPoint(CryptoError):
    """A group element that is not a canonical point of the prime-order subgroup (or is the identity)."""


class InvalidScalar(CryptoError):
    """A scalar that is not a canonical 32-byte little-endian integer below the group order."""


class ChainError(CryptoError):
    """A log whose entries are not consecutive, not linked by hash, or not of one game."""


class CommitmentMismatch(CryptoError):
    """A commitment opened to a value (or with a salt) it does not commit to."""


class DecryptionError(CryptoError):
    """A ciphertext that does not decrypt (shares missing, or the result is not a card point)."""


class DecryptionFailed(CryptoError):
    """A sealed private message that does not decrypt (wrong keys or tampered ciphertext)."""


class ShuffleError(CryptoError):
    """A shuffle step that is malformed or does not match its revealed witness.

    ``seat`` is the shuffler's seat index (or None when no single shuffler is to blame) and
    ``step`` the index of the shuffle step in the pile's history (or None).
    """

    def __init__(self, message: str, *, seat: int | None = None, step: int | None = None) -> None:
        where = []
        if seat is not None:
            where.append(f"shuffler seat {seat}")
        if step is not None:
            where.append(f"step {step}")
        super().__init__(f"{message} ({', '.join(where)})" if where else message)
        self.seat = seat
        self.step = step


class BeaconError(CryptoError):
    """A revealed beacon link that does not hash forward to the previous one. ``seat`` names whose link."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(f"{message} (seat {seat})" if seat is not None else message)
        self.seat = seat
