"""Every domain-separation prefix used by adp2p.crypto, in one place.

Each prefix is ASCII, starts with ``adp2p/v1/`` and ends with a NUL byte; no prefix contains
another NUL, so no prefix is a prefix of another and ``domain + data`` is unambiguous.
Signatures always cover ``domain + bytes``; hashes are ``H(domain + frame(parts))``.
"""

from __future__ import annotations

PREFIX = b"adp2p/v1/"


def _d(name: str) -> bytes:
    return PREFIX + name.encode("ascii") + b"\0"


# --- signatures (Ed25519 over domain + message) ---
ENTRY = _d("entry")  # log entry header
HANDSHAKE = _d("handshake")  # p2p session handshake transcript (used by adp2p.p2p)
IDENTITY = _d("identity")  # self-signed identity bundle
PRIVATE = _d("private")  # signed payload of a private message
PASS = _d("pass")  # a standing pass in a reaction window (p2p implied passes)
ROSTER_AGREE = _d("roster/agree")  # a player's agreement to one roster and settings before a genesis (p2p/roster.py)

# --- hashes (BLAKE2b-256) ---
ENTRY_ID = _d("entry-id")  # entry id = H(ENTRY_ID, header_bytes, signature)
FINGERPRINT = _d("fingerprint")  # identity fingerprint
PRIVATE_DIGEST = _d("private-digest")  # public digest of a sealed private message
COMMIT = _d("commit")  # generic salted commitment
COMMIT_PASSWORD = _d("commit/password")  # password code commitment
ROSTER = _d("roster")  # digest of a table's settings and roster that players agree to (p2p/roster.py)
ROSTER_GAME_ID = _d("roster/game-id")  # a networked game's id from its seats' agreements (p2p/roster.py)
BEACON = _d("beacon")  # beacon pick = H(BEACON, game_id, context, link_1..link_n)
TABLE_WORD = _d("table-word")  # salt of a table's shared word: H(TABLE_WORD, table name), 16 bytes
TABLE_WORD_MAC = _d("table-word-mac")  # keyed BLAKE2b of a handshake transcript under the word's key
BEACON_LINK = _d("beacon/link")  # hash chain step
DERIVE = _d("derive")  # expansion of a beacon output into integers
CARD = _d("card")  # card point input to from_uniform (protocol versions up to 4)
SECRETS_FILE = _d("secrets-file")  # integrity check of a seat's secrets file
SHUFFLE_GENERATOR = _d("shuffle/generator")  # proof-of-shuffle generator input to from_uniform
SHUFFLE_VERIFIED = _d("shuffle/verified")  # key of a proof of shuffle this process verified (local only)
DICE_COMMIT = _d("dice/commit")  # a seat's commitment to the secret of one private roll
DICE = _d("dice")  # a private roll's seed, from the seat's secret and the beacon pick drawn after it

# --- hash to scalar (SHA-512 then reduce mod L) ---
SCHNORR = _d("schnorr")  # Schnorr challenge
DLEQ = _d("dleq")  # Chaum-Pedersen challenge
NONCE = _d("nonce")  # hedged proof nonces
INITIAL_MASK = _d("initial-mask")  # public masking scalar of a freshly built pile
CODE_PROOF = _d("code-proof")  # challenge of a proof about Pedersen-committed password codes (crypto/code_proofs.py)
SHUFFLE_U = _d("shuffle/u")  # proof of shuffle: the per-position challenges u_i
SHUFFLE_CHALLENGE = _d("shuffle/challenge")  # proof of shuffle: the Fiat-Shamir challenge
SHUFFLE_NONCE = _d("shuffle/nonce")  # proof of shuffle: hedged prover randomness
CODE_BLIND = _d("code-blind")  # a password code's Pedersen blinding, from the salt of its hash commitment
CODE_VERIFIED = _d("code/verified")  # key of a proof of distinct codes this process verified (local only)
SET_PROOF = _d("set-proof")  # challenge of a proof that a committed number is in a public set (crypto/set_proofs.py)
NUMBER_BLIND = _d("number-blind")  # a hidden card number's Pedersen blinding, from its holder's deck secret

# --- hash to curve (hash32 then crypto_core_ed25519_from_uniform) ---
PEDERSEN_H = _d("pedersen/h")  # the second Pedersen generator H (no known discrete log to G)
CARD_ID = _d("card/id")  # J, the base of the card ids in version-5 card points (a_i·G + (i+1)·J)

# --- proof contexts (inside the Schnorr/DLEQ transcript) ---
CTX_DECK_KEY = b"deck-key"
CTX_SHARE = b"share"
CTX_CODE_PROOF = b"code-proof"
CTX_SHUFFLE = b"shuffle"
CTX_NUMBER_PROOF = b"number-proof"

ALL = (
    ENTRY,
    HANDSHAKE,
    IDENTITY,
    PRIVATE,
    PASS,
    ROSTER_AGREE,
    ROSTER,
    ROSTER_GAME_ID,
    ENTRY_ID,
    FINGERPRINT,
    PRIVATE_DIGEST,
    COMMIT,
    COMMIT_PASSWORD,
    BEACON,
    TABLE_WORD,
    TABLE_WORD_MAC,
    BEACON_LINK,
    DERIVE,
    CARD,
    SECRETS_FILE,
    SHUFFLE_GENERATOR,
    SHUFFLE_VERIFIED,
    SCHNORR,
    DLEQ,
    NONCE,
    INITIAL_MASK,
    DICE_COMMIT,
    DICE,
    CODE_PROOF,
    PEDERSEN_H,
    CARD_ID,
    SHUFFLE_U,
    SHUFFLE_CHALLENGE,
    SHUFFLE_NONCE,
    CODE_BLIND,
    CODE_VERIFIED,
    SET_PROOF,
    NUMBER_BLIND,
)
