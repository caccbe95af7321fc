"""Pluck's fields in the research encoding (its ``"encoding"`` capability): quotas, the
plucks owed and made, the pluck under way and the cards the seat gave and received.

The layout is documented in docs/envs.md; :mod:`tricktaker.envs.fields` says what the
encoding asks of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricktaker.cards import NUM_CARD_IDS, SUIT_LETTERS
from tricktaker.games.declared import seat_view
from tricktaker.games.pluck.view import PluckView

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.envs.fields import ActionSpace, FieldLayout, FieldWriter

__all__ = ["ENCODING", "PluckEncoding"]

CARDS = NUM_CARD_IDS


class PluckEncoding:
    """Pluck's part of the encoding: its phases, fields and actions."""

    phases: tuple[str, ...] = ("pluck", "give_back", "call_trump")

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        """Quotas, plucks owed and made (plucker by pluckee), the pluck under way, and
        the cards given and received in plucks."""
        n = layout.players
        layout.add("quotas", n, "by relative seat: tricks it needs this hand", high=CARDS)
        layout.add(
            "plucks_owed",
            n * n,
            "[plucker*n + pluckee] (relative seats): plucks still to be made this hand",
            high=CARDS,
        )
        layout.add(
            "plucks_done",
            n * n,
            "[plucker*n + pluckee] (relative seats): plucks made this hand",
            high=CARDS,
        )
        layout.add(
            "pluck_plucker", n, "one-hot by relative seat: the plucker of the pluck under way"
        )
        layout.add(
            "pluck_pluckee", n, "one-hot by relative seat: the pluckee of the pluck under way"
        )
        layout.add(
            "pluck_card",
            CARDS,
            "one-hot by card id: the card given in the pluck under way, if seen",
        )
        layout.add("plucks_received", CARDS, "by card id: cards given to me in plucks this hand")
        layout.add("plucks_given", CARDS, "by card id: cards I gave in plucks this hand")

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        """Plucking a card, giving one back, calling the trump suit."""
        cards = tuple(range(CARDS))
        actions.add("pluck", cards, "pluck CARD: index = offset + card id")
        actions.add("give_back", cards, "give_back CARD: index = offset + card id")
        actions.add("call_trump", tuple(SUIT_LETTERS), "call_trump C, D, H, S")

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        """Write Pluck's fields from the seat's :class:`PluckView`."""
        view = _view(observation)
        if view is None:
            return
        n = out.players
        rel = out.relative
        for seat, quota in enumerate(view.quotas):
            out.set("quotas", rel(seat), quota)
        for plucker, pluckee in view.plucks_pending:
            out.add("plucks_owed", rel(plucker) * n + rel(pluckee))
        received = given = 0
        for pluck in view.plucks:
            plucker = rel(pluck.plucker)
            out.add("plucks_done", plucker * n + rel(pluck.pluckee))
            if pluck.given is None or pluck.returned is None:
                continue
            if plucker == 0:
                given |= 1 << pluck.given
                received |= 1 << pluck.returned
            else:
                received |= 1 << pluck.given
                given |= 1 << pluck.returned
        current = view.pluck_in_progress
        if current is not None:
            out.set("pluck_plucker", rel(current.plucker))
            out.set("pluck_pluckee", rel(current.pluckee))
            if current.given is not None:
                out.set("pluck_card", current.given)
        out.set_cards("plucks_received", received)
        out.set_cards("plucks_given", given)


def _view(observation: Observation) -> PluckView | None:
    """The seat's view; for an observation read from JSON (a remote seat's), the view
    read back from its wire form."""
    return seat_view(
        observation,
        PluckView,
        lambda extra: PluckView.from_json(extra, observation.rules.joker_labels),
    )


ENCODING = PluckEncoding()
"""Pluck's encoding capability."""
