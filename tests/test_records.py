"""Game records (README.md, The library): versioned JSON that reproduces every hand
and score, with clear errors for anything that cannot be read or replayed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import game
from tricktaker import (
    GameRecord,
    GameState,
    RecordError,
    list_rulesets,
    load_ruleset,
    new_game,
    replay,
)
from tricktaker.bots import make_bot, play_game
from tricktaker.engine.actions import Action


def played(
    name: str, players: int, *, seed: int = 0, options: dict[str, object] | None = None
) -> GameState:
    state = new_game(load_ruleset(name, options=options), players=players, seed=seed)
    play_game(state, [make_bot("random", seed=seed + s) for s in range(players)])
    return state


@pytest.fixture(scope="module")
def finished_text() -> str:
    return played("blackout", 4, seed=3).record().dumps()


def data_of(text: str) -> dict[str, Any]:
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def replay_text(text: str) -> GameState:
    return replay(GameRecord.loads(text))


# ------------------------------------------------------------------- format


def test_record_json_has_the_documented_fields(finished_text: str) -> None:
    data = data_of(finished_text)
    assert data["format"] == "tricktaker-record"
    assert data["version"] == 1
    assert data["game"] == "blackout"
    assert data["options"] == dict(load_ruleset("blackout").options)
    assert data["seed"] == 3
    assert data["players"] == 4
    assert isinstance(data["first_dealer"], int)
    assert data["finished"] is True
    assert isinstance(data["final_scores"], list)
    assert isinstance(data["ruleset"], dict)
    events = data["events"]
    assert isinstance(events, list)
    assert events[0][0] == "deal"
    assert all(isinstance(e, list) and len(e) == 2 for e in events)
    seat_events = [e for e in events if isinstance(e[0], int)]
    assert {e[1].split()[0] for e in seat_events} == {"bid", "play"}


def test_record_options_are_recorded_and_replayed() -> None:
    state = played("blackout", 4, seed=1, options={"hook": True, "reverse_deals": True})
    text = state.record().dumps()
    data = data_of(text)
    assert data["options"]["hook"] is True
    assert data["options"]["reverse_deals"] is True
    again = replay_text(text)
    assert again.rules.options == state.rules.options
    assert again.scores == state.scores
    assert again.history == state.history


def test_an_unfinished_record_replays_and_continues() -> None:
    state = game("bluke", 3, seed=4)
    bots = [make_bot("random", seed=s) for s in range(3)]
    play_game(state, bots, until_hand_end=True)
    state.apply_chance()
    record = state.record()
    assert not record.finished
    assert record.final_scores is None
    again = replay(GameRecord.loads(record.dumps()))
    assert again.record().dumps() == record.dumps()
    assert again.phase_name == state.phase_name
    play_game(state, [make_bot("random", seed=9 + s) for s in range(3)])
    play_game(again, [make_bot("random", seed=9 + s) for s in range(3)])
    assert again.record().dumps() == state.record().dumps()


@pytest.mark.parametrize("name", list_rulesets())
def test_every_game_replays_from_its_record(name: str) -> None:
    """README.md, The library: every game replays exactly from its record of actions."""
    rules = load_ruleset(name)
    for players in rules.player_counts:
        state = played(name, players, seed=players)
        text = state.record().dumps()
        again = replay_text(text)
        assert again.is_terminal()
        assert again.scores == state.scores
        assert again.history == state.history
        assert again.winners() == state.winners()
        assert again.record().dumps() == text


# ---------------------------------------------------------------- bad records


def _set(field: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[field] = value

    return change


def _drop(field: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        del data[field]

    return change


def _illegal_bid(data: dict[str, Any]) -> None:
    index = next(i for i, e in enumerate(data["events"]) if isinstance(e[0], int))
    data["events"][index] = [data["events"][index][0], "bid 99"]


def _out_of_turn(data: dict[str, Any]) -> None:
    index = next(i for i, e in enumerate(data["events"]) if isinstance(e[0], int))
    seat, text = data["events"][index]
    data["events"][index] = [(seat + 1) % data["players"], text]


def _tamper_scores(data: dict[str, Any]) -> None:
    data["final_scores"][0] += 1


def _truncate(data: dict[str, Any]) -> None:
    data["events"] = data["events"][:-5]
    data["final_scores"] = None


def _truncate_keeping_scores(data: dict[str, Any]) -> None:
    data["events"] = data["events"][:-5]


def _bad_card(data: dict[str, Any]) -> None:
    data["events"][0] = ["deal", "ZZ " + data["events"][0][1]]


def _bad_deal(data: dict[str, Any]) -> None:
    cards = data["events"][0][1].split()
    data["events"][0] = ["deal", " ".join([cards[1], *cards[1:]])]


def _bad_action_text(data: dict[str, Any]) -> None:
    index = next(i for i, e in enumerate(data["events"]) if isinstance(e[0], int))
    data["events"][index] = [data["events"][index][0], "dance 3"]


def _malformed_event(data: dict[str, Any]) -> None:
    data["events"][3] = [1]


def _bool_seat(data: dict[str, Any]) -> None:
    index = next(i for i, e in enumerate(data["events"]) if isinstance(e[0], int))
    data["events"][index] = [True, data["events"][index][1]]


def _bad_ruleset(data: dict[str, Any]) -> None:
    data["ruleset"]["players"] = {"min": 2, "max": 99}


def _unknown_option(data: dict[str, Any]) -> None:
    data["options"]["no_such_option"] = True


CORRUPTIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "wrong format": (_set("format", "chess-pgn"), "not a tricktaker record"),
    "no format": (_drop("format"), "not a tricktaker record"),
    "wrong version": (_set("version", 99), "version 99 is not supported"),
    "missing version": (_drop("version"), "version None is not supported"),
    "missing game": (_drop("game"), "'game' is missing"),
    "missing events": (_drop("events"), "'events' is missing"),
    "missing seed": (_drop("seed"), "'seed' is missing"),
    "missing players": (_drop("players"), "'players' is missing"),
    "missing ruleset": (_drop("ruleset"), "'ruleset' is missing"),
    "missing finished": (_drop("finished"), "'finished' is missing"),
    "seed not a number": (_set("seed", "seven"), "'seed' is missing or not"),
    "scores not numbers": (_set("final_scores", ["a"]), "final_scores"),
    "illegal bid": (_illegal_bid, "event 2"),
    "out of turn": (_out_of_turn, "turn"),
    "tampered final scores": (_tamper_scores, "differ from the recorded"),
    "truncated but finished": (_truncate, "events end early"),
    "truncated with final scores": (_truncate_keeping_scores, "differ from the recorded"),
    "unknown card": (_bad_card, "event 1"),
    "deal not the deck": (_bad_deal, "whole deck"),
    "unknown action": (_bad_action_text, "unknown action kind"),
    "malformed event": (_malformed_event, "event 4 is malformed"),
    "bool seat": (_bool_seat, "neither a seat nor a chance step"),
    "invalid ruleset": (_bad_ruleset, "cannot be set up"),
    "unknown option": (_unknown_option, "unknown option"),
    "wrong player count": (_set("players", 1), "cannot be set up"),
    "bad first dealer": (_set("first_dealer", 9), "first.dealer"),
}


@pytest.mark.parametrize("why", sorted(CORRUPTIONS))
def test_corrupt_records_give_clear_errors(finished_text: str, why: str) -> None:
    change, message = CORRUPTIONS[why]
    data = data_of(finished_text)
    change(data)
    with pytest.raises(RecordError) as info:
        replay_text(json.dumps(data))
    assert re.search(message, str(info.value)), str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("this is not json", "not JSON"),
        ("", "not JSON"),
        ("[1, 2, 3]", "not a tricktaker record"),
        ('"a string"', "not a tricktaker record"),
        ("null", "not a tricktaker record"),
    ],
)
def test_unreadable_records_give_clear_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text)


def test_truncated_unfinished_record_is_accepted(finished_text: str) -> None:
    """A record of a game in progress (finished false, no final scores) replays."""
    data = data_of(finished_text)
    data["events"] = data["events"][:40]
    data["finished"] = False
    data["final_scores"] = None
    state = replay_text(json.dumps(data))
    assert not state.is_terminal()


@pytest.mark.parametrize("oddity", ["bid True", "seat True"])
def test_every_accepted_action_replays(oddity: str) -> None:
    """Whatever the engine accepts must be written so that the record replays
    (a bool is an int to Python: ``True`` as a bid or as seat 1)."""
    state = game("blackout", 4, first_dealer=0)
    state.apply_chance()
    seat: int = state.to_act()[0]
    assert seat == 1
    action = Action("bid", True) if oddity == "bid True" else Action("bid", 0)
    if oddity == "seat True":
        seat = True
    try:
        state.apply(seat, action)
    except ValueError:
        return  # refused: fine
    replay_text(state.record().dumps())


# ------------------------------------------------------------ house rules


HOUSE_RULES = """
extends = "blackout"
id = "house_blackout"
name = "House Blackout"
description = "Our kitchen-table Blackout: hook rule, and 5 points for an exact bid."

[bidding]
hook = true

[scoring]
exact = "tricks + 5"
otherwise = "tricks"
"""


def test_house_rule_records_replay_without_the_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES, encoding="utf-8")
    rules = load_ruleset(path)
    state = new_game(rules, players=4, seed=11)
    play_game(state, [make_bot("heuristic", seed=s) for s in range(4)])
    text = state.record().dumps()
    path.unlink()
    assert data_of(text)["game"] == "house_blackout"
    again = replay_text(text)
    assert again.rules.id == "house_blackout"
    assert again.rules.spec.bidding.hook
    assert again.scores == state.scores
    assert again.history == state.history
    for hand in again.history:
        assert sum(hand.bids) != hand.hand_size  # the hook rule came from the record
        exact = [b == t for b, t in zip(hand.bids, hand.tricks, strict=True)]
        assert list(hand.hand_scores) == [
            t + (5 if e else 0) for t, e in zip(hand.tricks, exact, strict=True)
        ]


def test_house_rule_options_replay(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES, encoding="utf-8")
    state = new_game(load_ruleset(path, options={"full_rotation": True}), players=5, seed=2)
    play_game(state, [make_bot("random", seed=s) for s in range(5)])
    text = state.record().dumps()
    path.unlink()
    again = replay_text(text)
    assert again.rules.options["full_rotation"] is True
    assert [h.hand_size for h in again.history] == [*range(1, 11), *range(9, 0, -1)]


# ------------------------------------------------------------ save and load


def test_save_and_load(tmp_path: Path) -> None:
    state = played("kachuful", 5, seed=8)
    path = tmp_path / "game.json"
    state.record().save(path)
    loaded = GameRecord.load(path)
    assert loaded == state.record()
    again = replay(loaded)
    assert again.scores == state.scores
    assert again.record().dumps() == state.record().dumps()
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "tricktaker-record"


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.json"
    with pytest.raises(RecordError, match=r"nothing\.json"):
        GameRecord.load(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json.*not JSON"):
        GameRecord.load(broken)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match=r"binary\.json"):
        GameRecord.load(binary)


def test_replay_reproduces_the_draw_for_dealer() -> None:
    """A replayed (or resumed) game shows what the original showed, the table's draw
    for the first dealer included (docs/games/bluke.md, Options: `draw_for_dealer`)."""
    rules = load_ruleset("bluke", options={"draw_for_dealer": True})
    state = new_game(rules, players=4, seed=12)
    assert state.dealer_draw
    again = replay_text(state.record().dumps())
    assert again.first_dealer == state.first_dealer
    assert again.dealer_draw == state.dealer_draw
    assert again.observe(0).dealer_draw == state.observe(0).dealer_draw


def test_records_with_custom_joker_labels_replay(tmp_path: Path) -> None:
    """A house Bluke may name its jokers (deck.joker_labels); its records must still replay."""
    path = tmp_path / "labels.toml"
    path.write_text(
        'extends = "bluke"\nid = "bluke_labels"\nname = "Bluke"\n'
        'description = "Jokers HI and LO."\n[deck]\njoker_labels = ["HI", "LO"]\n',
        encoding="utf-8",
    )
    state = new_game(load_ruleset(path), players=4, seed=1)
    play_game(state, [make_bot("random", seed=s) for s in range(4)])
    text = state.record().dumps()
    again = replay_text(text)
    assert again.scores == state.scores
    assert again.record().dumps() == text


def test_records_made_before_a_game_had_hooks_replay() -> None:
    """A record saved when the engine took Caller Clag's calls itself holds its ruleset
    without hooks: it replays as the shipped game, through its hooks; a called schedule
    that no hooks take is refused, naming the setting."""
    state = played("caller_clag", 4, seed=5)
    data = json.loads(state.record().dumps())
    assert data["ruleset"].pop("hooks") == "caller_clag"
    again = replay_text(json.dumps(data))
    assert again.rules.spec.hooks == "caller_clag"
    assert again.history == state.history
    assert again.scores == state.scores
    data["ruleset"]["id"] = "my_caller"
    with pytest.raises(RecordError, match=r"schedule\.called"):
        replay_text(json.dumps(data))
