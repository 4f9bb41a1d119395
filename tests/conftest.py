"""Test helpers shared by every test directory live in tests/support (importable as top-level modules)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "support"))
