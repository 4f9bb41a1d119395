"""adp2p.cli."""
