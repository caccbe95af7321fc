"""The command line in the games with their own phases: Pluck (docs/games/pluck.md),
Euchre (docs/games/euchre.md) and Buckup (docs/games/buckup.md), played through stdin,
simulated, their rules shown and their words read (the Oh Hell family: test_cli.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from typer.testing import CliRunner

from tests.cli_cases import CARD_NUMBERS, HAND_FIELDS, REQUIRED, Chooser, scripted
from tests.cli_command import Command
from tricktaker import GameState, Observation, Ruleset, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import format_card, parse_card, pretty_card
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


# ------------------------------------------- games with their own phases
#
# Pluck (docs/games/pluck.md), Euchre (docs/games/euchre.md) and
# Buckup (docs/games/buckup.md): plucks, auctions, kitties, antes and pots at the table.
# A game is driven through stdin by a script computed with the same engine and bots
# as the command (``scripted``), so the lines typed are legal and the outcome known.


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


def test_rules_euchre_says_how_the_game_ends() -> None:
    out = ok("rules", "euchre", "-o", "target=7")
    assert "target = 7" in out
    assert "open-ended" in out
    assert "the game ends after the hand in" in out
    assert "which a team reaches the target" in out


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


def test_rules_buckup_is_open_ended() -> None:
    out = ok("rules", "buckup")
    assert "starting_stack = 500" in out
    assert "open-ended" in out
    assert "extended until the pot is empty" in out


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
