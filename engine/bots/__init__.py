"""Bots: strategies that choose only among the engine's legal events."""
