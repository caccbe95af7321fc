"""Pluck's "triples", shared by the rules tests and the search tests.

Each triple is three cards of one effective suit when clubs are trump (the last one is
AC, LJ, BJ); dealing one card of every triple to each seat and playing triple by triple
with clubs as trump lets a test choose a hand's trick counts exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

TRIPLES: tuple[tuple[str, str, str], ...] = (
    ("2C", "3C", "4C"),
    ("5C", "6C", "7C"),
    ("8C", "9C", "10C"),
    ("JC", "QC", "KC"),
    ("AC", "LJ", "BJ"),
    ("3D", "4D", "5D"),
    ("6D", "7D", "8D"),
    ("9D", "10D", "JD"),
    ("QD", "KD", "AD"),
    ("3H", "4H", "5H"),
    ("6H", "7H", "8H"),
    ("9H", "10H", "JH"),
    ("QH", "KH", "AH"),
    ("3S", "4S", "5S"),
    ("6S", "7S", "8S"),
    ("9S", "10S", "JS"),
    ("QS", "KS", "AS"),
)


def triple_hands(winners: Sequence[int]) -> list[str]:
    """Hands in which seat ``winners[i]`` holds the top card of triple ``i``; the middle
    card goes to the seat left of it and the lowest to the seat right of it."""
    hands: list[list[str]] = [[], [], []]
    for (low, mid, top), w in zip(TRIPLES, winners, strict=True):
        hands[w].append(top)
        hands[(w + 1) % 3].append(mid)
        hands[(w + 2) % 3].append(low)
    return [" ".join(h) for h in hands]
