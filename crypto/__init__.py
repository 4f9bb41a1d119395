"""adp2p.crypto: the pure cryptographic core of ad-p2p (no I/O, no clock, no game logic).

Modules, one job each:

- ``errors``      exception hierarchy (messages never contain secrets)
- ``domains``     every domain-separation prefix
- ``hashing``     length-prefixed framing and domain-separated hashes
- ``encoding``    strict canonical msgpack decoding helpers
- ``identity``    per-game Ed25519 + X25519 identities and signed identity bundles
- ``entries``     signed, hash-chained log entries and equivocation proofs
- ``commitments`` salted commitments (password codes)
- ``beacon``      hash-chain joint randomness and unbiased derivations
- ``group``       Ed25519 prime-order group points/scalars, card points
- ``proofs``      Schnorr proof of knowledge and Chaum-Pedersen DLEQ proofs
- ``deck``        ElGamal mental-poker deck: keys, shuffles, shares, audit
- ``shuffle_proof`` zero-knowledge proof of a shuffle step (Terelius-Wikström)
- ``set_proofs``  a Pedersen-committed number lies in a public set (or outside it): one OR proof
- ``number_answers`` answers about a hidden Card Number 1..9 (Classified Information), each a public set
- ``private``     signed, encrypted peer-to-peer messages and their public digests
"""
