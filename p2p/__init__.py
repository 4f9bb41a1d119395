"""adp2p.p2p."""
