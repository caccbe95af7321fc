"""What a socket may receive: a seat's own observation as JSON, and the public view.

Every view a seat receives is built only from ``state.observe(seat)``, the same window
the bots have. A spectator's view is the part that every seat's observation shows alike
(:func:`public_view`): a value is public when all seats see the same value, so a
spectator never learns what any one seat may not know. The public fields are listed in
``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Any

from tricktaker.cards import SUIT_NAMES, format_card
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState

Json = Any
"""Plain JSON data (dicts, lists, text, numbers, booleans, None)."""


def observation_json(obs: Observation, *, history: bool = True) -> dict[str, Json]:
    """``obs`` as JSON: cards written ``AS``, ``10H`` (the game's joker names), actions
    as in records (``bid 3``, ``play QD``). ``history`` adds the finished hands."""
    names = obs.rules.joker_labels

    def card(c: int) -> str:
        return format_card(c, labels=names)

    data: dict[str, Json] = {
        "seat": obs.seat,
        "players": obs.players,
        "phase": obs.phase,
        "hand_number": obs.hand_number,
        "hands_in_game": obs.hands_in_game,
        "hands_played": obs.hands_played,
        "hand_size": obs.hand_size,
        "dealer": obs.dealer,
        "special": obs.special,
        "call": _plain(obs.call),
        "trump": SUIT_NAMES[obs.trump] if obs.trump is not None else None,
        "trump_known": obs.trump_known,
        "turn_up": card(obs.turn_up) if obs.turn_up is not None else None,
        "hand": [card(c) for c in obs.my_cards] if obs.hand is not None else None,
        "cards_in_hand": obs.cards_in_hand,
        "bids": list(obs.bids),
        "bid_made": list(obs.bid_made),
        "hook": obs.hook,
        "misere": obs.misere,
        "pile": obs.pile,
        "tricks_won": list(obs.tricks_won),
        "current_trick": [[s, card(c)] for s, c in obs.current_trick],
        "leader": obs.leader,
        "tricks": [[[s, card(c)] for s, c in trick] for trick in obs.tricks],
        "trick_winners": list(obs.trick_winners),
        "trump_broken": obs.trump_broken,
        "scores": list(obs.scores),
        "to_act": list(obs.to_act),
        "legal_actions": [a.text(labels=names) for a in obs.legal_actions],
        "cooperative": obs.cooperative,
        "dealer_draw": [[s, card(c)] for s, c in obs.dealer_draw],
        "partnerships": [list(team) for team in obs.partnerships],
        "active": list(obs.active) if obs.active is not None else None,
        "extra": _plain(obs.extra),
    }
    if history:
        data["history"] = [h.to_json(labels=names) for h in obs.history]
    return data


def _plain(value: Json) -> Json:
    """``value`` with tuples, frozen lists and mappings turned into plain lists and dicts."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


_MISSING = object()


def common(values: list[Json]) -> Json:
    """The part of ``values`` that all of them share: equal values are kept; dicts keep
    each key every one has (with the common part of its values); lists of one length are
    compared item by item; anything else that differs becomes None."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        keys = [k for k in first if all(k in v for v in values[1:])]
        return {k: common([v[k] for v in values]) for k in keys}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [common([v[i] for v in values]) for i in range(len(first))]
    return None


def seat_views(state: GameState, *, history: bool = True) -> list[dict[str, Json]]:
    """Each seat's own view, in seat order."""
    return [observation_json(state.observe(s), history=history) for s in range(state.players)]


def public_view(views: list[dict[str, Json]]) -> dict[str, Json]:
    """The spectators' view: what every seat's view shows alike. ``seat`` and ``hand``
    are None and ``legal_actions`` empty; ``to_act`` is public (everyone sees whose turn
    it is)."""
    shared = {k: v for k, v in views[0].items() if k not in ("seat", "legal_actions", "hand")}
    for key in shared:
        shared[key] = common([view[key] for view in views])
    shared["seat"] = None
    shared["hand"] = None
    shared["legal_actions"] = []
    return shared
