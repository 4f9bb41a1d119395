"""Classified Information at the table (issue 31): what the table needs of the game beyond its rules
(engine/classified/). So far the proved answers about its hidden cards (`hidden_numbers.py`); the `Game` and its
registration come when the rules engine and the one-shape Machine have landed (docs/protocol.md, "Classified
Information at the table")."""
