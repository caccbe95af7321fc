"""Whole games played by bots in the engine, entered hand by hand into the scorekeeper,
give exactly the engine's scores, totals, dealers, hand sizes, end and winners.

docs/scorekeeper.md, How the sheet is kept: the engine's own rules and scoring keep it.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import OH_HELL_GAMES
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import SUIT_NAMES
from tricktaker.scorekeeper import CallEntry, ScoreSheet

GAMES = (*OH_HELL_GAMES, "pluck", "euchre", "buckup")
"""The games whose sheets are kept: the Oh Hell family, Pluck, Euchre and Buckup."""

OPTIONS: dict[str, list[dict[str, object]]] = {
    "blackout": [{}, {"hook": True}, {"simultaneous_bidding": True}],
    "bluke": [{}, {"min_bid": 0}, {"new_jersey": True}],
    "coop_blackout": [{}, {"max_hands": 12}],
    "pluck": [{}],
    "euchre": [{}, {"target": 5}],
    "buckup": [{"hands": 4}, {"hands": 3, "four_card_deal": True}],
}


def enter_game(state: GameState, game: str, options: dict[str, object]) -> ScoreSheet:
    """A sheet with every hand of ``state`` entered as a table would report it."""
    names = [f"P{seat}" for seat in range(state.players)]
    sheet = ScoreSheet(game, names, first_dealer=names[state.first_dealer], options=options)
    for hand in state.history:
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
            ante = buckup_ante(hand.extra["ante"], options)
            decisions = [("stay",) if st == "in" else ("fold",) for st in hand.extra["status"]]
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


def buckup_ante(described: dict[str, object] | None, options: dict[str, object]) -> str | None:
    """The dealer's ante choice behind a Buckup hand's ante structure."""
    if described is None:
        return None
    fee = options.get("fold_fee", 5)
    keep_fee = described["fold_fee"] == fee or described["fold_fee"] != 0
    return f"{described['fee_per']}{'' if keep_fee else '_no_fold_fee'}"


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
    play_game(state, [make_bot(bot, seed=seed + s) for s in range(players)])
    sheet = enter_game(state, game, options)
    assert sheet.is_over()
    assert sheet.totals == tuple(state.scores)
    assert sheet.winners() == tuple(state.winners())


def test_every_oh_hell_game_once_with_random_bots() -> None:
    """Each game kept, 4 players (Pluck: 3), Caller Clag's calls included."""
    for game in GAMES:
        players = {"pluck": 3}.get(game, 4)
        options: dict[str, object] = {"hands": 4} if game == "buckup" else {}
        state = new_game(load_ruleset(game, options=options), players=players, seed=11)
        play_game(state, [make_bot("random", seed=s) for s in range(players)])
        sheet = enter_game(state, game, options)
        assert sheet.winners() == tuple(state.winners()), game
