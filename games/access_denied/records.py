"""What Access Denied's table part remembers of the log: who committed which password card's code (its hash and
Pedersen commitments), every controller's answer and every trade promise (for the immediate checks and the
evidence), and the sealed answer proofs (for the audit). One `Records` per fold, shared by the part's pieces
(answers.py, links.py, openings.py, checks.py); copied with the fold."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Records:
    commitments: dict[int, bytes] = field(default_factory=dict)  # password handle -> code commitment
    pedersen: dict[int, bytes] = field(default_factory=dict)  # password handle -> Pedersen commitment to its code
    committed: dict[int, tuple[int, int]] = field(default_factory=dict)  # password handle -> (seat, seq of commitment)
    # seq of an answer -> (controller, sector, password handles, handed cards, match per card)
    answers: dict[int, tuple[int, int, tuple[int, ...], list[int], list[bool]]] = field(default_factory=dict)
    promises: list[tuple[int, int, int, int]] = field(default_factory=list)  # (seq, handle, promised code, promiser)
    # (seq, controller, attempter, the sealed answer proofs)
    answer_boxes: list[tuple[int, int, int, bytes]] = field(default_factory=list)
