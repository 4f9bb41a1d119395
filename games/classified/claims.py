"""Which claims an event makes about hidden cards, read from the rules engine: the bridge between a question the rules
ask (engine/classified/questions.py) and the set membership proof the table checks (hidden_numbers.py).

An event of Classified Information leaves in the state's `history` what it decided; the items that say something
about a card only its owner knows are the claims the entry must prove (docs/protocol.md, "Classified Information at
the table"): an answer (`answer`: the question and the yes/no), a Picking Petals number (`named`: "not my Suitcase
Number"), a card enlisted face down (`guard`: it can guard), the Big Reveal (`reveal`: each card is the number
claimed). Each becomes `(h, Claim)` with `h` the hidden card and the claim's set taken from the rules' own `truth`
with that card's face set to each number 1..9 — no rule is written twice. Every other card a question mentions (the
card picked from a hand shown, a Guard turned face up) is known to both players and read from `face_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from adp2p.engine.classified import questions
from adp2p.games.classified.hidden_numbers import Claim, claim_of

HIDDEN = {  # the question kind -> the key of the hidden card it is about
    "near": "s",
    "in_code": "s",
    "equal": "s",
    "not_suitcase": "s",
    "touch": "g",
    "guard_guild": "h",
    "claim": "h",
}

FaceOf = Callable[[int], "int | None"]


def question_claim(q: Mapping[str, Any], said: bool, face_of: FaceOf) -> tuple[int, Claim]:
    """The hidden card question `q` is about, and the claim of the answer `said`. ValueError if the question needs
    the face of another card `face_of` does not know (the table's bug: such a card is known to both players)."""
    kind = q["q"]
    h = q[HIDDEN[kind]]

    def holds(n: int) -> bool:
        got = questions.truth(dict(q), lambda k: n if k == h else face_of(k))
        if got is None:
            raise ValueError(f"the {kind} question needs a face this table does not know")
        return got

    return h, claim_of(kind.encode(), holds, said)


def event_claims(
    items: Iterable[Mapping[str, Any]], face_of: FaceOf, hidden: Callable[[int], bool]
) -> list[tuple[int, list[Claim]]]:
    """The claims the history `items` one event appended make about cards `hidden` says only their holder knows
    (the state before the event: a card every seat knows is judged by the rules at every peer, nothing to prove),
    grouped by card in the order they came: `[(h, [claim, ...]), ...]` (empty: nothing hidden is claimed)."""
    out: dict[int, list[Claim]] = {}
    for item in items:
        k = item.get("k")
        found: list[tuple[int, Claim]] = []
        if k == "answer":
            found.append(question_claim(item["question"], bool(item["yes"]), face_of))
        elif k == "named":
            found.append(question_claim(item["question"], True, face_of))
        elif k == "guard":
            found.append(question_claim({"q": "guard_guild", "h": item["h"], "seat": item["p"]}, True, face_of))
        elif k == "reveal":
            found += [question_claim({"q": "claim", "h": h, "n": n, "seat": item["p"]}, True, face_of)
                      for h, n in item["cards"]]
        for h, claim in found:
            if hidden(h):
                out.setdefault(h, []).append(claim)
    return list(out.items())
