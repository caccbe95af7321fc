"""The learned bid model: how a sensible player's bid follows from its cards.

The search bots weigh a sampled deal by how well it explains the bids already made
(:mod:`tricktaker.bots.search_ohhell`), which needs each card's worth in tricks as a
bidder counts it. Its formula (a card wins if no unseen card beats it) suits small
hands; in a hand of 12 among four it gives the ace of trumps about 12 tricks and a
side ace none, so that the bids told the deals almost nothing. This module gives,
where it has one, a table fitted to the hard bot's own bids instead
(``examples/train_bid_model.py`` trains it; the package ships the result as
``bid_model.json``):

    bid = intercept + sum over the hand's cards of value[trump or side suit][rank]

per number of players and hand size, for the Oh Hell family's hands with a trump suit
from the 52-card deck. A table is used only where it predicted the held-out bids
better than the formula (the file keeps both errors). Elsewhere (no trump, jokers,
Blukes, bowers, a size without a table) the formula stays.

>>> from tricktaker.engine.tables import build_tables
>>> table = tables()[(4, 12)]
>>> table.error_sd < table.formula_error_sd
True
>>> values = table_values(table, trump=3, hand_size=12)
>>> 0.0 < values[3 * 13 + 12] - values[0] < 3.0  # the ace of trumps against a side two
True
"""

from __future__ import annotations

import functools
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tricktaker.engine.observation import Observation
from tricktaker.engine.setup import Setup
from tricktaker.engine.tables import CardTables

__all__ = [
    "MODEL_PATH",
    "MODEL_VERSION",
    "BidTable",
    "hand_features",
    "learned_values",
    "table_values",
    "tables",
    "use",
    "values_for",
]

MODEL_VERSION: Final = 1
"""The model file's format; a file of another version is refused."""

MODEL_PATH: Final = Path(__file__).with_name("bid_model.json")
"""The shipped model (``examples/train_bid_model.py`` writes it)."""

RANKS: Final = 13
PLAIN_DECK: Final = tuple(range(52))


@dataclass(frozen=True, slots=True)
class BidTable:
    """One fitted table: the worth of a trump and of a side card of each rank (two
    first, ace last), the intercept, and the held-out errors (tricks, root mean square)
    of the table and of the formula."""

    trump: tuple[float, ...]
    side: tuple[float, ...]
    intercept: float
    error_sd: float
    formula_error_sd: float


def hand_features(hand: int, trump: int) -> list[float]:
    """The hand's cards counted by kind: trumps of each rank, then side cards of each
    rank (a 52-card deck, card ``suit * 13 + rank``)."""
    counts = [0.0] * (2 * RANKS)
    for card in range(52):
        if (hand >> card) & 1:
            suit, rank = divmod(card, RANKS)
            counts[(0 if suit == trump else RANKS) + rank] += 1.0
    return counts


_in_use: list[Path | None] = [MODEL_PATH]
"""The model file the bots read (:func:`use`)."""


def use(path: Path | None) -> None:
    """Make the bots of this process read the model file ``path`` (None: no tables, the
    formula everywhere): the training script's rounds. Call it before any search, as a
    worker process starts; hands already seen keep their values."""
    _in_use[0] = path
    values_for.cache_clear()


def tables(path: Path | None = None) -> dict[tuple[int, int], BidTable]:
    """The tables of the model file ``path`` (default: the one in use) by (players,
    hand size), those that beat the formula only."""
    chosen = _in_use[0] if path is None else path
    return {} if chosen is None else _read(chosen)


@functools.cache
def _read(path: Path) -> dict[tuple[int, int], BidTable]:
    data = json.loads(path.read_text())
    if data.get("version") != MODEL_VERSION:
        raise ValueError(
            f"{path}: bid model version {data.get('version')!r}, this tricktaker reads "
            f"{MODEL_VERSION}"
        )
    out: dict[tuple[int, int], BidTable] = {}
    for key, entry in data["tables"].items():
        players, _, size = key.partition("x")
        table = BidTable(
            trump=tuple(float(v) for v in entry["trump"]),
            side=tuple(float(v) for v in entry["side"]),
            intercept=float(entry["intercept"]),
            error_sd=float(entry["error_sd"]),
            formula_error_sd=float(entry["formula_error_sd"]),
        )
        if len(table.trump) != RANKS or len(table.side) != RANKS:
            raise ValueError(f"{path}: table {key} needs {RANKS} values a kind")
        if table.error_sd < table.formula_error_sd:
            out[int(players), int(size)] = table
    return out


def table_values(table: BidTable, *, trump: int, hand_size: int) -> list[float]:
    """Each card's worth under ``table`` (54 entries, the jokers 0), the intercept
    shared out over the hand's cards so that a hand's estimate is its cards' sum."""
    share = table.intercept / hand_size
    values = [0.0] * 54
    for card in range(52):
        suit, rank = divmod(card, RANKS)
        values[card] = (table.trump[rank] if suit == trump else table.side[rank]) + share
    return values


def _trump_suit(tables_: CardTables, deck: tuple[int, ...]) -> int | None:
    """The trump suit of a hand the tables are for, else None: the 52 plain cards, one
    trump suit of 13, every card in its own suit, ranked two to ace."""
    if tuple(sorted(deck)) != PLAIN_DECK:
        return None
    whole = (1 << RANKS) - 1
    trump = next((s for s in range(4) if tables_.trump_mask == whole << (RANKS * s)), None)
    if trump is None:
        return None
    for suit in range(4):
        cards = range(suit * RANKS, (suit + 1) * RANKS)
        if any(tables_.suit_of[card] != suit for card in cards):
            return None
        keys = [tables_.key(card, suit) for card in cards]
        if any(low >= high for low, high in itertools.pairwise(keys)):
            return None
    return trump


@functools.lru_cache(maxsize=256)
def values_for(
    players: int, hand_size: int, tables_: CardTables | None, deck: tuple[int, ...]
) -> tuple[float, ...] | None:
    """Each card's worth in tricks by the learned table for a hand of ``hand_size``
    among ``players`` with these card tables and deck, or None where there is none
    (see the module notes)."""
    table = tables().get((players, hand_size))
    if table is None or tables_ is None:
        return None
    trump = _trump_suit(tables_, deck)
    if trump is None:
        return None
    return tuple(table_values(table, trump=trump, hand_size=hand_size))


def learned_values(obs: Observation) -> tuple[float, ...] | None:
    """:func:`values_for` of ``obs``'s hand."""
    deck = Setup.of(obs.rules, obs.players).deck
    return values_for(obs.players, obs.hand_size, obs.tables, deck)
