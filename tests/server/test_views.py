"""What sockets receive: a seat's view is its own observation; spectators see only what
every seat sees.

docs/protocol.md, Views: the spectator's view is the part that every seat's view shows
alike; cards are written ``AS``, ``10H``.
"""

from __future__ import annotations

import json
import re

import pytest

from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import decide
from tricktaker.rules import list_rulesets
from tricktaker.server.views import common, observation_json, public_view, seat_views

CARD = re.compile(r'"((?:10|[2-9JQKA])[SHDC]|HB|LB)"')


def cards_in(data: object) -> set[str]:
    """Every card written anywhere in ``data``."""
    return set(CARD.findall(json.dumps(data)))


def test_common_keeps_only_what_all_share() -> None:
    """docs/protocol.md, Views: a value any two seats see differently is None."""
    assert common([{"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}]) == {"a": 1, "b": [1, None]}
    assert common([[1, 2], [1]]) is None
    assert common([{"a": 1, "k": "AS"}, {"a": 1}]) == {"a": 1}


@pytest.mark.parametrize("game", list_rulesets())
def test_the_public_view_shows_no_card_some_seat_does_not_see(game: str) -> None:
    """docs/protocol.md, Views: at every step of a whole game, every card in the
    spectators' view is in every seat's view, and a seat's view is its observation."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=3)
    bots = [make_bot("random", seed=s) for s in range(players)]
    steps = 0
    while not state.is_terminal() and steps < 400:
        steps += 1
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, decide(bots[seat], state, seat))
        views = seat_views(state)
        for seat, view in enumerate(views):
            assert view == observation_json(state.observe(seat))
            assert view["seat"] == seat
        public = public_view(views)
        assert public["hand"] is None
        assert public["legal_actions"] == []
        shown = cards_in(public)
        for view in views:
            assert shown <= cards_in(view), shown - cards_in(view)
