"""The command line: rules, play (driven through stdin), simulate and replay (start-up,
help, errors, workers and Ctrl-C: test_cli_runtime.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_cases import CARD_NUMBERS, HAND_FIELDS, REQUIRED, scripted
from tests.cli_command import Command
from tricktaker import Observation, Ruleset, list_rulesets, load_ruleset, new_game
from tricktaker.cards import format_card, pretty_card
from tricktaker.cli.human import read_reply
from tricktaker.cli.render import Cards
from tricktaker.engine import Action
from tricktaker.present.text import display_order

# A wide, fixed width: the output must not depend on the terminal running the tests.
runner = CliRunner(env={"COLUMNS": "200"})
command = Command(runner)
run, ok = command.run, command.ok


@pytest.fixture
def two_card_blackout(tmp_path: Path) -> Path:
    """House rules: Blackout with a single hand of two cards."""
    path = tmp_path / "short.toml"
    path.write_text(
        'extends = "blackout"\nid = "short"\n[schedule]\nsizes = "2"\n', encoding="utf-8"
    )
    return path


# ------------------------------------------------------------------- rules


def test_help_lists_the_commands() -> None:
    out = ok("--help")
    for command in ("rules", "play", "simulate", "replay"):
        assert command in out


def test_rules_lists_every_game() -> None:
    out = ok("rules")
    for game in list_rulesets():
        assert game in out
    assert "Caller Clag" in out
    assert "new_jersey" in out
    assert "2-15" in out


@pytest.mark.parametrize("game", ["bluke", "clag", "kachuful", "coop_blackout", "blackout"])
def test_rules_shows_one_game(game: str) -> None:
    rules = load_ruleset(game)
    out = ok("rules", game)
    assert out.startswith(f"# {rules.name}\n")  # the game's page, then options and schedule
    assert "Schedule" in out
    for name in rules.spec.options:
        assert name in out
    for players in rules.player_counts:  # one table at a time, 4 players by default
        sizes = rules.hands_for(players)
        table = out if players == 4 else ok("rules", game, "--players", str(players))
        assert f"Schedule for {players} players" in table
        assert f"({len(sizes)} hands)" in table


def test_rules_caller_clag_says_the_schedule_is_called() -> None:
    out = ok("rules", "caller_clag")
    assert "called" in out
    assert "hands" in out  # the option
    assert "Number of hands agreed in advance." in out


def test_rules_clag_marks_special_hands() -> None:
    out = ok("rules", "clag")
    assert "7*" in out
    assert "blind pile" in out


def test_rules_with_an_option_and_a_house_file(two_card_blackout: Path) -> None:
    out = ok("rules", "blackout", "--option", "reverse_deals=true")
    assert "Now" in out
    out = ok("rules", str(two_card_blackout))
    assert "Blackout" in out
    assert "(1 hands)" in out


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "nosuchgame"], "unknown game 'nosuchgame'"),
        (["rules", "blackout", "-o", "nope=1"], "unknown option 'nope'"),
        (["rules", "blackout", "-o", "hook=maybe"], "is not true or false"),
        (["rules", "bluke", "-o", "min_bid=7"], "above the maximum"),
        (["rules", "bluke", "-o", "=3"], "expects NAME=VALUE"),
        (["rules", "missing/file.toml"], "cannot read the ruleset file"),
        (["play", "nosuchgame"], "unknown game"),
        (["play", "blackout", "--players", "9"], "for 2 to 7 players, not 9"),
        (["play", "blackout", "--option", "hook=2"], "not true or false"),
        (["play", "blackout", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "blackout", "--bots", "random,random"], "--bots needs"),
        (["play", "blackout", "--seat", "5"], "--seat must be 1 to 4"),
        (["play", "blackout", "--seat", "0"], "seats are numbered from 1"),
        (["play", "bluke", "-n", "4", "-o", "extended=true"], "only for 3 players"),
        (["simulate", "kachuful", "--players", "2", "--bots", "random,random"], "not 2"),
        (["simulate", "clag", "--players", "4", "--bots", "random,random"], "give one per seat"),
        (["simulate", "clag", "--bots", "random,nope,random"], "unknown bot 'nope'"),
        (["simulate", "clag", "-n", "3", "-o", "zzz=1"], "unknown option 'zzz'"),
        (["replay", "does-not-exist.json"], "cannot read the record"),
    ],
)
def test_usage_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args, stdin="")
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.startswith("Error: ")


def test_typer_usage_errors_also_exit_2() -> None:
    assert run("simulate", "blackout", "--games", "0").exit_code == 2
    assert run("simulate", "blackout", "--nope").exit_code == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("this is not json", "not JSON"),
        ('{"format": "something-else"}', "not a tricktaker record"),
        ('{"format": "tricktaker-record", "version": 99}', "version 99"),
        ("[1, 2, 3]", "not a tricktaker record"),
    ],
)
def test_replay_rejects_corrupt_records(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert message in result.stderr


def test_replay_rejects_tampered_events(tmp_path: Path) -> None:
    ok("simulate", "blackout", "-n", "3", "-g", "1", "--record", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][1] = [0, "bid 99"]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert "event 2" in result.stderr


# ---------------------------------------------------------------- simulate


@pytest.mark.parametrize(
    ("game", "bots", "options"),
    [
        ("bluke", "heuristic,random,heuristic,random", []),
        ("clag", "random,heuristic,random", []),
        ("caller_clag", "heuristic,heuristic,random,random", ["-o", "hands=3"]),
        ("kachuful", "random,random,heuristic", []),
        ("blackout", "random,random,random,random", ["-o", "hook=true"]),
    ],
)
def test_simulate_json_lines(game: str, bots: str, options: list[str]) -> None:
    names = bots.split(",")
    args = ["simulate", game, "-n", str(len(names)), "-g", "3", "--bots", bots, "--seed", "10"]
    out = ok(*args, *options, "--json")
    lines = out.strip().splitlines()
    assert len(lines) == 3
    for k, line in enumerate(lines):
        data = json.loads(line)
        assert data.keys() >= REQUIRED
        assert data["game"] == game
        assert data["seed"] == 10 + k
        assert data["bots"] == names
        assert data["players"] == len(names)
        assert data["hands"]
        sums = [0] * len(names)
        for hand in data["hands"]:
            assert hand.keys() >= HAND_FIELDS
            assert sum(hand["tricks"]) == hand["hand_size"]
            assert len(hand["trick_cards"]) == hand["hand_size"]
            sums = [a + b for a, b in zip(sums, hand["hand_scores"], strict=True)]
            assert hand["total_scores"] == sums
        assert data["final_scores"] == sums
        best = max(sums)
        assert data["winners"] == [s for s, v in enumerate(sums) if v == best]
    if options:
        assert json.loads(lines[0])["options"][options[1].split("=")[0]] in (True, 3)
    assert ok(*args, *options, "--json") == out  # seeded: the same games again


def test_simulate_caller_clag_json_has_the_calls() -> None:
    out = ok("simulate", "caller_clag", "-n", "3", "-g", "1", "-o", "hands=2", "--json")
    hands = json.loads(out)["hands"]
    assert len(hands) == 2
    assert all(hand["special"]["caller_size"] == hand["hand_size"] for hand in hands)


def test_simulate_cooperative_json_and_table() -> None:
    args = ["simulate", "coop_blackout", "-n", "3", "-g", "2", "-o", "max_hands=4"]
    for line in ok(*args, "--json").strip().splitlines():
        data = json.loads(line)
        assert {"completed", "hands_played"} <= data.keys()
        assert data["hands_played"] == len(data["hands"]) <= 4
        assert data["winners"] == ([0, 1, 2] if data["completed"] else [])
    out = ok(*args)
    assert "Completion rate" in out
    assert "mean hands played" in out
    assert "Mean score" not in out


def test_simulate_table_counts_wins_and_exact_bids() -> None:
    out = ok("simulate", "bluke", "-n", "3", "-g", "4", "--bots", "heuristic,random,random")
    assert "Mean score" in out
    assert "Exact bids" in out
    assert "Wins" in out
    assert "heuristic" in out
    assert "seeds 0..3" in out


def test_simulate_record_then_replay(tmp_path: Path) -> None:
    out = run(
        "simulate",
        "clag",
        "-n",
        "4",
        "-g",
        "2",
        "--seed",
        "7",
        "--json",
        "--record",
        str(tmp_path / "recs"),
    )
    assert out.exit_code == 0
    games = [json.loads(line) for line in out.stdout.strip().splitlines()]
    assert "Records saved" in out.stderr
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert [f.name for f in files] == ["clag-seed7.json", "clag-seed8.json"]
    for path, game in zip(files, games, strict=True):
        text = ok("replay", str(path), "--tricks")
        assert "Clag" in text
        assert "Hand 20" in text
        assert "trick 1:" in text
        for score in game["final_scores"]:
            assert str(score) in text
        assert "Winner" in text


# -------------------------------------------------------------------- play


def other_cards_text(game: str | Path, players: int, seed: int, seat: int) -> list[str]:
    state = new_game(load_ruleset(game), players=players, seed=seed)
    state.apply_chance()
    return [
        pretty_card(card)
        for other in range(players)
        if other != seat
        for card in state.dealt[other]
    ]


def test_play_a_whole_short_game(two_card_blackout: Path, tmp_path: Path) -> None:
    seed = 3
    state = new_game(load_ruleset(two_card_blackout), players=4, seed=seed)
    state.apply_chance()
    mine = set(state.dealt[0])
    not_mine = next(c for c in range(52) if c not in mine and c != state.turn_up)
    # the hand line numbers the cards as they are held: the legal one's number, then 1
    numbers: list[str] = []

    def choose(obs: Observation, rules: Ruleset) -> tuple[str, Action]:
        if obs.phase == "bidding":
            return "0", Action("bid", 0)
        legal = obs.legal_actions[0]
        numbers.append(str(display_order(obs).index(int(legal.value)) + 1))
        return numbers[-1], legal

    scripted(str(two_card_blackout), seed, choose)
    stdin = "\n".join(["9", "0", format_card(not_mine), "ZZ", "?", numbers[0], "scores", "1", ""])
    out = ok(
        "play",
        str(two_card_blackout),
        "--seed",
        str(seed),
        "--record",
        str(tmp_path / "recs"),
        stdin=stdin,
    )
    assert "Hand 1 of 1" in out
    assert "Trump:" in out
    assert "rule: bid range" in out  # bid 9 refused, then asked again
    assert "you do not hold" in out
    assert "is not a card" in out
    assert "Legal:" in out
    assert "-> " in out
    assert "the trick" in out
    assert "Final scorecard" in out
    assert "S/O/P" in out
    assert "Winner" in out
    # the first prompt shows no other seat's cards
    before = out.split("Your bid")[0]
    for text in other_cards_text(two_card_blackout, 4, seed, 0):
        assert text not in before
    saved = list((tmp_path / "recs").glob("*.json"))
    assert len(saved) == 1
    assert f"Record saved: {saved[0]}" in out
    assert "Winner" in ok("replay", str(saved[0]))


def test_play_end_of_input_abandons_cleanly() -> None:
    result = run("play", "bluke", "--seed", "1", stdin="")
    assert result.exit_code == 0
    assert "Game stopped" in result.stdout


def test_play_quit_abandons_cleanly(tmp_path: Path) -> None:
    out = ok("play", "clag", "-n", "3", "--seed", "2", "--record", str(tmp_path), stdin="quit\n")
    assert "Game stopped after 0 complete hands" in out
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_play_caller_clag_calls_through_the_prompt() -> None:
    seed = 2
    dealer = new_game(load_ruleset("caller_clag"), players=4, seed=seed).first_dealer
    calls = ["9", "5", "2", "nuloss", "nuloss", "done"]
    stdin = "\n".join(calls) + "\n" + CARD_NUMBERS
    out = ok(
        "play",
        "caller_clag",
        "-o",
        "hands=1",
        "--seed",
        str(seed),
        "--seat",
        str(dealer + 1),
        stdin=stdin,
    )
    assert "Call the hand size (3-7)" in out
    assert "call_size 9 is not possible now" in out
    assert "You call a hand of 5 cards." in out
    assert "1) normal" in out
    assert "2) no_trump" in out
    assert "You call no trump." in out
    assert "You add the modifier nuloss." in out
    assert "nuloss is already called" in out
    assert "You finish the call: 5 cards, no_trump + nuloss." in out
    assert "Final scorecard" in out


def test_play_kachuful_bids_are_simultaneous(tmp_path: Path) -> None:
    path = tmp_path / "kachuful2.toml"
    path.write_text(
        'extends = "kachuful"\nid = "kachuful2"\n[schedule]\nsizes = "1..2"\n', encoding="utf-8"
    )
    out = ok("play", str(path), "--seed", "1", "--seat", "3", "-b", "random", stdin="1\n" * 10)
    first_prompt = out.index("Your bid")
    assert "has bid" not in out[:first_prompt]
    assert "bids are revealed together" in out[:first_prompt]
    assert out.index("Bids revealed") > first_prompt
    assert "Final scorecard" in out


def test_play_blind_bid_and_pile_say_the_cards_are_hidden(tmp_path: Path) -> None:
    path = tmp_path / "blind.toml"
    path.write_text(
        'extends = "clag"\nid = "blind"\n[schedule]\nsizes = "2, 2"\nspecial = [\n'
        '  { hand = 1, name = "blind_bid", blind_bid = true },\n'
        '  { hand = 2, name = "blind_pile", pile = true },\n]\n',
        encoding="utf-8",
    )
    stdin = "\n".join(["0", "1", "1", "1", "0", "1", "", ""] * 2) + "\n"
    out = ok("play", str(path), "-n", "3", "--seed", "4", stdin=stdin)
    assert "hidden: you bid blind" in out
    assert "face-down pile" in out
    assert "from the pile" in out
    assert "Final scorecard" in out


def test_play_cooperative_reports_the_team_result() -> None:
    cycle = "\n".join(["0", "1", "2", "3"] * 60) + "\n"
    out = ok("play", "coop_blackout", "-n", "2", "-o", "max_hands=3", "--seed", "1", stdin=cycle)
    assert "Final scorecard" in out
    assert "Hands played: " in out
    assert "the table" in out
    assert "Winner" not in out


# ------------------------------------------------------------- input parsing


def test_read_reply_understands_bids_cards_and_commands() -> None:
    state = new_game(load_ruleset("blackout"), players=4, seed=0)
    state.apply_chance()
    seat = state.to_act()[0]
    obs = state.observe(seat)
    cards = Cards()
    assert read_reply("2", obs, cards).action == Action.parse("bid 2")
    assert read_reply("bid 1", obs, cards).action == Action.parse("bid 1")
    assert read_reply("?", obs, cards).command == "help"
    assert read_reply("quit", obs, cards).command == "quit"
    assert read_reply("scores", obs, cards).command == "scores"
    assert read_reply("lots", obs, cards).error is not None
    while state.phase_name == "bidding":
        who = state.to_act()[0]
        state.apply(who, state.legal_actions(who)[0])
    obs = state.observe(state.to_act()[0])
    for text, card in [("AS", "AS"), ("as", "AS"), ("10h", "10H"), ("play 2c", "2C")]:
        assert read_reply(text, obs, cards).action == Action.parse(f"play {card}")
    assert read_reply("1", obs, cards).action == obs.legal_actions[0]
    assert read_reply("99", obs, cards).error is not None
    assert read_reply("XY", obs, cards).error is not None


# ------------------------------------------------------------------ replay


@pytest.mark.parametrize(
    ("game", "options", "expected"),
    [
        ("pluck", ["hands=2"], ["Quotas:", "Plucks before play: ", "quota"]),
        ("euchre", ["target=2"], ["Contract", "tricks by team"]),
        ("buckup", ["hands=2"], ["Pot:", "Payments:", "Stack"]),
    ],
)
def test_replay_shows_each_games_own_summary(
    tmp_path: Path, game: str, options: list[str], expected: list[str]
) -> None:
    args = ["simulate", game, "-g", "1", "--record", str(tmp_path)]
    for option in options:
        args += ["-o", option]
    ok(*args)
    path = next(tmp_path.glob("*.json"))
    out = ok("replay", str(path), "--tricks")
    for text in expected:
        assert text in out
    assert "trick 1:" in out
    assert "Winner: " in out or "Winning team: " in out or "Winners (tied)" in out
