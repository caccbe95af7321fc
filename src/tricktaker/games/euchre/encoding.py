"""Euchre's fields in the research encoding (its ``"encoding"`` capability): the auction,
the contract, the kitty and discards (the declarer's only), the partnerships' points and
tricks, the target.

The layout is documented in docs/envs.md; :mod:`tricktaker.envs.fields` says what the
encoding asks of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricktaker.envs.encoding import BIG, CARDS, UNBOUNDED
from tricktaker.games.declared import seat_view
from tricktaker.games.euchre.hooks import BIDS, PASS
from tricktaker.games.euchre.view import EuchreView

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.envs.fields import ActionSpace, FieldLayout, FieldWriter

__all__ = ["ENCODING", "EuchreEncoding"]

CALLS = len(BIDS) + 1
"""Slots of one seat's auction calls: every bid, then pass."""
_BID_INDEX = {text: index for index, text in enumerate(BIDS)}


class EuchreEncoding:
    """Euchre's part of the encoding: its phases, fields and actions."""

    phases: tuple[str, ...] = ("deal", "auction", "discard", "play")

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        """The auction's calls, the high bid, the contract, the kitty and discards, the
        partnerships' points and tricks (mine first) and the target."""
        n = layout.players
        layout.add(
            "auction_calls",
            n * CALLS,
            f"relative seat k at [k*{CALLS} : k*{CALLS}+{CALLS}]: 1 for each bid it made"
            " (3S 3C 3H 3D 4S .. 5D NT), last slot: it passed",
        )
        layout.add("high_bid", len(BIDS), "one-hot: the high bid so far (3S .. NT)")
        layout.add("high_bidder", n, "one-hot by relative seat: who made the high bid")
        layout.add("declarer", n, "one-hot by relative seat: the declarer, once the auction is won")
        layout.add("contract_tricks", 1, "tricks the declarer's side must take (0 before)", high=5)
        layout.add("kitty", CARDS, "by card id: the kitty's cards (seen by the declarer only)")
        layout.add("discards", CARDS, "by card id: the declarer's discards (the declarer only)")
        layout.add(
            "team_scores",
            2,
            "points of my partnership, then the other's",
            low=-UNBOUNDED,
            high=UNBOUNDED,
        )
        layout.add(
            "team_tricks", 2, "tricks of my partnership, then the other's, this hand", high=CARDS
        )
        layout.add("target", 1, "points that win the game", high=BIG)

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        """Bidding, passing, the declarer's discards."""
        actions.add("auction", BIDS, "auction BID, 3S 3C 3H 3D 4S .. 5D NT")
        actions.add(PASS, (), "pass")
        actions.add("discard", tuple(range(CARDS)), "discard CARD: index = offset + card id")

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        """Write Euchre's fields from the seat's :class:`EuchreView`."""
        view = _view(observation)
        if view is None:
            return
        rel = out.relative
        for seat, text in view.auction:
            slot = CALLS - 1 if text == PASS else _BID_INDEX[text]
            out.set("auction_calls", rel(seat) * CALLS + slot)
        if view.high_bid is not None:
            seat, bid = view.high_bid
            out.set("high_bid", _BID_INDEX[bid])
            out.set("high_bidder", rel(seat))
        contract = view.contract
        if contract is not None:
            out.set("declarer", rel(contract.declarer))
            out.set("contract_tricks", 0, contract.tricks)
        for name, cards in (("kitty", view.kitty), ("discards", view.discards)):
            for card in cards or ():
                out.set(name, card)
        teams = observation.partnerships
        mine = next((i for i, team in enumerate(teams) if observation.seat in team), 0)
        for name, values in (("team_scores", view.team_scores), ("team_tricks", view.team_tricks)):
            if len(values) == 2:
                out.set(name, 0, values[mine])
                out.set(name, 1, values[1 - mine])
        out.set("target", 0, view.target)


def _view(observation: Observation) -> EuchreView | None:
    """The seat's view; for an observation read from JSON (a remote seat's), the view
    read back from its wire form."""
    return seat_view(observation, EuchreView, EuchreView.from_json)


ENCODING = EuchreEncoding()
"""Euchre's encoding capability."""
