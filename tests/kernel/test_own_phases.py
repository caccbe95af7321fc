"""The search bot's choice of a hook game's own decision (an auction, a discard, a pluck,
a trump call, an ante, stay or fold, a draw) by flat play-outs: ``ismcts:own_phases=flat``
(bench/README.md, "The hook games' own phases and card play (issue 30)").

Every legal choice is played out on the same sampled deals by the coach's staged values
(the game's rollout policy up to the card play, the kernel's card play from there), and
the best mean is kept: the bot's choice must be exactly the coach's best on the same
deals, and cards its seat cannot see must not change it."""

from __future__ import annotations

import logging
import random

import pytest

from tests.coach.positions import decisions
from tests.coach.test_hint_leak import swapped
from tricktaker import Observation, load_ruleset
from tricktaker.bots import ISMCTSBot, pimc
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.heuristic import legal_choices
from tricktaker.coach.values import choice_value, staged_totals
from tricktaker.engine.actions import PLAY, Action

HOOK_GAMES = ("euchre", "pluck", "buckup")
DEALS = 12


def own_decisions(game: str) -> list[Observation]:
    """One observation of each kind of the game's own decisions (not the card play)."""
    return [obs for _, obs in decisions(game, seeds=2) if obs.legal_actions[0].kind != PLAY]


def coach_best(observation: Observation, seed: int) -> Action:
    """The coach's best choice over exactly ``DEALS`` deals, sampled as the bot seeded
    ``seed`` samples them (its first random draw is the coach's seed)."""
    actions = legal_choices(observation)
    totals = staged_totals(
        observation,
        actions,
        seed=random.Random(seed).getrandbits(62),
        stop=lambda done: done >= DEALS,
    )
    assert totals is not None
    means = [choice_value(choice).mean for choice in totals]
    return actions[max(range(len(actions)), key=lambda index: (means[index], -index))]


@pytest.mark.parametrize("game", HOOK_GAMES)
def test_a_flat_choice_is_the_coachs_best_on_the_same_deals(game: str) -> None:
    """At every kind of the game's own decisions the bot, given ``DEALS`` deals and no
    time limit, chooses the coach's best on the same deals."""
    observations = own_decisions(game)
    assert len(observations) >= 2, f"{game}: too few kinds of its own decisions"
    for index, observation in enumerate(observations):
        bot = ISMCTSBot(seed=index, iterations=DEALS, own_phases="flat")
        chosen = bot.act(observation)
        assert chosen in observation.legal_actions
        assert chosen == coach_best(observation, index)
        assert bot.last_iterations == DEALS


@pytest.mark.parametrize("game", HOOK_GAMES)
def test_cards_the_seat_cannot_see_change_no_flat_choice(game: str) -> None:
    """Two hidden cards swapped between places the seat cannot see (replayed by the
    engine, as the coach's leak test does) leave the seat's observation and its flat
    choice, with the same seed, as they were."""
    checked = 0
    for state, obs in decisions(game, seeds=2):
        if obs.legal_actions[0].kind == PLAY:
            continue
        other = swapped(state, obs.seat)
        if other is None:
            continue
        theirs = other.observe(obs.seat)
        assert theirs == obs
        first = ISMCTSBot(seed=3, iterations=DEALS, own_phases="flat").act(obs)
        assert ISMCTSBot(seed=3, iterations=DEALS, own_phases="flat").act(theirs) == first
        checked += 1
    assert checked >= 1, f"{game}: no position could be swapped"


def test_the_games_declare_how_their_own_phases_are_chosen() -> None:
    """Euchre's and Buckup's own decisions are flat by default, Pluck's by the tree;
    the bot's setting overrides the game's, and an unknown one is refused."""
    assert search_for(load_ruleset("euchre").hooks).own_phases == "flat"
    assert search_for(load_ruleset("pluck").hooks).own_phases == "tree"
    assert search_for(load_ruleset("buckup").hooks).own_phases == "flat"
    with pytest.raises(ValueError, match="own_phases must be one of game, tree, flat"):
        ISMCTSBot(own_phases="deep")


@pytest.mark.parametrize("own_phases", ["flat", "tree"])
def test_the_python_warning_only_when_python_searches(
    own_phases: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A flat choice plays its cards in the kernel, so it does not say that the search
    runs in Python; the tree search of the same decisions does (once a reason)."""
    observations = own_decisions("euchre")
    pimc._WARNED.clear()
    caplog.set_level(logging.WARNING, logger="tricktaker.bots")
    for index, observation in enumerate(observations):
        ISMCTSBot(seed=index, iterations=DEALS, own_phases=own_phases).act(observation)
    said = [r.getMessage() for r in caplog.records if "runs in Python" in r.getMessage()]
    if own_phases == "flat":
        assert said == []
    else:
        assert said
        assert len(said) == len(set(said))
