"""What a finished hand leaves behind: the full log used by simulation output and replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tricktaker.cards import SUIT_NAMES, format_card


class FrozenDict(dict[str, Any]):
    """A dict that refuses changes (results are shared with every observation)."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a finished hand's data cannot be changed")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        return FrozenDict, (dict(self),)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


class FrozenList(list[Any]):
    """A list that refuses changes (it still equals a plain list with the same items)."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a finished hand's data cannot be changed")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return FrozenList, (list(self),)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))


_PLAIN = frozenset({int, str, float, bool, type(None)})
"""The types :func:`freeze` returns as they are without looking further (the common
leaves of a hand's data)."""


def freeze(value: Any) -> Any:
    """``value`` with every dict and list (deeply) made read-only.

    >>> frozen = freeze({"auction": [[0, "pass"], [1, "4H"]], "kitty": ("AS",), "n": 3})
    >>> type(frozen).__name__, type(frozen["auction"][1]).__name__, frozen["kitty"]
    ('FrozenDict', 'FrozenList', ('AS',))
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    plain = _PLAIN
    # A container of plain values only (most of a hand's data) is copied whole.
    if isinstance(value, dict):
        if plain.issuperset(map(type, value.values())):
            return FrozenDict(value)
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        if plain.issuperset(map(type, value)):
            return FrozenList(value)
        return FrozenList([freeze(v) for v in value])
    if isinstance(value, tuple):
        if plain.issuperset(map(type, value)):
            return value if kind is tuple else tuple(value)
        return tuple([freeze(v) for v in value])
    return value


def outcome_of(bid: int, tricks: int) -> str:
    """``S`` (set: fewer tricks than bid), ``O`` (over) or ``P`` (perfect: exactly the bid).

    >>> outcome_of(3, 2), outcome_of(3, 4), outcome_of(3, 3)
    ('S', 'O', 'P')
    """
    if tricks < bid:
        return "S"
    return "O" if tricks > bid else "P"


@dataclass(frozen=True, slots=True)
class HandResult:
    """One completed hand, with everything needed to check it by hand.

    ``deal`` holds each seat's cards when play began (for a pile hand, the pile in
    the order it was played). ``special`` names a special hand and its settings.
    """

    number: int
    hand_size: int
    dealer: int
    trump: int | None
    turn_up: int | None
    deal: tuple[tuple[int, ...], ...]
    bids: tuple[int, ...]
    trick_cards: tuple[tuple[tuple[int, int], ...], ...]
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...]
    hand_scores: tuple[int, ...]
    total_scores: tuple[int, ...]
    special: dict[str, Any] | None = None
    all_exact: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    seen_by: dict[int, HandResult] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The hand as each seat may see it, by seat, once the game's hooks redacted it for
    that seat (a hand never changes, so it is redacted once, not at every observation)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "special", freeze(self.special))
        object.__setattr__(self, "extra", freeze(self.extra))

    def to_json(self, *, labels: tuple[str, str] = ("HB", "LB")) -> dict[str, Any]:
        """The hand as plain JSON data, cards written ``AS``, ``10H``, ``HB``."""

        def card(c: int) -> str:
            return format_card(c, labels=labels)

        data: dict[str, Any] = {
            "hand": self.number,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "trump": SUIT_NAMES[self.trump] if self.trump is not None else None,
            "turn_up": card(self.turn_up) if self.turn_up is not None else None,
            "deal": [[card(c) for c in cards] for cards in self.deal],
            "bids": list(self.bids),
            "trick_cards": [[[seat, card(c)] for seat, c in trick] for trick in self.trick_cards],
            "tricks": list(self.tricks),
            "trick_winners": list(self.trick_winners),
            "hand_scores": list(self.hand_scores),
            "total_scores": list(self.total_scores),
            "all_exact": self.all_exact,
        }
        if self.special is not None:
            data["special"] = self.special
        data.update(self.extra)
        return data

    def outcome(self, seat: int) -> str:
        """``S`` (set: fewer tricks than bid), ``O`` (over) or ``P`` (perfect) for ``seat``."""
        return outcome_of(self.bids[seat], self.tricks[seat])
