"""Whole games played by bots in the engine, entered hand by hand into the scorekeeper,
give exactly the engine's scores, totals, dealers, hand sizes, end and winners.

docs/scorekeeper.md, How the sheet is kept: the engine's own rules and scoring keep it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import OH_HELL_GAMES
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import Bot, make_bot, play_game
from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import Action
from tricktaker.scorekeeper import CallEntry, ScoreSheet

GAMES = (*OH_HELL_GAMES, "pluck", "euchre", "buckup")
"""The games whose sheets are kept: the Oh Hell family, Pluck, Euchre and Buckup."""

OPTIONS: dict[str, list[dict[str, object]]] = {
    "blackout": [{}, {"hook": True}, {"simultaneous_bidding": True}],
    "bluke": [{}, {"min_bid": 0}, {"new_jersey": True}],
    "coop_blackout": [{}, {"max_hands": 12}],
    "pluck": [{}],
    "euchre": [{}, {"target": 5}],
    "buckup": [
        {"hands": 4},
        {"hands": 3, "four_card_deal": True},
        {"hands": 4, "out_for_now": True},
    ],
}
DECISIONS = ("stay", "fold", "out_for_now", "come_back", "concede")
"""Buckup's decisions a player announces at the table."""


def play_hands(state: GameState, bots: list[Bot]) -> list[list[tuple[object, ...]]]:
    """Play ``state`` to the end; the engine's events of each hand."""
    hands: list[list[tuple[object, ...]]] = []
    while not state.is_terminal():
        start = len(state.events)
        play_game(state, bots, until_hand_end=True)
        hands.append(state.events[start:])
    return hands


def enter_game(
    state: GameState,
    game: str,
    options: dict[str, object],
    events: list[list[tuple[object, ...]]],
) -> ScoreSheet:
    """A sheet with every hand of ``state`` entered as a table would report it
    (``events``: the engine's events of each hand, for Buckup's announcements)."""
    names = [f"P{seat}" for seat in range(state.players)]
    sheet = ScoreSheet(game, names, first_dealer=names[state.first_dealer], options=options)
    for hand, happened in zip(state.history, events, strict=True):
        call = None
        if hand.special is not None and "caller_size" in hand.special:
            call = CallEntry(
                size=hand.special["caller_size"],
                kind=hand.special["kind"],
                modifiers=tuple(hand.special["modifiers"]),
            )
        contract, declarer = None, None
        if hand.extra.get("contract"):
            contract = [bid for _, bid in hand.extra["auction"] if bid != "pass"][-1]
            declarer = hand.extra["contract"]["bidder"]
        ante, decisions, drawn = None, [], []
        if "pot_after" in hand.extra:
            said: list[list[str]] = [[] for _ in names]
            for seat, action in happened:
                if isinstance(action, Action) and action.kind == "ante":
                    ante = str(action.value)
                elif isinstance(action, Action) and action.kind in DECISIONS:
                    assert isinstance(seat, int)
                    said[seat].append(action.kind)
            decisions = [tuple(d) for d in said]
            drawn = list(hand.extra["drawn"])
        row = sheet.add(
            ante=ante,
            decisions=decisions,
            drawn=drawn,
            bids=list(hand.bids) if sheet.has_bids() else [],
            contract=contract,
            declarer=declarer,
            tricks=list(hand.tricks),
            trick_winners=list(hand.trick_winners) if call is not None else [],
            trump=SUIT_NAMES[hand.trump] if hand.trump is not None else None,
            call=call,
        )
        assert row.number == hand.number
        assert row.dealer == hand.dealer
        assert row.hand_size == hand.hand_size
        assert row.scores == hand.hand_scores
        assert row.totals == hand.total_scores
    return sheet


@st.composite
def games(draw: st.DrawFn) -> tuple[str, dict[str, object], int, int, str]:
    game = draw(st.sampled_from(GAMES))
    options = draw(st.sampled_from(OPTIONS.get(game, [{}])))
    counts = list(load_ruleset(game, options=options).player_counts)
    players = draw(st.sampled_from([c for c in counts if c <= 7]))
    seed = draw(st.integers(0, 10_000))
    bot = draw(st.sampled_from(["random", "random", "heuristic"]))
    return game, options, players, seed, bot


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_bots_whole_games_score_the_same_on_the_sheet(
    case: tuple[str, dict[str, object], int, int, str],
) -> None:
    game, options, players, seed, bot = case
    state = new_game(load_ruleset(game, options=options), players=players, seed=seed)
    events = play_hands(state, [make_bot(bot, seed=seed + s) for s in range(players)])
    sheet = enter_game(state, game, options, events)
    assert sheet.is_over()
    assert sheet.totals == tuple(state.scores)
    assert sheet.winners() == tuple(state.winners())


def test_every_oh_hell_game_once_with_random_bots() -> None:
    """Each game kept, 4 players (Pluck: 3), Caller Clag's calls included."""
    for game in GAMES:
        players = {"pluck": 3}.get(game, 4)
        options: dict[str, object] = {"hands": 4} if game == "buckup" else {}
        state = new_game(load_ruleset(game, options=options), players=players, seed=11)
        events = play_hands(state, [make_bot("random", seed=s) for s in range(players)])
        sheet = enter_game(state, game, options, events)
        assert sheet.winners() == tuple(state.winners()), game


def test_buckup_with_out_for_now_and_scare_cards() -> None:
    """docs/games/buckup.md, Out for now and Scare cards: the announcements of whole
    games by random bots, decisions in turn, score the same on the sheet."""
    for options in ({"hands": 5, "out_for_now": True}, {"hands": 5, "scare_cards": True}):
        for seed in range(4):
            players = 4 + seed % 4
            state = new_game(load_ruleset("buckup", options=options), players=players, seed=seed)
            events = play_hands(state, [make_bot("random", seed=s) for s in range(players)])
            sheet = enter_game(state, "buckup", dict(options), events)
            assert sheet.winners() == tuple(state.winners())
            stacks, pot = sheet.chips() or ((), 0)
            assert sum(stacks) + pot == 500 * players
