"""Property tests for the hook games: Pluck, Euchre and Buckup (docs/games/pluck.md,
euchre.md and buckup.md).

Random and heuristic bots play whole games step by step while the test keeps its own
model of the hand, written from the games' pages in docs/games/, independently of the
engine: who holds which card, whose turn it is and what they may do, the auction, the
plucks, the stock and the discards, the chips. After every step:

- the cards are conserved: hands, the kitty (Euchre, with the declarer's discards),
  the cards played this hand and Buckup's turn-up, stock, discards and the cards set
  aside add up to the deck with no card twice, as the engine's own data says, and the
  engine's hands equal the model's;
- Buckup's chips are conserved: ``sum(stacks) + pot`` never changes, every payment is
  recorded and explains the stacks, scores are ``stack - starting stack``;
- the seat to act and its legal actions are exactly those of the rules;
- no seat's observation shows a card it may not know, anywhere (hand, tricks, turn-up,
  legal actions, the game's ``extra`` section and every history entry, searched
  recursively for card names): plucked cards only to the two players of the pluck, the
  kitty and the discards only to the declarer, nobody else's draws or folded hands.

At random steps illegal actions (a seat out of turn, a card not held, an action of
another phase) must raise :class:`IllegalActionError` and leave the record unchanged;
at random steps and at the end the record must replay to the same scores and history.
Each finished hand is checked against the game's rules: Pluck's quotas, plucks and
tricks; Euchre's auction, contract, discards and scoring; Buckup's decisions, draws,
settlement and the end of the game.

The bots nearly always bid in Euchre, so the test makes every seat pass in about one
hand in ten (a thrown-in hand); some chance steps are outcomes the test chooses (a
shuffle, the cards drawn from the stock, a Buckup deal rigged for the 19 redeal), which
the records must replay too. A fixed set of games checks that the rare situations are
reached. ``Observation.cards_in_hand`` has a test of its own.

The default run plays about 400 games; the ``slow`` variants (run in CI) about 950 more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.properties.buckup_model import (
    BuckupGame,
)
from tests.properties.checked import (
    BOT_LISTS,
    COVERAGE,
    DEFAULT,
    HEAVY,
    SEEDS,
    CheckedGame,
    GameConfig,
    Intensity,
)
from tests.properties.euchre_model import (
    EuchreGame,
)
from tests.properties.pluck_model import (
    PluckGame,
)

# --------------------------------------------------------------- strategies

GAMES: Final[dict[str, type[CheckedGame]]] = {
    "pluck": PluckGame,
    "euchre": EuchreGame,
    "buckup": BuckupGame,
}


@st.composite
def pluck_configs(draw: st.DrawFn, *, max_hands: int = 4) -> GameConfig:
    options: tuple[tuple[str, bool | int], ...] = (
        ("hands", draw(st.integers(1, max_hands))),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("pluck", 3, options)


@st.composite
def euchre_configs(draw: st.DrawFn) -> GameConfig:
    options: tuple[tuple[str, bool | int], ...] = (
        ("target", draw(st.sampled_from((1, 2, 3, 5, 10)))),
        ("usual_bower_order", draw(st.booleans())),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("euchre", 4, options)


@st.composite
def buckup_configs(draw: st.DrawFn, *, max_hands: int = 3) -> GameConfig:
    four = draw(st.booleans())
    players = draw(st.integers(4, 9 if four else 7))
    hands = draw(st.integers(1, max_hands))
    options: tuple[tuple[str, bool | int], ...] = (
        ("four_card_deal", four),
        ("out_for_now", draw(st.booleans())),
        ("scare_cards", draw(st.booleans())),
        ("hands", hands),
        ("max_hands", hands + draw(st.integers(0, 4))),
        ("starting_stack", draw(st.sampled_from((0, 40, 500)))),
        ("ante", draw(st.sampled_from((0, 1, 5)))),
        ("fold_fee", draw(st.sampled_from((0, 3, 5)))),
        ("card_fee", draw(st.sampled_from((0, 1, 5)))),
        ("draw_for_dealer", draw(st.booleans())),
    )
    return GameConfig("buckup", players, options)


def play_checked(
    config: GameConfig,
    *,
    seed: int,
    bots: Sequence[str],
    bot_seed: int,
    check_seed: int,
    intensity: Intensity = DEFAULT,
    count_cards: bool = False,
) -> CheckedGame:
    game = GAMES[config.game](
        config,
        seed=seed,
        bots=bots,
        bot_seed=bot_seed,
        check_seed=check_seed,
        intensity=intensity,
        count_cards=count_cards,
    )
    return game.run()


SETTINGS: Final = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

# ----------------------------------------------------------------- the tests


@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(config=pluck_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_pluck_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Pluck: cards, quotas, plucks, tricks, legality, records, no leaked plucks."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@settings(max_examples=200, **SETTINGS)  # type: ignore[arg-type]
@given(config=euchre_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_euchre_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Euchre: cards, the auction, the kitty and discards, bowers, scores, no leaked kitty."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@settings(max_examples=100, **SETTINGS)  # type: ignore[arg-type]
@given(config=buckup_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_buckup_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """Buckup: cards, chips, decisions, draws, settlement, no leaked draws or hands."""
    play_checked(config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed)


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)  # type: ignore[arg-type]
@given(
    config=pluck_configs(max_hands=6),
    seed=SEEDS,
    bots=BOT_LISTS,
    bot_seed=SEEDS,
    check_seed=SEEDS,
)
def test_many_pluck_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Pluck checks over many more and longer games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


@pytest.mark.slow
@settings(max_examples=500, **SETTINGS)  # type: ignore[arg-type]
@given(config=euchre_configs(), seed=SEEDS, bots=BOT_LISTS, bot_seed=SEEDS, check_seed=SEEDS)
def test_many_euchre_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Euchre checks over many more games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


@pytest.mark.slow
@settings(max_examples=250, **SETTINGS)  # type: ignore[arg-type]
@given(
    config=buckup_configs(max_hands=5),
    seed=SEEDS,
    bots=BOT_LISTS,
    bot_seed=SEEDS,
    check_seed=SEEDS,
)
def test_many_buckup_games_keep_the_rules(
    config: GameConfig, seed: int, bots: list[str], bot_seed: int, check_seed: int
) -> None:
    """The Buckup checks over many more and longer games, with more illegal actions tried."""
    play_checked(
        config, seed=seed, bots=bots, bot_seed=bot_seed, check_seed=check_seed, intensity=HEAVY
    )


# ------------------------------------------------------------------ coverage


def _buckup(players: int, **changed: bool | int) -> GameConfig:
    options: dict[str, bool | int] = {
        "four_card_deal": players > 7,
        "out_for_now": False,
        "scare_cards": False,
        "hands": 3,
        "max_hands": 6,
        "starting_stack": 40,
        "ante": 5,
        "fold_fee": 5,
        "card_fee": 5,
        "draw_for_dealer": False,
    }
    options.update(changed)
    return GameConfig("buckup", players, tuple(options.items()))


RANDOM: Final = ("random",) * 9
HEURISTIC: Final = ("heuristic",) * 9
MIXED: Final = ("random", "heuristic") * 5

COVERAGE_GAMES: Final[tuple[tuple[GameConfig, Sequence[str]], ...]] = (
    *((GameConfig("pluck", 3, (("hands", 3),)), bots) for bots in (RANDOM, HEURISTIC, MIXED)),
    *(
        (GameConfig("euchre", 4, (("target", 3), ("usual_bower_order", usual))), bots)
        for usual in (False, True)
        for bots in (RANDOM, HEURISTIC, HEURISTIC, MIXED)
    ),
    (_buckup(4, out_for_now=True, scare_cards=True), RANDOM),
    (_buckup(5, out_for_now=True), RANDOM),
    (_buckup(6, out_for_now=True, scare_cards=True), MIXED),
    (_buckup(7, scare_cards=True), RANDOM),
    (_buckup(7, out_for_now=True), RANDOM),
    (_buckup(5, starting_stack=0), HEURISTIC),
    (_buckup(8, out_for_now=True, scare_cards=True), RANDOM),
    (_buckup(9, out_for_now=True), RANDOM),
    (_buckup(9, scare_cards=True), MIXED),
)

REQUIRED_EVENTS: Final = frozenset(
    {
        "explicit chance",
        "replay",
        "pluck:plucks",
        "pluck:pluck",
        "pluck:give_back",
        "pluck:call_trump",
        "euchre:auction",
        "euchre:pass",
        "euchre:discard",
        "euchre:bid again",
        "euchre:thrown in",
        "euchre:set",
        "euchre:contract NT",
        "buckup:ante kept",
        "buckup:ante drawn",
        "buckup:ante kept_no_fold_fee",
        "buckup:ante drawn_no_fold_fee",
        "buckup:nineteen",
        "buckup:redealt",
        "buckup:keep",
        "buckup:stay",
        "buckup:fold",
        "buckup:out_for_now",
        "buckup:come_back",
        "buckup:concede",
        "buckup:discard",
        "buckup:draw",
        "buckup:restock",
        "buckup:scare forced",
        "buckup:dealer takes the pot",
        "buckup:uncontested",
        "buckup:burned",
        "buckup:debt",
    }
)


def test_the_games_reach_the_situations_the_checks_are_for() -> None:
    """A fixed set of checked games reaches every phase and rare situation of the three
    games, so that the random games above do exercise their checks."""
    seen: Counter[str] = Counter()
    for index, (config, bots) in enumerate(COVERAGE_GAMES):
        game = play_checked(
            config,
            seed=index * 7919 + 3,
            bots=bots,
            bot_seed=index,
            check_seed=index,
            intensity=COVERAGE,
        )
        seen.update(game.seen)
        assert game.illegal_tried > 0
    missing = sorted(REQUIRED_EVENTS - set(seen))
    assert not missing, f"never reached: {missing} (seen: {dict(seen)})"


@pytest.mark.parametrize(
    "config",
    [
        GameConfig("pluck", 3, (("hands", 2),)),
        GameConfig("euchre", 4, (("target", 3),)),
        GameConfig("buckup", 5, (("hands", 2), ("max_hands", 3))),
        GameConfig("buckup", 9, (("four_card_deal", True), ("hands", 2), ("max_hands", 3))),
    ],
    ids=lambda config: config.id,
)
def test_observations_count_the_cards_in_hand(config: GameConfig) -> None:
    """``Observation.cards_in_hand`` is the number of cards the seat holds (as the Oh Hell
    games' property tests require), also while a pluck, the Euchre declarer's discard or a
    Buckup discard and draw changes the hand, and for a Buckup player who folded."""
    for seed in range(3):
        play_checked(
            config,
            seed=seed,
            bots=MIXED,
            bot_seed=seed,
            check_seed=seed,
            intensity=COVERAGE,
            count_cards=True,
        )
