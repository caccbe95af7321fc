"""A seat's JSON view (``docs/protocol.md``, Views) back into an :class:`Observation`.

The server writes each view from ``state.observe(seat)``; this module reads it back, so
a remote seat is shown and played with the same code as ``tricktaker play`` and the bots.
What the view leaves out is rebuilt from the rules: the card tables of the hand once the
trump is known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktaker.cards import SUIT_NAMES, parse_card
from tricktaker.engine import Action, Observation
from tricktaker.engine.results import HandResult
from tricktaker.engine.setup import Setup
from tricktaker.engine.tables import CardTables, build_tables
from tricktaker.rules.ruleset import Ruleset

_HAND_FIELDS = frozenset(
    {
        "hand",
        "hand_size",
        "dealer",
        "trump",
        "turn_up",
        "deal",
        "bids",
        "trick_cards",
        "tricks",
        "trick_winners",
        "hand_scores",
        "total_scores",
        "all_exact",
        "special",
    }
)


class ViewError(ValueError):
    """A view that does not fit the game's rules (a server of another version)."""


def _suit(name: str | None) -> int | None:
    return None if name is None else SUIT_NAMES.index(name)


def hand_result(data: dict[str, Any], labels: tuple[str, str]) -> HandResult:
    """A finished hand from its JSON (``HandResult.to_json``); the game's own keys go
    back into ``extra``."""

    def card(text: str) -> int:
        return parse_card(text, labels=labels)

    return HandResult(
        number=data["hand"],
        hand_size=data["hand_size"],
        dealer=data["dealer"],
        trump=_suit(data["trump"]),
        turn_up=card(data["turn_up"]) if data["turn_up"] is not None else None,
        deal=tuple(tuple(card(c) for c in cards) for cards in data["deal"]),
        bids=tuple(data["bids"]),
        trick_cards=tuple(
            tuple((seat, card(c)) for seat, c in trick) for trick in data["trick_cards"]
        ),
        tricks=tuple(data["tricks"]),
        trick_winners=tuple(data["trick_winners"]),
        hand_scores=tuple(data["hand_scores"]),
        total_scores=tuple(data["total_scores"]),
        special=data.get("special"),
        all_exact=bool(data.get("all_exact", False)),
        extra={k: v for k, v in data.items() if k not in _HAND_FIELDS},
    )


def card_tables(
    rules: Ruleset, players: int, trump: int | None, call: dict[str, Any] | None
) -> CardTables:
    """How the cards rank this hand, as the engine sets them once the trump is known."""
    setup = Setup.of(rules, players)  # built once, kept by the ruleset
    modifiers: Sequence[str] = (call or {}).get("modifiers") or ()
    precedence = next(
        (
            tuple("CDHS".index(ch) for ch in m.removeprefix("precedence_"))
            for m in modifiers
            if m.startswith("precedence_")
        ),
        None,
    )
    return build_tables(
        trump=trump,
        jokers_as_trump=setup.jokers_as_trump,
        nuloss="nuloss" in modifiers,
        precedence=precedence,
        bowers=setup.bowers if trump is not None else None,
    )


def observation(
    view: dict[str, Any], rules: Ruleset, history: Sequence[HandResult] = ()
) -> Observation:
    """The :class:`Observation` a seat's ``view`` was written from. ``history`` gives the
    finished hands when the view has none (events carry no history)."""
    labels = rules.joker_labels

    def card(text: str) -> int:
        return parse_card(text, labels=labels)

    def played(pairs: list[list[Any]]) -> tuple[tuple[int, int], ...]:
        return tuple((int(seat), card(c)) for seat, c in pairs)

    try:
        players = int(view["players"])
        trump = _suit(view["trump"])
        hand = None
        if view["hand"] is not None:
            hand = 0
            for text in view["hand"]:
                hand |= 1 << card(text)
        if "history" in view:
            history = [hand_result(h, labels) for h in view["history"]]
        tables = card_tables(rules, players, trump, view["call"]) if view["trump_known"] else None
        return Observation(
            seat=view["seat"],
            players=players,
            rules=rules,
            phase=view["phase"],
            hand_number=view["hand_number"],
            hands_in_game=view["hands_in_game"],
            hands_played=view["hands_played"],
            hand_size=view["hand_size"],
            dealer=view["dealer"],
            special=view["special"],
            call=view["call"],
            trump=trump,
            trump_known=view["trump_known"],
            turn_up=card(view["turn_up"]) if view["turn_up"] is not None else None,
            hand=hand,
            cards_in_hand=view["cards_in_hand"],
            bids=tuple(view["bids"]),
            bid_made=tuple(view["bid_made"]),
            hook=view["hook"],
            misere=view["misere"],
            pile=view["pile"],
            tricks_won=tuple(view["tricks_won"]),
            current_trick=played(view["current_trick"]),
            leader=view["leader"],
            tricks=tuple(played(trick) for trick in view["tricks"]),
            trick_winners=tuple(view["trick_winners"]),
            trump_broken=view["trump_broken"],
            scores=tuple(view["scores"]),
            to_act=tuple(view["to_act"]),
            legal_actions=tuple(Action.parse(a, labels=labels) for a in view["legal_actions"]),
            cooperative=view["cooperative"],
            history=tuple(history),
            tables=tables,
            dealer_draw=played(view["dealer_draw"]),
            partnerships=tuple(tuple(team) for team in view["partnerships"]),
            active=tuple(view["active"]) if view["active"] is not None else None,
            extra=view["extra"] or {},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ViewError(f"the server sent a view this client cannot read: {exc!r}") from None
