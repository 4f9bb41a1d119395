"""The games' table tests reuse the adversary zoo's tables (tests/adversaries: `_zoo`, `_net`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversaries"))
