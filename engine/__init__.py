"""adp2p.engine: each game's rules, pure (no I/O, no crypto, no clock): `engine/<game>/`, package
`adp2p.engine.<game>` (`access_denied`, `hacker`, `classified`). docs/architecture.md draws the house."""
