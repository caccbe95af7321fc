"""Buckup's fields in the research encoding (its ``"encoding"`` capability): chips, the
pot, the ante, each seat's status, the stock and draws, the seat's own discards and
draws, the scare cards.

The layout is documented in docs/envs.md; :mod:`tricktaker.envs.fields` says what the
encoding asks of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricktaker.envs.encoding import BIG, CARDS, UNBOUNDED
from tricktaker.games.buckup.hooks import ANTE_ACTION, BARE_ACTIONS, DISCARD, SEAT_STATUSES
from tricktaker.games.buckup.money import ANTE_CHOICES
from tricktaker.games.buckup.view import BuckupView
from tricktaker.games.declared import seat_view

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.envs.fields import ActionSpace, FieldLayout, FieldWriter

__all__ = ["ENCODING", "BuckupEncoding"]

_STATUS_INDEX = {name: index for index, name in enumerate(SEAT_STATUSES)}


class BuckupEncoding:
    """Buckup's part of the encoding: its phases, fields and actions."""

    phases: tuple[str, ...] = (
        "ante",
        "dealing",
        "redeal",
        "stay_or_fold",
        "come_back",
        "dealer_choice",
        "discard",
        "draw",
        "restock",
        "play",
    )

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        """Stacks, pot, ante, status, stock, draws, the seat's discards and draws, scare
        cards."""
        n = layout.players
        layout.add(
            "stacks",
            n,
            "by relative seat: chips in front of the seat",
            low=-UNBOUNDED,
            high=UNBOUNDED,
        )
        layout.add("pot", 1, "chips in the pot", low=-UNBOUNDED, high=UNBOUNDED)
        layout.add(
            "ante",
            5,
            "the ante named: ante, fold fee, fee per card, fee per card kept (1/0),"
            " fee per card drawn (1/0); zeros before",
            high=BIG,
        )
        layout.add(
            "status",
            n * 4,
            "relative seat k at [k*4 : k*4+4], one-hot: undecided, in, out, out for now",
        )
        layout.add("stock", 1, "cards left in the stock", high=CARDS)
        layout.add("drawn", n, "by relative seat: cards drawn this hand, when public", high=CARDS)
        layout.add("drawn_known", 1, "1 when the field drawn is public (no fee per card)")
        layout.add("my_discards", CARDS, "by card id: the cards I discarded this hand")
        layout.add("my_draws", CARDS, "by card id: the cards I drew this hand")
        layout.add(
            "scare_cards",
            n * CARDS,
            "relative seat k at [k*54 : k*54+54], one-hot by card id: its face-up scare card",
        )
        layout.add("scare_discarded", n, "by relative seat: 1 when its scare card was discarded")

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        """The ante named, the decisions without a value, the discards."""
        actions.add(ANTE_ACTION, ANTE_CHOICES, "ante STRUCTURE: " + ", ".join(ANTE_CHOICES))
        for bare in BARE_ACTIONS:
            actions.add(bare, (), bare)
        actions.add(DISCARD, tuple(range(CARDS)), "discard CARD: index = offset + card id")

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        """Write Buckup's fields from the seat's :class:`BuckupView`."""
        view = _view(observation)
        if view is None:
            return
        rel = out.relative
        for seat, chips in enumerate(view.stacks):
            out.set("stacks", rel(seat), chips)
        out.set("pot", 0, view.pot)
        ante = view.ante
        if ante is not None:
            out.set("ante", 0, ante.ante)
            out.set("ante", 1, ante.fold_fee)
            out.set("ante", 2, ante.card_fee)
            out.set("ante", 3 if ante.fee_per == "kept" else 4)
        for seat, status in enumerate(view.status):
            out.set("status", rel(seat) * 4 + _STATUS_INDEX[status])
        out.set("stock", 0, view.stock)
        if view.drawn is not None:
            out.set("drawn_known")
            for seat, count in enumerate(view.drawn):
                out.set("drawn", rel(seat), count)
        for name, cards in (("my_discards", view.discarded), ("my_draws", view.drew)):
            for card in cards or ():
                out.set(name, card)
        for seat, scare in enumerate(view.scare_cards or ()):
            if scare is not None:
                out.set("scare_cards", rel(seat) * CARDS + scare)
        for seat, gone in enumerate(view.scare_discarded or ()):
            out.set("scare_discarded", rel(seat), float(gone))


def _view(observation: Observation) -> BuckupView | None:
    """The seat's view; for an observation read from JSON (a remote seat's), the view
    read back from its wire form."""
    return seat_view(observation, BuckupView, BuckupView.from_json)


ENCODING = BuckupEncoding()
"""Buckup's encoding capability."""
