"""Test helpers shared by every test directory live in tests/support (importable as top-level modules)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "support"))

# `./dev test` sets ADP2P_COMMAND (how a player re-runs us, for resume hints): the tests expect the plain
# console-script name in every hint, so neither they nor the processes they start see it
import os

os.environ.pop("ADP2P_COMMAND", None)
