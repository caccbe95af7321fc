"""A game's ``present`` capability (docs/rulesets.md, Writing a game in Python): the
panel of a game written outside the package (tests/plugins/last_trick.py) in the present
JSON and the terminal, and the panel memo keyed on what the panel reads."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from tests.plugins.last_trick import STAKE, LastTrickPresent
from tricktaker import load_ruleset, new_game
from tricktaker.cli.render import Cards, table_view
from tricktaker.cli.render_games import game_lines, seat_grid
from tricktaker.engine import Action, GameState, Observation
from tricktaker.engine.hooks import capability
from tricktaker.present import SYMBOLS, CardText, PresentMemo, panels, present_json, public_present
from tricktaker.present.game import DEFAULT_PRESENT, BasePresent, GamePresent, game_present
from tricktaker.present.parts import Line

LAST_TRICK = Path(__file__).resolve().parents[1] / "plugins" / "last_trick.toml"
NAMES = ["Ann", "Ben", "Cy"]


def _staking(stakes: int) -> GameState:
    """A Last Trick game of three once ``stakes`` seats have staked (1 each)."""
    state = new_game(load_ruleset(LAST_TRICK), players=3, seed=4)
    while state.is_chance():
        state.apply_chance()
    for _ in range(stakes):
        state.apply(state.to_act()[0], Action(STAKE, 1))
    return state


def test_the_plugin_declares_its_present_and_the_layer_finds_it() -> None:
    """The capability is found through the hooks, and is a :class:`GamePresent`; a
    game that declares none is shown by the default (the Oh Hell family's)."""
    rules = load_ruleset(LAST_TRICK)
    found = capability(rules.hooks, "present")
    assert isinstance(found, LastTrickPresent)
    assert isinstance(found, GamePresent)
    assert game_present(rules) is found
    assert game_present(load_ruleset("blackout")) is DEFAULT_PRESENT


def test_the_plugins_panel_shows_each_seats_stake_in_the_present_json() -> None:
    """Each seat's stake so far, from the dealer's left, and whose turn it is to stake,
    as a labelled line of the panel that spectators see too; no bids are totalled."""
    state = _staking(1)
    dealer = state.dealer
    first, second = (dealer + 1) % 3, (dealer + 2) % 3
    blocks = [present_json(state.observe(seat), NAMES) for seat in range(3)]
    panel = blocks[0]["panel"]
    assert panel["game"] == "last_trick"
    assert panel["bids"] is None
    text = f"{NAMES[first]} 1;  {NAMES[second]} to stake"
    assert panel["lines"] == [{"label": "Stakes", "text": text, "public": text}]
    assert panel["cards"] == []
    watcher = public_present(blocks, _common)
    assert watcher["panel"]["lines"] == [{"label": "Stakes", "text": text, "public": text}]


def _common(values: list[object]) -> object:
    first = values[0]
    return first if all(v == first for v in values[1:]) else None


def test_the_plugins_panel_is_shown_in_the_terminal() -> None:
    """The terminal shows the same line, and the game's own seat grid."""
    state = _staking(2)
    obs = state.observe(state.to_act()[0])
    cards = Cards(labels=obs.rules.joker_labels, symbols=True)
    assert panels.panel_game(obs) == "last_trick"
    lines = game_lines(obs, NAMES, cards)
    assert [label for label, _ in lines] == ["Stakes"]
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    table_view(console, obs, NAMES, cards, lines_after=lines, grid=seat_grid(obs, NAMES))
    shown = out.getvalue()
    dealer = obs.dealer
    first, second = NAMES[(dealer + 1) % 3], NAMES[(dealer + 2) % 3]
    assert f"Stakes:  {first} 1,  {second} 1;  {NAMES[dealer]} to stake" in shown.splitlines()


class _TurnPresent(BasePresent):
    """A Pluck-like panel: a line naming the seat to act (as Pluck's trump caller,
    always the dealer there, so the seat's other fields do not tell it)."""

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        return [Line("Names trump", names[obs.to_act[0]] if obs.to_act else "-", None)]


def test_the_panel_memo_refreshes_when_only_to_act_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/protocol.md, Views: the memo gives the panel again only while every field
    the panel read is the same; an observation that differs only in ``to_act`` (which a
    game's panel reads) gets a new panel."""
    state = _staking(1)
    obs = state.observe(0)
    memo = PresentMemo()
    present = _TurnPresent()
    monkeypatch.setattr(panels, "game_present", lambda rules: present)
    first = memo.panel(obs, NAMES, SYMBOLS)
    assert first["lines"][0]["text"] == NAMES[obs.to_act[0]]
    assert memo.panel(obs, NAMES, SYMBOLS) is first
    other = (obs.to_act[0] + 1) % 3
    moved = dataclasses.replace(obs, to_act=(other,))
    second = memo.panel(moved, NAMES, SYMBOLS)
    assert second is not first
    assert second["lines"][0]["text"] == NAMES[other]


def test_the_panel_memo_reuses_a_panel_whose_reads_are_unchanged() -> None:
    """The seat rows and panel of an observation that differs in a field they do not
    read (the legal actions) are the ones built before."""
    state = _staking(1)
    obs = state.observe(0)
    memo = PresentMemo()
    panel = memo.panel(obs, NAMES, SYMBOLS)
    rows = memo.seat_rows(obs, NAMES)
    same = dataclasses.replace(obs, legal_actions=())
    assert memo.panel(same, NAMES, SYMBOLS) is panel
    assert memo.seat_rows(same, NAMES) is rows
    assert memo.panel(obs, [*NAMES[:2], "Dee"], SYMBOLS) is not panel


def test_a_plucked_card_is_marked_received_and_drawn_for_the_pluckee_alone() -> None:
    """docs/games/pluck.md, Plucking: while a pluck waits for its give-back, the pluckee's
    hand marks the card it was given (``received``) and its panel draws it with a note;
    the other seats' panels draw nothing, and the pluck's action kind has its heading."""
    state = new_game(load_ruleset("pluck"), players=3, seed=4)
    rng = random.Random(4)
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        current = state.observe(seat).extra.get("pluck_in_progress")
        if current and current.get("given"):
            break
        state.apply(seat, rng.choice(state.observe(seat).legal_actions))
    pluckee, given = current["pluckee"], current["given"]
    blocks = [present_json(state.observe(s), NAMES) for s in range(3)]
    marked = [card["card"] for card in blocks[pluckee]["hand"] if card.get("received")]
    assert marked == [given]
    assert blocks[pluckee]["panel"]["cards"] == [
        {
            "label": "Card given",
            "cards": [given],
            "note": f"{NAMES[current['plucker']]} plucks from {NAMES[pluckee]}",
            "public": False,
        }
    ]
    for seat in range(3):
        assert blocks[seat]["panel"]["headings"]["pluck"] == "Pluck: choose the card to give"
        if seat not in (pluckee, current["plucker"]):
            assert blocks[seat]["panel"]["cards"] == []
            assert not any(card.get("received") for card in blocks[seat]["hand"] or [])
    assert public_present(blocks, _common)["panel"]["cards"] == []
