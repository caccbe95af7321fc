"""Property tests: random games of every ruleset, player count and option, checked as they go.

Every game is played with random legal actions (or bots) and checked against the
rules its page states (docs/games/<id>.md: Deal and trump, Bidding, Play, Scoring,
Special hands: the deal, bid limits, the hook rule, trump, follow suit, the winner of
a trick leads the next, scores), plus the engine's contracts (README.md, The library):
an illegal action raises and changes nothing, records replay, ``clone()`` is
independent and an observation shows a seat nothing it may not see.

The default run is short; ``-m slow`` variants play many more games.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.properties.family_checked import SWEEP, play_checked
from tests.properties.family_observation import CARD_FIELDS, GAME_FIELDS, PUBLIC_FIELDS
from tests.properties.family_rules import (
    CONFIGS,
    SWEEP_CONFIGS,
    Config,
)
from tricktaker import (
    GameRecord,
    Observation,
    list_rulesets,
    load_ruleset,
    new_game,
    replay,
)
from tricktaker.bots import make_bot, play_game


def test_configurations_cover_every_ruleset_player_count_and_option() -> None:
    for configs in (CONFIGS, SWEEP_CONFIGS):
        games = {c.game for c in configs}
        assert games == set(list_rulesets())
        for game in games:
            rules = load_ruleset(game)
            counts = {c.players for c in configs if c.game == game}
            assert counts >= set(rules.player_counts), game  # options may allow more
            for name, option in rules.spec.options.items():
                used = {dict(c.options)[name] for c in configs if c.game == game}
                assert len(used) >= 2, f"{game}: option {name} is only played as {used}"
                assert option.default in used
    assert {(c.game, c.options) for c in SWEEP_CONFIGS} == {(c.game, c.options) for c in CONFIGS}
    # Combinations the pages allow or refuse (docs/games/blackout.md and bluke.md, Options).
    ids = {c.id for c in CONFIGS}
    assert len(ids) == len(CONFIGS)
    assert "bluke-15p" in ids
    assert "bluke-3p-all_dealt_final-extended-new_jersey" in ids
    assert "bluke-5p-min_bid=0-new_jersey" in ids
    for players in (2, 3, 6, 9):
        assert f"bluke-{players}p-all_dealt_final" in ids
    assert "bluke-4p-all_dealt_final" not in ids
    assert "bluke-4p-extended" not in ids
    assert "blackout-4p-alternate_scoring-full_rotation-hook" in ids
    assert "blackout-4p-alternate_scoring-reverse_deals-simultaneous_bidding" in ids
    assert not any("hook" in i and "simultaneous_bidding" in i for i in ids if "blackout" in i)
    assert not any("full_rotation" in i and "reverse_deals" in i for i in ids)
    assert "coop_blackout-3p-max_hands=5" in ids
    assert "caller_clag-5p-hands=2" in ids


def test_every_observation_field_is_classified() -> None:
    """The leak check below reads the card fields; a new field must be classified here."""
    names = {f.name for f in dataclasses.fields(Observation)}
    unknown = names - CARD_FIELDS - PUBLIC_FIELDS - GAME_FIELDS
    assert not unknown, f"classify new Observation fields {unknown} in CARD_FIELDS/PUBLIC_FIELDS"


# ------------------------------------------------------------------- the tests


@pytest.mark.parametrize("config", SWEEP_CONFIGS, ids=lambda c: c.id)
def test_every_configuration_plays_a_checked_game(config: Config) -> None:
    """One fully checked random game of every ruleset, player count and option set."""
    seed = sum(ord(ch) * (i + 1) for i, ch in enumerate(config.id))
    game = play_checked(config, seed=seed, choice_seed=seed + 1, intensity=SWEEP)
    assert game.illegal_tried > 0


CONFIG_STRATEGY: Final = st.sampled_from(CONFIGS)
SEEDS: Final = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=CONFIG_STRATEGY, seed=SEEDS, choice_seed=SEEDS, use_bots=st.booleans())
def test_random_games_keep_the_invariants(
    config: Config, seed: int, choice_seed: int, use_bots: bool
) -> None:
    """Random configurations and seeds, random legal actions or bots, every check."""
    play_checked(config, seed=seed, choice_seed=choice_seed, use_bots=use_bots)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=CONFIG_STRATEGY, seed=SEEDS, choice_seed=SEEDS, use_bots=st.booleans())
def test_many_random_games_keep_the_invariants(
    config: Config, seed: int, choice_seed: int, use_bots: bool
) -> None:
    """The same, many more games."""
    play_checked(config, seed=seed, choice_seed=choice_seed, use_bots=use_bots)


@pytest.mark.slow
def test_every_option_combination_with_every_player_count() -> None:
    """The full product of rulesets, option values and player counts, one game each."""
    for number, config in enumerate(CONFIGS):
        try:
            play_checked(config, seed=number, choice_seed=number + 7, intensity=SWEEP)
        except AssertionError as exc:
            raise AssertionError(f"{config.id}, seed {number}: {exc}") from exc


def _bot_record(config: Config, seed: int, bot_seed: int) -> str:
    state = new_game(config.ruleset(), players=config.players, seed=seed)
    names = ("heuristic", "random")
    play_game(state, [make_bot(names[s % 2], seed=bot_seed + s) for s in range(config.players)])
    return state.record().dumps()


@settings(max_examples=40, deadline=None)
@given(config=CONFIG_STRATEGY, seed=SEEDS, bot_seed=SEEDS)
def test_same_seed_and_bots_give_the_same_record(config: Config, seed: int, bot_seed: int) -> None:
    """README.md, The library: chance steps are "explicit and seeded", so the same seed and
    the same bots give the same record."""
    first = _bot_record(config, seed, bot_seed)
    assert _bot_record(config, seed, bot_seed) == first
    again = replay(GameRecord.loads(first))
    assert again.record().dumps() == first
