"""The board's geometry: departments in a ring around the cafeteria, and the 5x5 hack pad (squares, rings,
neighbours, the hack table's ring counts)."""

from __future__ import annotations

from functools import cache

CAFE = 6  # the cafeteria's location number (departments are 0..5, printed 1..6)
PLACES = 4  # the terminal + three queue places per department (hacker-setup.md)
COLS = "ABCDE"
CENTRE = "C3"


def adjacent(open_depts: list[int], d: int) -> list[int]:
    """The departments directly left and right of d in the ring of open departments (004:52)."""
    i = open_depts.index(d)
    m = len(open_depts)
    return sorted({open_depts[(i - 1) % m], open_depts[(i + 1) % m]} - {d})


@cache
def squares() -> tuple[str, ...]:
    return tuple(f"{c}{r}" for c in COLS for r in range(1, 6))


def _xy(sq: str) -> tuple[int, int]:
    return COLS.index(sq[0]), int(sq[1:]) - 1


def is_square(sq: object) -> bool:
    return isinstance(sq, str) and sq in squares()


def ring(sq: str) -> int:
    """0 = outer (16 squares), 1 = middle (8), 2 = centre (004:114)."""
    x, y = _xy(sq)
    return 2 - max(abs(x - 2), abs(y - 2)) if max(abs(x - 2), abs(y - 2)) < 2 else 0


@cache
def neighbours(sq: str) -> frozenset[str]:
    """Horizontally, vertically or diagonally next to sq (004:118)."""
    x, y = _xy(sq)
    return frozenset(s for s in squares() if s != sq and max(abs(_xy(s)[0] - x), abs(_xy(s)[1] - y)) == 1)


def outer() -> list[str]:
    return [s for s in squares() if ring(s) == 0]


def ring_counts(checks: list[str]) -> tuple[int, int, int]:
    out = [0, 0, 0]
    for s in checks:
        out[ring(s)] += 1
    return out[0], out[1], out[2]
