"""docs/coach.md, A review: a finished game's record reviewed for one seat lists every
decision of that seat with more than one legal choice, each with the choice made, the
best choice and a cost that is never below 0; a sentence a hand; the costliest decisions
ranked; the review kept beside the record so that a second look computes nothing.

The records are real games of bots (a short house-rules Blackout of two hands), reviewed
with the real coach over a few deals a decision.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tricktaker import GameState, Observation, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.coach.model import Hint
from tricktaker.coach.review import (
    TOP_LOSSES,
    ChoiceFigure,
    Moment,
    Review,
    ReviewedDecision,
    cache_path,
    cached_review,
    hand_sentence,
    review_record,
)
from tricktaker.engine import GameRecord

DEALS = 8
"""Deals a decision: enough for a spread of values, few enough to be quick."""


def two_hands(folder: Path) -> Path:
    """House rules: Blackout with a hand of four cards, then one of three."""
    path = folder / "two.toml"
    path.write_text(
        'id = "two"\nextends = "blackout"\n[schedule]\nsizes = "4, 3"\n', encoding="utf-8"
    )
    return path


def bot_game(rules: Path, seed: int, *, players: int = 4) -> GameState:
    """A finished game of heuristic bots."""
    state = new_game(load_ruleset(str(rules)), players=players, seed=seed)
    play_game(state, [make_bot("heuristic", seed=seed + s) for s in range(players)])
    return state


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    """A saved record of a finished two-hand game."""
    path = tmp_path / "game.json"
    bot_game(two_hands(tmp_path), seed=3).record(names=["Ann", "Ben", "Cy", "Di"]).save(path)
    return path


def decisions_with_a_choice(record: GameRecord, seat: int) -> list[tuple[int, Observation]]:
    """Every event of ``seat`` where it had more than one legal choice, with its view,
    found by replaying the record event by event."""
    found = []
    for number in range(1, len(record.events) + 1):
        who, _ = record.events[number - 1]
        if who != seat:
            continue
        before = GameRecord.from_json(
            {**record.to_json(), "events": record.events[: number - 1], "finished": False}
            | {"final_scores": None}
        ).replay()
        obs = before.observe(seat)
        if len(obs.legal_actions) > 1:
            found.append((number, obs))
    return found


def test_every_decision_of_the_seat_is_reviewed_with_a_cost_never_below_zero(
    record_file: Path,
) -> None:
    record = GameRecord.load(record_file)
    review, cached = cached_review(record_file, 1, deals=DEALS)
    assert not cached
    expected = decisions_with_a_choice(record, 1)
    assert [d.moment.event for d in review.decisions] == [event for event, _ in expected]
    assert review.decisions, "the seat had choices to make"
    labels = load_ruleset("blackout").joker_labels
    for decision, (event, obs) in zip(review.decisions, expected, strict=True):
        made = record.events[event - 1][1]
        assert decision.moment.made == made
        valued = {choice.action for choice in decision.choices}
        assert valued == {action.text(labels=labels) for action in obs.legal_actions}
        means = [choice.mean for choice in decision.choices]
        assert means == sorted(means, reverse=True)
        assert decision.best == decision.choices[0]
        assert decision.cost >= 0
        assert decision.cost == pytest.approx(decision.best.mean - decision.made.mean)
        assert decision.samples == DEALS
        assert decision.moment.hand == obs.hands_played + 1
    assert review.total_cost == pytest.approx(sum(d.cost for d in review.decisions))
    assert [hand.number for hand in review.hands] == [1, 2]
    final = record.replay()
    for hand in review.hands:
        assert hand.points == final.history[hand.number - 1].hand_scores[1]
        own = [d for d in review.decisions if d.moment.hand == hand.number]
        assert hand.decisions == len(own)
        assert hand.cost == pytest.approx(sum(d.cost for d in own))
        bid = next(d for d in own if d.moment.made.startswith("bid "))
        assert hand.summary.startswith(f"bid {bid.moment.made.split()[1]}")
    assert review.name == "Ben"
    assert "bots' quick policy" in review.model


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [
        ("pluck", {"hands": "1"}, 3),
        ("euchre", {"target": "1"}, 4),
        ("buckup", {"hands": "1"}, 4),
    ],
)
def test_a_hand_of_each_game_with_its_own_decisions_is_reviewed(
    tmp_path: Path, game: str, options: dict[str, str], players: int
) -> None:
    """Pluck's plucks and trump call, Euchre's auction and kitty, Buckup's stay or fold
    and draws: every decision of the seat with a choice gets values and a cost."""
    state = new_game(load_ruleset(game, options=options), players=players, seed=2)
    play_game(state, [make_bot("heuristic", seed=s) for s in range(players)])
    record = state.record()
    review = review_record(record, 0, deals=4)
    expected = decisions_with_a_choice(record, 0)
    reviewed = [d.moment.event for d in review.decisions] + [m.event for m in review.unvalued]
    assert sorted(reviewed) == [event for event, _ in expected]
    assert review.decisions
    assert all(d.cost >= 0 for d in review.decisions)
    assert all(hand.summary for hand in review.hands)


def test_the_losses_are_the_costliest_decisions_costliest_first(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    bot_game(two_hands(tmp_path), seed=8, players=3).record().save(path)
    review, _ = cached_review(path, 0, deals=DEALS)
    losses = review.losses()
    costly = sorted((d for d in review.decisions if d.cost > 0), key=lambda d: -d.cost)
    assert costly, "the bots' game has costly choices to rank"
    assert len(losses) == min(TOP_LOSSES, len(costly))
    assert [d.cost for d in losses] == [d.cost for d in costly[: len(losses)]]
    assert all(loss.cost > 0 for loss in losses)
    assert [d.moment.event for d in review.losses(2)] == [d.moment.event for d in losses[:2]]
    ranked = review.to_json()["losses"]
    assert [loss["rank"] for loss in ranked] == list(range(1, len(losses) + 1))
    assert [loss["event"] for loss in ranked] == [d.moment.event for d in losses]


def test_a_second_look_comes_from_the_cache_and_computes_nothing(record_file: Path) -> None:
    first, cached = cached_review(record_file, 0, deals=DEALS)
    assert not cached
    assert cache_path(record_file).is_file()

    def must_not_value(obs: Observation, **budget: Any) -> Hint:
        raise AssertionError("the cached review was computed again")

    again, cached = cached_review(record_file, 0, deals=DEALS, valuer=must_not_value)
    assert cached
    assert again == first
    # another seat or another budget is not the same review; both are kept
    other, cached = cached_review(record_file, 2, deals=DEALS)
    assert not cached
    assert other.seat == 2
    _, cached = cached_review(record_file, 0, deals=DEALS + 1)
    assert not cached
    for seat, deals in ((0, DEALS), (2, DEALS), (0, DEALS + 1)):
        assert cached_review(record_file, seat, deals=deals, valuer=must_not_value)[1]


def test_a_changed_record_is_reviewed_again(record_file: Path) -> None:
    cached_review(record_file, 0, deals=DEALS)
    record = GameRecord.load(record_file)
    record.with_names(["Ann", "Bo", "Cy", "Di"]).save(record_file)
    _, cached = cached_review(record_file, 0, deals=DEALS)
    assert not cached


def test_a_damaged_cache_is_computed_again(record_file: Path) -> None:
    cache_path(record_file).write_text("{not json", encoding="utf-8")
    review, cached = cached_review(record_file, 0, deals=DEALS)
    assert not cached
    kept = json.loads(cache_path(record_file).read_text(encoding="utf-8"))
    assert review.key in kept["reviews"]


def test_the_review_as_json_reads_back_the_same(record_file: Path) -> None:
    review = review_record(GameRecord.load(record_file), 0, deals=DEALS)
    data = json.loads(json.dumps(review.to_json()))
    assert Review.from_json(data) == review
    assert data["total_cost"] == pytest.approx(review.total_cost)
    assert len(data["decisions"]) == len(review.decisions)
    for decision in data["decisions"]:
        assert decision["cost"] >= 0
        assert decision["made"] in {choice["action"] for choice in decision["choices"]}


def test_the_same_deals_give_the_same_review(record_file: Path) -> None:
    record = GameRecord.load(record_file)
    one = review_record(record, 3, deals=DEALS)
    assert review_record(record, 3, deals=DEALS) == one


def test_progress_is_told_after_every_decision(record_file: Path) -> None:
    told: list[tuple[int, int]] = []
    review = review_record(
        GameRecord.load(record_file), 0, deals=4, progress=lambda d, t: told.append((d, t))
    )
    total = len(review.decisions)
    assert told == [(done, total) for done in range(total + 1)]


def test_a_seat_the_game_does_not_have_is_refused(record_file: Path) -> None:
    with pytest.raises(ValueError, match="seat 5"):
        review_record(GameRecord.load(record_file), 4, deals=DEALS)


def test_a_hand_sentence_says_the_bid_against_what_the_hand_was_worth() -> None:
    """docs/coach.md: 'bid 3 on a hand worth about 2: −8.0 points expected', then what
    the other choices of the hand cost."""
    bid = ReviewedDecision(
        Moment(1, 1, 2, None, "bid 3"),
        (ChoiceFigure("bid 2", 12.5, 0.4, 0.6), ChoiceFigure("bid 3", 4.5, 0.5, 0.2)),
        exact=False,
        samples=100,
    )
    card = ReviewedDecision(
        Moment(1, 2, 6, 1, "play 7H"),
        (ChoiceFigure("play AS", 9.0, 0.3, 0.5), ChoiceFigure("play 7H", 7.5, 0.3, 0.4)),
        exact=False,
        samples=100,
    )
    sentence = hand_sentence([bid, card], "chips")
    assert sentence.startswith("bid 3 on a hand worth about 2: −8.0 chips expected")
    assert "1 other choice cost 1.5 chips" in sentence
    assert "decision 2 (play 7H where play AS was worth 1.5 more)" in sentence
    good = ReviewedDecision(
        Moment(2, 1, 9, None, "bid 2"),
        (ChoiceFigure("bid 2", 12.5, 0.4, 0.6), ChoiceFigure("bid 3", 4.5, 0.5, 0.2)),
        exact=False,
        samples=100,
    )
    assert hand_sentence([good]) == "bid 2, the coach's bid too (12.5 expected)"
    assert hand_sentence([card]).startswith("1 choice cost 1.5 points expected in all")
