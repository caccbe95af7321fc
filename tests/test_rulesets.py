"""Rulesets: the shipped presets, validation errors, house rules and every game's schedule."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest

from tests.helpers import OH_HELL_GAMES
from tricktaker import RulesetError, list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import RANK_LABELS, card_rank
from tricktaker.engine.record import GameRecord
from tricktaker.rules.locate import locate
from tricktaker.rules.ruleset import Ruleset

PRESETS = list(OH_HELL_GAMES)

PLAYER_COUNTS = {
    "blackout": range(2, 8),
    "bluke": range(2, 16),
    "caller_clag": range(3, 8),
    "clag": range(3, 8),
    "coop_blackout": range(2, 8),
    "jabberwocky": range(3, 6),
    "kachuful": range(3, 11),
    "la_podrida": range(3, 9),
    "romanian_whist": range(3, 7),
    "seven_truf": range(4, 5),
    "up_and_down_the_river": range(4, 6),
}

GAME_COUNTS = [(game, n) for game in PRESETS for n in PLAYER_COUNTS[game]]


def sizes(rules: Ruleset, players: int) -> list[int]:
    return [hand.hand_size for hand in rules.hands_for(players)]


def up(low: int, high: int) -> list[int]:
    return list(range(low, high + 1))


def down(high: int, low: int) -> list[int]:
    return list(range(high, low - 1, -1))


def play_out(rules: Ruleset, players: int, seed: int = 1) -> None:
    state = new_game(rules, players=players, seed=seed)
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    assert state.is_terminal()


# --------------------------------------------------------------------- presets


def test_every_game_is_shipped() -> None:
    """docs/games/README.md, Exact bidding (the Oh Hell family): every game of the family
    has a shipped preset."""
    assert set(PRESETS) <= set(list_rulesets())


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS)
def test_preset_loads_and_plays_for_every_player_count(game: str, players: int) -> None:
    """docs/games/<id>.md, Players and deck and End of the game: each preset plays a
    whole game at each allowed player count."""
    rules = load_ruleset(game)
    assert rules.id == game
    assert players in rules.player_counts
    play_out(rules, players)


@pytest.mark.parametrize("game", PRESETS)
def test_player_counts_match_rules(game: str) -> None:
    """docs/games/<id>.md, Players and deck: Bluke 2 to 15, Blackout 2 to 7, Jabberwocky 3 to
    5, Up and Down the River 4 to 5, Clag 3 to 7, Kachuful 3 to 10, Romanian Whist 3 to 6,
    7 Truf 4, La Podrida 3 to 8 players."""
    rules = load_ruleset(game)
    assert rules.player_counts == PLAYER_COUNTS[game]
    for players in (min(PLAYER_COUNTS[game]) - 1, max(PLAYER_COUNTS[game]) + 1):
        with pytest.raises(RulesetError, match=f"not {players}"):
            new_game(rules, players=players, seed=0)


@pytest.mark.parametrize("game", PRESETS)
def test_every_option_loads(game: str) -> None:
    """docs/games/<id>.md, Options: every shipped option can be switched on alone and
    played where its player counts allow."""
    base = load_ruleset(game)
    for name, option, default in base.describe_options():
        value: bool | int
        if option.type == "bool":
            value = not default
        else:
            value = option.min if option.min is not None else int(default)
        rules = load_ruleset(game, options={name: value})
        assert rules.options[name] == value
        for players in rules.player_counts:
            allowed = not option.players or players in option.players
            if name == "all_dealt_final":
                allowed = 54 % players == 0
            if allowed:
                play_out(rules, players)
            else:
                with pytest.raises(RulesetError, match=name):
                    new_game(rules, players=players, seed=0)


# ------------------------------------------------------------------ validation


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_names(message: str, *parts: str) -> None:
    missing = [part for part in parts if part not in message]
    assert not missing, f"error message {message!r} does not name {missing}"


def assert_refused(path: Path, *parts: str) -> None:
    """Loading the ruleset file ``path`` raises RulesetError whose message names every
    one of ``parts``."""
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert_names(str(info.value), *parts)


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ("[bidding]\nhookk = true\n", "bidding.hookk", "unknown field"),
        ('colour = "red"\n', "colour", "unknown field"),
        ('[scoring]\nexactly = "1"\n', "scoring.exactly", "unknown field"),
    ],
)
def test_unknown_field_is_an_error(tmp_path: Path, body: str, field: str, reason: str) -> None:
    """docs/rulesets.md, Errors: a ruleset file with a misspelt field is refused at the
    field's line and column, naming the file, the field and the reason."""
    path = write(tmp_path, "typo.toml", f'extends = "blackout"\nid = "typo"\n{body}')
    assert_refused(path, str(path), field, reason)


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ("players = { min = 1, max = 7 }\n", ":3:19: players.min", "must be 2 or more"),
        ("players = { min = 5, max = 3 }\n", ":3:19: players.min", "above max"),
        ('[bidding]\nmin_bid = "one"\n', ":4:11: bidding.min_bid", "expected a whole number"),
        ("[bidding]\nmin_bid = 1.0\n", ":4:11: bidding.min_bid", "got the number 1.0"),
        ('[bidding]\nhook = "yes"\n', ":4:8: bidding.hook", "expected true or false"),
        ("[bidding]\nhook = 1\n", ":4:8: bidding.hook", "got the number 1"),
        ('[bidding]\nstyle = "shouted"\n', ":4:9: bidding.style", "'sequential'"),
        ('[trump]\nmethod = "rotate"\n', ":3:1: trump.rotation", "needs a rotation"),
        ('[deck]\nranks = "2-A"\n', ":4:9: deck.ranks", "rank span"),
        ('[deck]\nexclude = ["9S", "ZZ"]\n', ":4:18: deck.exclude.1", "ZZ"),
        ("[deck]\nranks_by_players = { 3 = 5 }\n", ":4:26: deck.ranks_by_players.3", "text"),
        ("[schedule]\nsizes = 5\n", ":4:9: schedule.sizes", "text in quotes or a table"),
        ('[schedule]\nsizes = { 4 = "1..3", x = "2" }\n', ":4:27: schedule.sizes.x", "'x'"),
        ('name = ["B"]\n', ":3:8: name", "expected text in quotes, got a list"),
        ("notes = [3]\n", ":3:10: notes.0", "text in quotes or a table"),
        (
            '[[schedule.special]]\nhand = "1"\nname = "x"\n',
            ":4:8: schedule.special.0.hand",
            "whole",
        ),
    ],
)
def test_wrong_value_is_an_error(tmp_path: Path, body: str, field: str, reason: str) -> None:
    """docs/rulesets.md, Errors: values of the wrong type and impossible values are
    refused at their line and column, naming the field and the reason."""
    path = write(tmp_path, "bad_value.toml", f'extends = "blackout"\nid = "bad"\n{body}')
    assert_refused(path, str(path), field, reason)


def test_hook_with_simultaneous_bidding_in_a_file_is_an_error(tmp_path: Path) -> None:
    """docs/games/blackout.md, Options: simultaneous bidding cannot be combined with the
    hook, which needs a last bidder; a file asking for both is refused."""
    path = write(
        tmp_path,
        "both.toml",
        'extends = "blackout"\nid = "both"\n[bidding]\nhook = true\nstyle = "simultaneous"\n',
    )
    assert_refused(path, str(path), "bidding", "hook", "simultaneous")


def test_hook_with_simultaneous_bidding_options_is_an_error() -> None:
    """docs/games/blackout.md, Options: simultaneous_bidding cannot be combined with hook;
    asking for both options is refused, naming them."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("blackout", options={"hook": True, "simultaneous_bidding": True})
    assert_names(
        str(info.value), "blackout.toml", "hook", "simultaneous_bidding", "cannot be combined"
    )
    # each alone is fine
    assert load_ruleset("blackout", options={"hook": True}).spec.bidding.hook
    assert load_ruleset("blackout", options={"simultaneous_bidding": True}).spec.bidding.style == (
        "simultaneous"
    )


def test_reverse_deals_with_full_rotation_is_an_error() -> None:
    """docs/games/blackout.md, Options: reverse_deals (max down to 1) and full_rotation
    (1 up to max and back) both fix the schedule, so they cannot be combined."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("blackout", options={"reverse_deals": True, "full_rotation": True})
    assert_names(str(info.value), "blackout.toml", "reverse_deals", "full_rotation", "combined")


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ("tricks +* 10", "not a formula"),
        ("foo + 10", "unknown name 'foo'"),
        ("__import__('os')", "not allowed"),
    ],
)
def test_bad_scoring_formula_is_an_error(tmp_path: Path, formula: str, reason: str) -> None:
    """docs/rulesets.md, [scoring]: a scoring formula that cannot be read is refused,
    naming the file, the field and why."""
    path = write(
        tmp_path,
        "formula.toml",
        f'extends = "blackout"\nid = "f"\n[scoring]\nexact = "{formula}"\n',
    )
    assert_refused(path, str(path), "scoring.exact", reason)


def test_bad_max_hand_formula_is_an_error(tmp_path: Path) -> None:
    """docs/rulesets.md, [schedule]: max_hand is a formula over deck and players; one
    over unknown names is refused."""
    path = write(
        tmp_path,
        "max.toml",
        'extends = "blackout"\nid = "m"\n[schedule]\nmax_hand = "cards // seats"\n',
    )
    assert_refused(path, str(path), "schedule", "max_hand", "unknown name")


def test_not_toml_is_an_error(tmp_path: Path) -> None:
    """docs/rulesets.md, Errors: a file that is not TOML is refused at the line and
    column where it stops being TOML."""
    path = write(tmp_path, "broken.toml", 'extends = "blackout"\n[scoring\n')
    assert_refused(path, str(path), "not valid TOML")


def test_unknown_game_is_an_error() -> None:
    """docs/games/README.md: only the listed games are shipped; other names are refused,
    listing the games."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("hearts")
    assert_names(str(info.value), "hearts", "unknown game", "blackout", "bluke")


def test_unknown_option_is_an_error() -> None:
    """docs/games/blackout.md, Options: an option the game does not have is refused."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("blackout", options={"hooky": True})
    assert_names(str(info.value), "blackout.toml", "hooky", "unknown option")


def test_bad_bool_option_value_is_an_error() -> None:
    """docs/rulesets.md, [options.NAME]: an on/off option takes true or false; the error
    names the file, the option and the reason."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("blackout", options={"hook": "maybe"})
    assert_names(str(info.value), "blackout.toml", "hook", "not true or false")


def test_bad_int_option_value_is_an_error() -> None:
    """docs/games/bluke.md, Options: min_bid is 1 or 0; min_bid = 5 is refused, naming the
    file, the option and the reason."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("bluke", options={"min_bid": 5})
    assert_names(str(info.value), "bluke.toml", "min_bid", "above the maximum")


def test_bool_option_values_from_text() -> None:
    """docs/rulesets.md, [options.NAME]: an on/off option takes exactly true or false; text from a
    command line is read strictly (no yes/no/1/0), naming the option and its place."""
    assert load_ruleset("blackout", options={"hook": "true"}).options["hook"] is True
    assert load_ruleset("blackout", options={"hook": "False"}).options["hook"] is False
    for value in ("yes", "off", "1", 1, ""):
        with pytest.raises(RulesetError) as info:
            load_ruleset("blackout", options={"hook": value})
        assert_names(str(info.value), "blackout.toml:", "option hook", "not true or false")


def test_int_option_values_from_text() -> None:
    """docs/rulesets.md, [options.NAME]: an int option takes a whole number, nothing else."""
    assert load_ruleset("bluke", options={"min_bid": "0"}).options["min_bid"] == 0
    for value in ("0.5", "one", True, "1e0"):
        with pytest.raises(RulesetError) as info:
            load_ruleset("bluke", options={"min_bid": value})
        assert_names(str(info.value), "bluke.toml:", "option min_bid", "not a whole number")


def test_extended_with_four_players_is_an_error() -> None:
    """docs/games/bluke.md, Options: extended is for 3 players only; asking for it with 4
    players is refused, naming the file, option and reason."""
    rules = load_ruleset("bluke", options={"extended": True})
    with pytest.raises(RulesetError) as info:
        new_game(rules, players=4, seed=0)
    assert_names(str(info.value), "bluke.toml", "extended", "3 players")


# ------------------------------------------------------------------ house rule


HOUSE_RULE = """\
extends = "blackout"
id = "house_blackout"
name = "House Blackout"

[schedule]
sizes = "1..3..1"

[scoring]
exact = "20 + bid"
otherwise = "0 - tricks"
"""


def test_house_rule_extends_a_preset(tmp_path: Path) -> None:
    """docs/rulesets.md, The ruleset file format: a house rule file extends a shipped game,
    changes its scoring and schedule, and plays with bots."""
    path = write(tmp_path, "house.toml", HOUSE_RULE)
    rules = load_ruleset(path)
    assert rules.id == "house_blackout"
    assert rules.name == "House Blackout"
    assert rules.player_counts == range(2, 8)
    assert sizes(rules, 4) == [1, 2, 3, 2, 1]
    state = new_game(rules, players=4, seed=3)
    play_game(state, [make_bot("random", seed=s) for s in range(4)])
    assert state.is_terminal()
    assert [h.hand_size for h in state.history] == [1, 2, 3, 2, 1]
    totals = [0] * 4
    for hand in state.history:
        assert sum(hand.tricks) == hand.hand_size
        for seat in range(4):
            b, t = hand.bids[seat], hand.tricks[seat]
            expected = 20 + b if b == t else -t
            assert hand.hand_scores[seat] == expected
            totals[seat] += expected
    assert state.scores == totals


def test_house_rule_keeps_the_options_of_its_parent(tmp_path: Path) -> None:
    """docs/rulesets.md, Options and the file: the options of the extended game still apply
    to a house rule that leaves their fields alone."""
    path = write(tmp_path, "house.toml", HOUSE_RULE)
    rules = load_ruleset(path, options={"hook": True})
    assert rules.spec.bidding.hook
    assert rules.spec.scoring.exact == "20 + bid"
    play_out(rules, 3)


def test_house_rule_errors_name_the_house_file(tmp_path: Path) -> None:
    """docs/rulesets.md, Errors: an error in a house rule names the house file, line and
    column."""
    path = write(tmp_path, "house_bad.toml", HOUSE_RULE + "[bidding]\nmin_bid = -1\n")
    assert_refused(path, f"{path}:12:11", "bidding.min_bid", "must be 0 or more")


QUICK = """\
extends = "blackout"
id = "quick_blackout"
name = "Quick Blackout"

[schedule]
sizes = "1..5"

[bidding]
hook = true

[scoring]
exact = "tricks + 5"
otherwise = "tricks"
"""


def test_house_rule_needs_its_own_id(tmp_path: Path) -> None:
    """docs/rulesets.md, Top level: a file that extends another needs its own id, and its
    games are recorded under it, never under the parent's."""
    path = write(tmp_path, "no_id.toml", 'extends = "blackout"\n[schedule]\nsizes = "2"\n')
    assert_refused(path, f"{path}:1:1", "id:", "its own id", 'id = "no_id"')
    path = write(tmp_path, "same_id.toml", 'extends = "blackout"\nid = "blackout"\n')
    assert_refused(path, f"{path}:2:6", "id:", "the id of the game this file extends")
    rules = load_ruleset(write(tmp_path, "quick.toml", QUICK))
    state = new_game(rules, players=3, seed=2)
    play_game(state, [make_bot("random", seed=s) for s in range(3)])
    assert GameRecord.of(state).game == "quick_blackout"


def test_errors_point_into_the_file_that_wrote_the_value(tmp_path: Path) -> None:
    """docs/rulesets.md, Errors: every error gives the file, line and column of the value,
    including TOML syntax errors and values inherited through extends."""
    write(tmp_path, "middle.toml", 'extends = "blackout"\nid = "middle"\n[bidding]\nhook = 2\n')
    child = write(tmp_path, "child.toml", 'extends = "middle.toml"\nid = "child"\n')
    with pytest.raises(RulesetError) as info:
        load_ruleset(child)
    assert_names(str(info.value), "middle.toml:4:8: bidding.hook", "got the number 2")
    broken = write(tmp_path, "broken.toml", 'extends = "blackout"\nid = "b"\n[scoring\n')
    with pytest.raises(RulesetError) as info:
        load_ruleset(broken)
    assert_names(str(info.value), f"{broken}:3:9: not valid TOML")


def test_min_bid_must_fit_every_hand_the_schedule_deals(tmp_path: Path) -> None:
    """docs/rulesets.md, [bidding]: min_bid is checked against every hand size the schedule
    deals for every allowed player count (a 1-card hand cannot take a bid of 5)."""
    path = write(tmp_path, "min5.toml", 'extends = "blackout"\nid = "m"\n[bidding]\nmin_bid = 5\n')
    assert_refused(path, f"{path}:4:11: bidding.min_bid", "hand 1 deals 1 card")
    fits = 'extends = "blackout"\nid = "m"\n[schedule]\nsizes = "5..7"\n[bidding]\nmin_bid = 5\n'
    rules = load_ruleset(write(tmp_path, "min5ok.toml", fits))
    play_out(rules, 4)
    coop = 'extends = "coop_blackout"\nid = "c"\n[bidding]\nmin_bid = 1\n'
    with pytest.raises(RulesetError) as info:
        load_ruleset(write(tmp_path, "coop.toml", coop))
    assert_names(str(info.value), "bidding.min_bid", "must total the hand size")


def test_option_values_follow_the_file(tmp_path: Path) -> None:
    """docs/rulesets.md, Options and the file: an option's value is what the file's fields
    say (hook shows on in a file that sets the hook), and --option hook=false turns the
    file's hook off."""
    rules = load_ruleset(write(tmp_path, "quick.toml", QUICK))
    assert rules.options["hook"] is True
    shown = {name: (option.default, value) for name, option, value in rules.describe_options()}
    assert shown["hook"] == (True, True)
    off = load_ruleset(tmp_path / "quick.toml", options={"hook": "false"})
    assert off.spec.bidding.hook is False
    assert off.options["hook"] is False
    play_out(off, 4)
    bluke0 = 'extends = "bluke"\nid = "b0"\n[bidding]\nmin_bid = 0\n'
    assert load_ruleset(write(tmp_path, "b0.toml", bluke0)).options["min_bid"] == 0


def test_an_option_never_silently_replaces_the_files_own_fields(tmp_path: Path) -> None:
    """docs/rulesets.md, Options and the file: an option that would replace fields the file
    sets itself is not available there; asking for it is refused, saying why."""
    path = write(tmp_path, "quick.toml", QUICK)
    rules = load_ruleset(path)
    assert set(rules.unavailable) == {"reverse_deals", "full_rotation", "alternate_scoring"}
    assert "reverse_deals" not in rules.options
    assert "schedule.sizes" in rules.unavailable["reverse_deals"]
    for name in ("reverse_deals", "full_rotation"):
        with pytest.raises(RulesetError) as info:
            load_ruleset(path, options={name: True})
        assert_names(str(info.value), f"{path}:6:9: schedule.sizes", name, "cannot be used")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path, options={"alternate_scoring": True})
    assert_names(str(info.value), f"{path}:11:1: scoring", "would replace scoring")


def test_a_written_option_default_must_agree_with_the_file(tmp_path: Path) -> None:
    """docs/rulesets.md, Options and the file: a default written in the file must agree
    with the file's fields (it cannot switch an option on by itself)."""
    bad = 'extends = "blackout"\nid = "d"\n[options.hook]\ndefault = true\n'
    with pytest.raises(RulesetError) as info:
        load_ruleset(write(tmp_path, "bad.toml", bad))
    assert_names(str(info.value), "bad.toml:4:11: options.hook.default", "bidding.hook = false")
    good = bad + "[bidding]\nhook = true\n"
    assert load_ruleset(write(tmp_path, "good.toml", good)).options["hook"] is True


def test_options_that_write_the_same_field_cannot_be_combined() -> None:
    """docs/rulesets.md, Options and the file: two options on at once may not write the
    same field (reverse_deals and full_rotation both set the schedule)."""
    with pytest.raises(RulesetError) as info:
        load_ruleset("blackout", options={"reverse_deals": True, "full_rotation": True})
    assert_names(str(info.value), "blackout.toml:", "both set schedule.sizes")


def test_notes_are_kept_only_while_their_fields_hold(tmp_path: Path) -> None:
    """docs/rulesets.md, Notes: a house rule keeps the notes of the game it extends only
    while the fields they describe are unchanged; its own notes come first."""
    blackout = load_ruleset("blackout").notes
    quick = load_ruleset(write(tmp_path, "quick.toml", QUICK))
    assert [n for n in blackout if "no turn-up" in n] == list(quick.notes)
    assert not any("plus 10 if exact" in note for note in quick.notes)
    own = 'extends = "blackout"\nid = "o"\nnotes = ["Ours."]\n[scoring]\nexact = "tricks"\n'
    rules = load_ruleset(write(tmp_path, "own.toml", own))
    assert rules.notes[0] == "Ours."
    assert not any("plus 10 if exact" in note for note in rules.notes)
    plain = 'extends = "up_and_down_the_river"\nid = "p"\n[deck]\nranks = "A-3"\n'
    assert load_ruleset(write(tmp_path, "plain.toml", plain)).notes[0].startswith("As Blackout")
    bad = 'extends = "blackout"\nid = "n"\nnotes = [{ about = ["scoring.exactly"], text = "x" }]\n'
    with pytest.raises(RulesetError) as info:
        load_ruleset(write(tmp_path, "badnote.toml", bad))
    assert_names(str(info.value), "badnote.toml:3:20: notes.0.about", "scoring.exactly")


# -------------------------------------------------------------------- schedules


@pytest.mark.parametrize("players", range(2, 16))
def test_bluke_schedule(players: int) -> None:
    """docs/games/bluke.md, Hands and schedule: 13 down to 1 and back up to 13 (25 hands)
    for 2 to 4 players; with 5 or more, from floor(52 / n) down to 1 and back."""
    top = 13 if players <= 4 else 52 // players
    expected = down(top, 1) + up(2, top)
    got = sizes(load_ruleset("bluke"), players)
    assert got == expected
    if players <= 4:
        assert len(got) == 25
    assert 54 - players * max(got) >= 2


@pytest.mark.parametrize("players", range(2, 16))
def test_bluke_new_jersey_schedule(players: int) -> None:
    """docs/games/bluke.md, Options: new_jersey runs 1 up to the maximum and back down to 1."""
    top = 13 if players <= 4 else 52 // players
    rules = load_ruleset("bluke", options={"new_jersey": True})
    assert sizes(rules, players) == up(1, top) + down(top - 1, 1)


def test_bluke_extended_schedule() -> None:
    """docs/games/bluke.md, Options: extended (3 players only) runs from 17 cards instead
    of 13."""
    rules = load_ruleset("bluke", options={"extended": True})
    assert sizes(rules, 3) == down(17, 1) + up(2, 17)


@pytest.mark.parametrize(("players", "final"), [(3, 18), (6, 9)])
def test_bluke_all_dealt_final_schedule(players: int, final: int) -> None:
    """docs/games/bluke.md, Options: all_dealt_final adds a last hand dealing all 54 cards
    at no trump where that divides evenly (18 for 3 players, 9 for 6)."""
    rules = load_ruleset("bluke", options={"all_dealt_final": True})
    top = 13 if players <= 4 else 52 // players
    hands = rules.hands_for(players)
    assert [h.hand_size for h in hands] == [*down(top, 1), *up(2, top), final]
    assert hands[-1].no_trump
    assert not any(h.no_trump for h in hands[:-1])


@pytest.mark.parametrize("players", range(2, 8))
def test_blackout_schedules(players: int) -> None:
    """docs/games/blackout.md, Hands and schedule and Options: 1 up to floor(52 / n);
    reverse_deals max down to 1; full_rotation 1 up to max and back."""
    top = 52 // players
    assert sizes(load_ruleset("blackout"), players) == up(1, top)
    reverse = load_ruleset("blackout", options={"reverse_deals": True})
    assert sizes(reverse, players) == down(top, 1)
    assert reverse.hands_for(players)[0].no_trump
    assert not any(h.no_trump for h in reverse.hands_for(players)[1:])
    full = load_ruleset("blackout", options={"full_rotation": True})
    assert sizes(full, players) == up(1, top) + down(top - 1, 1)
    for option in ("hook", "simultaneous_bidding", "alternate_scoring"):
        assert sizes(load_ruleset("blackout", options={option: True}), players) == up(1, top)


@pytest.mark.parametrize("players", range(2, 8))
def test_coop_blackout_schedule(players: int) -> None:
    """docs/games/coop_blackout.md, Hands and schedule: the sizes to get through are 1 up
    to floor(52 / n), as in Blackout."""
    assert sizes(load_ruleset("coop_blackout"), players) == up(1, 52 // players)


@pytest.mark.parametrize("players", range(3, 6))
def test_jabberwocky_schedule(players: int) -> None:
    """docs/games/jabberwocky.md, Hands and schedule: 3, 4, ..., 9, 8, ..., 3 (13 hands)."""
    got = sizes(load_ruleset("jabberwocky"), players)
    assert got == up(3, 9) + down(8, 3)
    assert len(got) == 13


@pytest.mark.parametrize("players", [4, 5])
def test_up_and_down_the_river_schedule(players: int) -> None:
    """docs/games/up_and_down_the_river.md, Hands and schedule: 1 up to 10 and back down
    to 1 (19 hands)."""
    got = sizes(load_ruleset("up_and_down_the_river"), players)
    assert got == up(1, 10) + down(9, 1)
    assert len(got) == 19


@pytest.mark.parametrize("players", range(3, 8))
def test_clag_schedule(players: int) -> None:
    """docs/games/clag.md, Hands and schedule: 1 to 7 (hands 1-7), seven hands of 7 (8-14),
    then 6 down to 1 (15-20)."""
    hands = load_ruleset("clag").hands_for(players)
    assert [h.hand_size for h in hands] == up(1, 7) + [7] * 7 + down(6, 1)
    assert len(hands) == 20
    assert hands[7].no_trump
    assert not hands[7].misere
    assert hands[8].bid_before_trump
    assert hands[9].blind_bid
    assert not hands[9].pile
    assert hands[10].pile
    assert hands[11].misere
    assert not hands[11].no_trump
    assert hands[12].misere
    assert hands[12].no_trump
    assert hands[13].name is None


def test_caller_clag_plays_the_agreed_number_of_hands() -> None:
    """docs/games/caller_clag.md, Hands and schedule: a fixed number of hands agreed in
    advance; each dealer calls the hand size (3 to 7)."""
    rules = load_ruleset("caller_clag", options={"hands": 3})
    assert rules.hands_for(4) == ()
    state = new_game(rules, players=4, seed=2)
    play_game(state, [make_bot("random", seed=s) for s in range(4)])
    assert state.hands_played == 3
    assert all(3 <= h.hand_size <= 7 for h in state.history)


@pytest.mark.parametrize(
    ("players", "count"), [(3, 17), (4, 12), (5, 10), (6, 8), (7, 7), (8, 6), (9, 5), (10, 5)]
)
def test_kachuful_schedule(players: int, count: int) -> None:
    """docs/games/kachuful.md, Hands and schedule: 1 up to the table's maximum, one hand
    per size: 3->17, 4->12, 5->10, 6->8, 7->7, 8->6, 9->5, 10->5."""
    assert sizes(load_ruleset("kachuful"), players) == up(1, count)


@pytest.mark.parametrize(("players", "low"), [(3, "9"), (4, "7"), (5, "5"), (6, "3")])
def test_romanian_whist_schedule_and_deck(players: int, low: str) -> None:
    """docs/games/romanian_whist.md, Players and deck and Hands and schedule: 8 x n
    cards (A-9, A-7, A-5, A-3 for 3 to 6 players); n hands of 1, then 2 to 7, n hands of 8,
    7 down to 2, n hands of 1 (3n + 12 hands)."""
    rules = load_ruleset("romanian_whist")
    got = sizes(rules, players)
    assert got == [1] * players + up(2, 7) + [8] * players + down(7, 2) + [1] * players
    assert len(got) == 3 * players + 12
    deck = rules.deck(players)
    assert len(deck) == 8 * players
    lowest = RANK_LABELS.index(low)
    assert {card_rank(c) for c in deck} == set(range(lowest, 13))


def test_seven_truf_schedule_and_deck() -> None:
    """docs/games/seven_truf.md, Players and deck and Hands and schedule: a 32-card deck;
    1 to 7, four hands of 8 at no trump, 7 down to 1, four hands of 8 at no trump (22)."""
    rules = load_ruleset("seven_truf")
    got = sizes(rules, 4)
    assert got == up(1, 7) + [8] * 4 + down(7, 1) + [8] * 4
    assert len(got) == 22
    deck = rules.deck(4)
    assert len(deck) == 32
    assert {card_rank(c) for c in deck} == set(range(5, 13))


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (3, down(17, 5) + [4] * 3 + up(5, 17)),
        (4, down(13, 5) + [4] * 4 + up(5, 13)),
        (5, down(10, 5) + [4] * 5 + up(5, 10)),
        (6, down(8, 5) + [4] * 6 + up(5, 8)),
        (7, down(7, 5) + [4] * 7 + up(5, 7)),
        (8, [6, 5, 4, 4, 4, 4, 4, 4, 4, 4, 5, 6]),
    ],
)
def test_la_podrida_schedule(players: int, expected: list[int]) -> None:
    """docs/games/la_podrida.md, Hands and schedule: from the maximum down to 5, one hand
    of 4 per player, back up to the maximum; 8 players: 6, 5, eight hands of 4, 5, 6."""
    got = sizes(load_ruleset("la_podrida"), players)
    assert got == expected
    assert len(got) == {3: 29, 4: 22, 5: 17, 6: 14, 7: 13, 8: 12}[players]


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS)
def test_played_hands_follow_the_schedule(game: str, players: int) -> None:
    """docs/games/<id>.md, Hands and schedule: a played game deals exactly the
    scheduled sizes, in order."""
    rules = load_ruleset(game)
    state = new_game(rules, players=players, seed=4)
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    played = [h.hand_size for h in state.history]
    if game == "caller_clag":
        assert len(played) == rules.spec.schedule.called_hands
    elif game == "coop_blackout":
        assert played[0] == 1
        assert all(b - a in (0, 1) for a, b in itertools.pairwise(played))
    else:
        assert played == sizes(rules, players)


def test_an_option_that_can_never_be_right_is_refused(tmp_path: Path) -> None:
    """docs/rulesets.md, [options.NAME]: an option's values are checked when the file loads, even
    while it is off (an option writing "yes" to bidding.hook is refused at its line)."""
    body = 'extends = "blackout"\nid = "x"\n[options.hook]\nset = { "bidding.hook" = "yes" }\n'
    with pytest.raises(RulesetError) as info:
        load_ruleset(write(tmp_path, "opt.toml", body))
    assert_names(str(info.value), "opt.toml:4:26: bidding.hook", "set by option hook")
    body = 'extends = "blackout"\nid = "x"\n[options.hook]\nset = { "bidding.hookk" = true }\n'
    with pytest.raises(RulesetError) as info:
        load_ruleset(write(tmp_path, "opt2.toml", body))
    assert_names(str(info.value), "opt2.toml:4:27: options.hook.set.bidding.hookk", "not a field")


def test_readme_house_rule_and_bench_files_load(tmp_path: Path) -> None:
    """docs/rulesets.md, Notes and Options and the file: the README's quick_blackout.toml
    loads, shows the hook on and none of Blackout's notes on its schedule or scoring; the
    benchmark house rules load."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("# quick_blackout.toml", 1)[1].split("```", 1)[0]
    path = write(tmp_path, "quick_blackout.toml", "# quick_blackout.toml" + block)
    rules = load_ruleset(path)
    assert rules.id == "quick_blackout"
    assert {name: value for name, _, value in rules.describe_options()}["hook"] is True
    assert not any("10 if exact" in note or "schedule" in note for note in rules.notes)
    assert "reverse_deals" in rules.unavailable
    play_out(rules, 4)
    bench = Path(__file__).parent.parent / "bench"
    for name in ("blackout_12.toml", "openspiel_oh_hell.toml"):
        assert load_ruleset(bench / name).id == name.removesuffix(".toml")


def test_locate_finds_values_in_every_toml_form() -> None:
    """docs/rulesets.md, Errors: positions are found for values in tables, dotted keys,
    inline tables, multi-line arrays with comments, and arrays of tables."""
    text = (
        "a = 'x # not a comment'  # comment\n"
        "b.c = [\n"
        "  1,  # one\n"
        '  { d = "e" },\n'
        "]\n"
        "[[f]]\n"
        "g = true\n"
        "[[f]]\n"
        '"h.i" = """two\n'
        'lines"""\n'
        "j = 3\n"
    )
    assert tomllib.loads(text)
    spots = locate(text)
    assert spots[("a",)][:2] == (1, 5)
    assert spots[("b", "c", 0)][:2] == (3, 3)
    assert spots[("b", "c", 1, "d")][:2] == (4, 9)
    assert spots[("f", 0, "g")][:2] == (7, 5)
    assert spots[("f", 1, "h.i")][:2] == (9, 9)
    assert spots[("f", 1, "j")][:2] == (11, 5)
