"""The command line: rules, play (driven through stdin), simulate and replay (start-up,
help, errors, workers and Ctrl-C: test_cli_runtime.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_command import Command
from tricktaker import GameState, Observation, Ruleset, list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import format_card, parse_card, pretty_card
from tricktaker.cli.common import default_players, make_bots, start_game
from tricktaker.cli.human import read_reply
from tricktaker.cli.play import table_names
from tricktaker.cli.render import Cards
from tricktaker.cli.scorecards import result_line, score_unit
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

REQUIRED = {
    "game",
    "options",
    "players",
    "seed",
    "bots",
    "final_scores",
    "hands",
    "winners",
}
HAND_FIELDS = {
    "hand_size",
    "dealer",
    "trump",
    "turn_up",
    "deal",
    "bids",
    "trick_cards",
    "tricks",
    "trick_winners",
    "hand_scores",
    "total_scores",
}


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


CARD_NUMBERS = "".join(f"{number}\n" for number in range(1, 19)) * 20
"""Card numbers in turn: every prompt meets a legal card within one round of numbers."""


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


# ------------------------------------------- games with their own phases
#
# Pluck (docs/games/pluck.md), Euchre (docs/games/euchre.md) and
# Buckup (docs/games/buckup.md): plucks, auctions, kitties, antes and pots at the table.
# A game is driven through stdin by a script computed with the same engine and bots
# as the command (``scripted``), so the lines typed are legal and the outcome known.

Chooser = Callable[[Observation, Ruleset], tuple[str, Action]]


def needs(game: str) -> pytest.MarkDecorator:
    """Skip while the game's preset is not shipped (games written alongside the CLI)."""
    return pytest.mark.skipif(game not in list_rulesets(), reason=f"no {game} preset yet")


def scripted(
    game: str, seed: int, choose: Chooser, *, seat: int = 0, options: Sequence[str] = ()
) -> tuple[list[str], GameState, list[tuple[int, Action]]]:
    """Play the game as ``tricktaker play`` would (same seeds, heuristic bots), the person's
    seat deciding with ``choose``: the lines to type, the final state and every action."""
    rules = load_ruleset(game, options=dict(o.split("=", 1) for o in options))
    players = default_players(rules)
    state = start_game(rules, players, seed)
    bots = make_bots({s: "heuristic" for s in range(players) if s != seat}, seed)
    lines: list[str] = []
    events: list[tuple[int, Action]] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        waiting = state.to_act()
        who = seat if seat in waiting else waiting[0]
        obs = state.observe(who)
        if who == seat:
            text, action = choose(obs, rules)
            lines.append(text)
        else:
            action = bots[who].act(obs)
        events.append((who, action))
        state.apply(who, action)
    return lines, state, events


def seen_names(players: int, me: int) -> list[str]:
    """The seats' names as the person in seat ``me`` is told them, bots in the others:
    ``You``, and a short name for each bot (Ben, Cleo...)."""
    others = [seat for seat in range(players) if seat != me]
    names = table_names(players, [me], others, None)
    return ["You" if seat == me else name for seat, name in enumerate(names)]


def play_args(game: str, seed: int, options: Sequence[str], seat: int = 0) -> list[str]:
    args = ["play", game, "--seed", str(seed), "--seat", str(seat + 1)]
    for option in options:
        args += ["-o", option]
    return args


def card_word(card: object, rules: Ruleset) -> str:
    assert isinstance(card, int)
    return format_card(card, labels=rules.joker_labels).lower()


def final_line(state: GameState, seat: int = 0) -> str:
    names = seen_names(state.players, seat)
    unit = score_unit(state.history, state.rules.spec.hooks)
    teams = state.setup.partnerships
    return result_line(state.winners(), names, state.scores, teams, unit=unit)


def pluck_chooser(obs: Observation, rules: Ruleset) -> tuple[str, Action]:
    """Bare cards for plucks and plays, Enter for the forced give-back, a suit name."""
    first = obs.legal_actions[0]
    if obs.phase in ("pluck", "playing"):
        return card_word(first.value, rules), first
    if obs.phase == "give_back":
        return "", first
    assert obs.phase == "call_trump"
    return "spades", Action("call_trump", "S")


def pluck_game_with_plucks() -> tuple[int, list[str], GameState, list[tuple[int, Action]]]:
    """A seeded 2-hand Pluck where the person (seat 0) plucks and two bots pluck too."""
    for seed in range(60):
        lines, state, events = scripted("pluck", seed, pluck_chooser, options=["hands=2"])
        plucks = state.history[1].extra["plucks"]
        mine = any(p["plucker"] == 0 for p in plucks)
        theirs = any(0 not in (p["plucker"], p["pluckee"]) for p in plucks)
        if mine and theirs:
            return seed, lines, state, events
    pytest.fail("no seed below 60 has both kinds of pluck")


def test_play_pluck_with_plucks_hides_other_players_cards() -> None:
    seed, lines, state, _ = pluck_game_with_plucks()
    out = ok(*play_args("pluck", seed, ["hands=2"]), stdin="\n".join(lines) + "\n")
    assert "Hand 1 of 2" in out
    assert "Hand 2 of 2" in out
    assert "Quotas:" in out
    assert "Quota" in out  # the seat grid's column
    assert "To come:" in out  # pending plucks, before the person's pluck
    for pluck in state.history[1].extra["plucks"]:
        plucker, pluckee = (seen_names(3, 0)[s] for s in (pluck["plucker"], pluck["pluckee"]))
        given = pretty_card(parse_card(pluck["given"], labels=("BJ", "LJ")), labels=("BJ", "LJ"))
        if plucker == "You":
            # docs/games/pluck.md, Plucks: the plucker gives one card; the pluckee gives
            # back their highest card of that suit.
            assert f"You pluck {pluckee}, giving {given}." in out
            assert f"{pluckee} gives back " in out
            assert f"You plucked {pluckee} (gave {given}, got back " in out
        else:
            # the cards passed are seen only by the two players involved
            assert f"{plucker} plucks {pluckee}, giving a card face down." in out
            assert f"{pluckee} gives back a card to {plucker}." in out
            assert f"{plucker} plucked {pluckee};" in out or f"{plucker} plucked {pluckee}\n" in out
    assert "Scorecard (quota/won over)" in out
    assert "Final scorecard" in out
    assert "S/O/P" in out  # quotas are per-seat targets
    assert final_line(state) in out
    assert "tricks over quota" in final_line(state) or "trick over quota" in final_line(state)


def test_play_pluck_dealer_names_trump_by_suit_name() -> None:
    dealer = new_game(load_ruleset("pluck"), players=3, seed=5).first_dealer
    out = ok(*play_args("pluck", 5, ["hands=1"], seat=dealer), stdin="?\nhearts\n" + CARD_NUMBERS)
    assert "1) ♣ clubs" in out
    assert "You name ♥ hearts as trump." in out
    assert "Trump: ♥ hearts" in out
    assert "Final scorecard" in out


def test_simulate_pluck_table_and_json() -> None:
    out = ok("simulate", "pluck", "-g", "3", "-o", "hands=2")
    for column in ("Tricks over quota", "Met quota", "Wins", "Win rate"):
        assert column in out
    assert "Exact bids" not in out
    lines = ok("simulate", "pluck", "-g", "2", "-o", "hands=2", "--json").strip().splitlines()
    for line in lines:
        data = json.loads(line)
        assert data.keys() >= REQUIRED
        assert data["game"] == "pluck"
        assert data["options"]["hands"] == 2
        assert len(data["hands"]) == 2
        for hand in data["hands"]:
            assert hand.keys() >= HAND_FIELDS | {"quotas", "plucks"}
            assert hand["bids"] == hand["quotas"]
            assert sorted(hand["quotas"]) == [4, 6, 7]
            assert sum(hand["tricks"]) == 17
            assert hand["hand_scores"] == [
                t - q for t, q in zip(hand["tricks"], hand["quotas"], strict=True)
            ]
        assert data["hands"][0]["plucks"] == []


def test_rules_pluck_shows_settings_hooks_and_game_length() -> None:
    out = ok("rules", "pluck")
    assert "Settings" in out
    assert "hands = 6" in out
    assert "quotas = 7, 6, 4" in out
    assert "17 cards each, every hand; the game lasts 6 hands." in out
    assert "(1 hands)" not in out
    assert "the game lasts 2 hands" in ok("rules", "pluck", "-o", "hands=2")


def test_read_reply_understands_pluck_actions() -> None:
    state = new_game(load_ruleset("pluck", options={"hands": 2}), players=3, seed=9)
    bots = [make_bot("random", seed=s) for s in range(3)]
    play_game(state, bots, until_hand_end=True)
    while state.is_chance():
        state.apply_chance()
    cards = Cards(labels=("BJ", "LJ"))
    obs = state.observe(state.to_act()[0])
    if obs.phase == "pluck":
        first = obs.legal_actions[0]
        word = card_word(first.value, state.rules)
        assert read_reply(word, obs, cards).action == first
        assert read_reply(f"pluck {word}", obs, cards).action == first
        assert read_reply("1", obs, cards).action == Action("pluck", display_order(obs)[0])
        assert read_reply("bj", obs, cards).action == Action("pluck", 52)  # refused later
        state.apply(obs.seat, first)
        obs = state.observe(state.to_act()[0])
        assert obs.phase == "give_back"
        assert read_reply("", obs, cards).action == obs.legal_actions[0]
        while state.phase_name != "call_trump":
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
        obs = state.observe(state.to_act()[0])
    assert obs.phase == "call_trump"
    for text in ("s", "S", "spades", "call_trump s", "♠", "4"):
        assert read_reply(text, obs, cards).action == Action("call_trump", "S"), text
    assert read_reply("xyz", obs, cards).error is not None


# ------------------------------------------------------------------ Euchre


def euchre_chooser(declare: bool) -> Chooser:
    """Bid no trump when possible (or always pass); discard and play the first legal card."""

    def choose(obs: Observation, rules: Ruleset) -> tuple[str, Action]:
        legal = obs.legal_actions
        if obs.phase == "auction":
            nt = Action("auction", "NT")
            if declare and nt in legal:
                return "nt", nt
            return "pass", Action("pass")
        return card_word(legal[0].value, rules), legal[0]

    return choose


@needs("euchre")
def test_play_euchre_as_declarer_sees_kitty_and_discards() -> None:
    for seed in range(40):
        lines, state, _ = scripted("euchre", seed, euchre_chooser(True), options=["target=1"])
        contract = state.history[-1].extra["contract"]
        if contract is not None and contract["bidder"] == 0:
            break
    else:
        pytest.fail("no seed where seat 0 declares")
    out = ok(*play_args("euchre", seed, ["target=1"]), stdin="\n".join(lines) + "\n")
    assert "Teams:   You & Cleo vs Ben & Dot" in out  # the bots by their short names
    assert "Auction:" in out
    assert "You bid no trump (5)." in out
    assert "Contract: You: 5 tricks, no trump. You take the kitty: " in out
    assert "Kitty:" in out
    assert "Discards:" in out
    # docs/games/euchre.md, Kitty and discard: any three cards
    assert out.count("You discard ") == 3
    assert "game to 1" in out
    assert "Final scorecard" in out
    assert final_line(state) in out
    assert "S/O/P" not in out  # no per-seat bids


@needs("euchre")
def test_play_euchre_hides_a_bot_declarers_kitty_and_discards() -> None:
    for seed in range(40):
        lines, state, events = scripted("euchre", seed, euchre_chooser(False), options=["target=1"])
        contract = state.history[-1].extra["contract"]
        if contract is not None:
            break
    else:
        pytest.fail("no seed where a bot declares")
    out = ok(*play_args("euchre", seed, ["target=1"]), stdin="\n".join(lines) + "\n")
    declarer = seen_names(4, 0)[contract["bidder"]]
    assert "You pass." in out
    assert f"{declarer} takes the kitty and discards three cards." in out
    assert out.count(f"{declarer} discards a card.") == 3
    assert "Kitty:" not in out
    for _, action in events:
        if action.kind == "discard":
            assert f"discards {pretty_card(int(action.value))}" not in out
    hand = state.history[-1]
    team = "You & Cleo" if contract["bidder"] in (0, 2) else "Ben & Dot"
    assert team in out
    assert ("- made" in out) == (hand.hand_scores[contract["bidder"]] > 0)
    assert final_line(state) in out
    assert "Winning team:" in out


@needs("euchre")
def test_simulate_euchre_table_and_json() -> None:
    out = ok("simulate", "euchre", "-g", "2", "-o", "target=3", "-b", "heuristic,random," * 2)
    for column in ("Team", "Mean points", "Declared", "Made", "Wins"):
        assert column in out
    assert "A team's win counts for both partners" in out
    text = ok("simulate", "euchre", "-g", "2", "-o", "target=3", "--json")
    for line in text.strip().splitlines():
        data = json.loads(line)
        assert data.keys() >= REQUIRED
        assert data["partnerships"] == [[0, 2], [1, 3]]
        assert data["winners"] in ([0, 2], [1, 3])
        assert max(data["final_scores"]) >= 3
        for hand in data["hands"]:
            extra = {"contract", "partnership_tricks", "auction", "kitty", "discards", "thrown_in"}
            assert hand.keys() >= HAND_FIELDS | extra
            assert hand["bids"] == []
            if not hand["thrown_in"]:
                assert set(hand["contract"]) == {"bidder", "tricks", "trump"}
                assert sum(hand["partnership_tricks"]) == 5
                assert len(hand["discards"]) == 3


@needs("euchre")
def test_rules_euchre_says_how_the_game_ends() -> None:
    out = ok("rules", "euchre", "-o", "target=7")
    assert "target = 7" in out
    assert "open-ended" in out
    assert "the game ends after the hand in" in out
    assert "which a team reaches the target" in out


@needs("euchre")
def test_read_reply_understands_auction_words() -> None:
    state = new_game(load_ruleset("euchre"), players=4, seed=1)
    state.apply_chance()
    obs = state.observe(state.to_act()[0])
    cards = Cards()
    assert read_reply("4h", obs, cards).action == Action("auction", "4H")
    assert read_reply("auction 4h", obs, cards).action == Action("auction", "4H")
    assert read_reply("NT", obs, cards).action == Action("auction", "NT")
    assert read_reply("pass", obs, cards).action == Action("pass")
    assert read_reply("1", obs, cards).action == obs.legal_actions[0]


# ------------------------------------------------------------------ Buckup


def buckup_chooser(obs: Observation, rules: Ruleset) -> tuple[str, Action]:
    """Ante by its word, keep, stay, discard two cards by bare card, draw, play cards."""
    legal = obs.legal_actions
    kinds = {a.kind for a in legal}
    if "ante" in kinds:
        return "kept", Action("ante", "kept")
    if "keep" in kinds:
        return "keep", Action("keep")
    if "stay" in kinds:
        return "stay", Action("stay")
    if "draw" in kinds:
        if len(obs.my_cards) > 3:
            discard = next(a for a in legal if a.kind == "discard")
            return card_word(discard.value, rules), discard
        return "draw", Action("draw")
    if obs.phase == "playing":
        return card_word(legal[0].value, rules), legal[0]
    return "1", legal[0]


@needs("buckup")
def test_play_buckup_shows_pot_stacks_and_payments() -> None:
    options = ["hands=1", "max_hands=1"]
    seed = 5
    lines, state, events = scripted("buckup", seed, buckup_chooser, options=options)
    out = ok(*play_args("buckup", seed, options), stdin="\n".join(lines) + "\n")
    assert "Pot:" in out
    assert "Ante:" in out
    assert "Stock:" in out
    assert "Payments:" in out
    assert "Status" in out
    assert "Stack" in out
    assert " pay 5 (ante)." in out
    mine = [a for s, a in events if s == 0 and a.kind == "discard"]
    for action in mine:
        assert f"You discard {pretty_card(int(action.value))}." in out
    for seat, action in events:
        if seat != 0 and action.kind == "discard":
            name = seen_names(4, 0)[seat]
            assert f"{name} discards a card." in out
            assert f"{name} discards {pretty_card(int(action.value))}" not in out
    if mine:
        assert "You draw " in out
    hand = state.history[-1]
    assert f"Pot: {hand.extra['pot_before']} carried in" in out
    # docs/games/buckup.md, Chips, antes and the pot: every chip is accounted for
    assert sum(hand.extra["stacks"]) + hand.extra["pot_after"] == 4 * 500
    assert "Stack" in out.split("Final scorecard")[1]
    assert final_line(state) in out
    assert "chips net" in final_line(state) or "chip net" in final_line(state)


@needs("buckup")
def test_simulate_buckup_table_and_json() -> None:
    out = ok("simulate", "buckup", "-g", "2", "-o", "hands=3")
    for column in ("Mean net chips", "Pots won", "Burned", "Wins"):
        assert column in out
    text = ok("simulate", "buckup", "-g", "2", "-o", "hands=3", "--json")
    for line in text.strip().splitlines():
        data = json.loads(line)
        assert data.keys() >= REQUIRED
        best = max(data["final_scores"])
        assert data["winners"] == [s for s, v in enumerate(data["final_scores"]) if v == best]
        for hand in data["hands"]:
            extra = {"pot_before", "payments", "pot_after", "stacks", "winners", "burned", "ante"}
            assert hand.keys() >= HAND_FIELDS | extra
            assert hand["bids"] == []
            assert sum(hand["stacks"]) + hand["pot_after"] == 4 * 500
        assert data["final_scores"] == [s - 500 for s in data["hands"][-1]["stacks"]]


@needs("buckup")
def test_rules_buckup_is_open_ended() -> None:
    out = ok("rules", "buckup")
    assert "starting_stack = 500" in out
    assert "open-ended" in out
    assert "extended until the pot is empty" in out


@needs("buckup")
def test_read_reply_understands_buckup_words() -> None:
    state = new_game(load_ruleset("buckup"), players=4, seed=5)
    obs = state.observe(state.to_act()[0])
    cards = Cards()
    assert read_reply("kept", obs, cards).action == Action("ante", "kept")
    assert read_reply("ante drawn", obs, cards).action == Action("ante", "drawn")
    assert read_reply("2", obs, cards).action == obs.legal_actions[1]
    state.apply(obs.seat, Action("ante", "kept"))
    while state.is_chance():
        state.apply_chance()
    while state.phase_name == "redeal":
        state.apply(state.to_act()[0], Action("keep"))
    obs = state.observe(state.to_act()[0])
    assert read_reply("stay", obs, cards).action == Action("stay")
    assert read_reply("fold", obs, cards).action == Action("fold")
    state.apply(obs.seat, Action("stay"))
    obs = state.observe(obs.seat)
    card = obs.my_cards[0]
    assert read_reply(format_card(card), obs, cards).action == Action("discard", card)
    assert read_reply("draw", obs, cards).action == Action("draw")


# ------------------------------------------------------------------ replay


@pytest.mark.parametrize(
    ("game", "options", "expected"),
    [
        ("pluck", ["hands=2"], ["Quotas:", "Plucks before play: ", "quota"]),
        pytest.param("euchre", ["target=2"], ["Contract", "tricks by team"], marks=needs("euchre")),
        pytest.param("buckup", ["hands=2"], ["Pot:", "Payments:", "Stack"], marks=needs("buckup")),
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
