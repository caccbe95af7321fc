"""What the sheet offers the table to enter next, as the engine's rules allow it: the
bids the next bidder may make (and the ones refused, with the reason) and the one trick
count that makes the tricks add up. The choices of a game's own steps (Buckup's antes
and decisions) are the game's (:meth:`ScoreSheet.game_steps
<tricktaker.scorekeeper.ScoreSheet.game_steps>`).

The clients (``tricktaker score``, the browser over ``/sheets``) show these and never
restate a rule themselves.

>>> from tricktaker.scorekeeper import ScoreSheet
>>> sheet = ScoreSheet("bluke", ["John", "Margaret", "Steve", "Betsy"])
>>> offer = bid_offer(sheet)
>>> offer.seat, offer.legal[0], offer.legal[-1]
(1, 1, 13)
>>> last_tricks(13, [4, None, 4, 5])
0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tricktaker.engine import Action
from tricktaker.engine.actions import BID
from tricktaker.engine.base import BIDDING

if TYPE_CHECKING:
    from tricktaker.engine import GameState
    from tricktaker.scorekeeper.entries import CallEntry
    from tricktaker.scorekeeper.sheet import ScoreSheet

__all__ = ["BidOffer", "bid_offer", "last_tricks"]


@dataclass(frozen=True, slots=True)
class BidOffer:
    """The bids ``seat`` may make now: ``legal`` in order, and ``forbidden``, the bids
    within the hand's range (the bids its first bidder may make) that the rules refuse
    this seat now, each with the reason in the players' words (the hook's bid, a zero
    after too many)."""

    seat: int
    legal: tuple[int, ...]
    forbidden: tuple[tuple[int, str], ...] = ()

    def describe(self) -> str:
        """``1-13`` or ``0-5; not 2``: the bids as a prompt says them."""
        low, high = self.legal[0], self.legal[-1]
        text = str(low) if low == high else f"{low}-{high}"
        if self.forbidden:
            text += "; not " + ", ".join(str(bid) for bid, _ in self.forbidden)
        return text


def bid_offer(
    sheet: ScoreSheet,
    bids: Mapping[int, int | None] | None = None,
    *,
    call: CallEntry | None = None,
    trump: str | None = None,
) -> BidOffer | None:
    """The bids the next bidder may make once ``bids`` (by seat) are made, as the engine
    allows them; None when no bid is asked now (every bid given, a game without bids, a
    Caller Clag hand not yet called). Bids the rules refuse raise :class:`EntryError`."""
    if not sheet.has_bids():
        return None
    given = dict(bids or {})
    state = sheet.bidding_at(given, call=call, trump=trump)
    if state.phase != BIDDING:
        return None
    waiting = sorted(
        (s for s in state.to_act() if s not in given),
        key=lambda s: (s - state.dealer - 1) % state.players,
    )
    if not waiting:
        return None
    seat = waiting[0]
    legal = _bids(state, seat)
    if not legal:
        return None
    span = set(legal)
    if given:  # the bids of the hand's first bidder, who follows nobody's bid
        first = sheet.bidding_at({}, call=call, trump=trump)
        span.update(_bids(first, first.to_act()[0]) if first.phase == BIDDING else ())
    forbidden: list[tuple[int, str]] = []
    for value in range(min(span), max(span) + 1):
        if value in legal:
            continue
        problem = state.why_illegal(seat, Action(BID, value))
        if problem is not None:
            forbidden.append((value, sheet.bid_refusal(state, seat, value, *problem)))
    return BidOffer(seat, tuple(legal), tuple(forbidden))


def _bids(state: GameState, seat: int) -> list[int]:
    return sorted(int(a.value) for a in state.legal_actions(seat) if a.kind == BID)


def last_tricks(size: int, tricks: Sequence[int | None]) -> int | None:
    """The only count the one seat whose tricks are missing (None) can have taken so
    that the tricks add up to the hand's ``size`` (docs/scorekeeper.md); None when more
    than one count is missing or none fits."""
    missing = [s for s, t in enumerate(tricks) if t is None]
    if len(missing) != 1:
        return None
    left = size - sum(t for t in tricks if t is not None)
    return left if 0 <= left <= size else None
