"""``tricktaker play`` as people use it: numbered cards, bare ranks, Enter for a forced
card, colours, names, pass-and-play, saving and carrying on, and the Euchre messages.

The command is driven through its real entry point (typer's runner, or a subprocess
where a terminal or a signal is needed). The lines to type are worked out beforehand
with the same engine, seeds and bots as the command, so the game they meet is known.
"""

from __future__ import annotations

import doctest
import importlib
import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.cli_command import Command
from tests.helpers import five_card_rules
from tricktaker import GameState, IllegalActionError, Observation, load_ruleset, new_game
from tricktaker.cards import format_card, parse_card, pretty_card
from tricktaker.cli.common import default_players, make_bots, program_name, start_game
from tricktaker.cli.human import read_reply
from tricktaker.cli.play import Table, table_names
from tricktaker.cli.render import Cards
from tricktaker.engine import Action, ChanceOutcome
from tricktaker.engine.actions import play
from tricktaker.present.text import display_order

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": None})
command = Command(runner)
run, ok = command.run, command.ok


@pytest.fixture
def five_cards(tmp_path: Path) -> Path:
    """House rules: Blackout with a single hand of five cards."""
    return five_card_rules(tmp_path)


Chooser = Callable[[GameState, Observation], str | None]
"""What the person types at a prompt (None: stop and type ``quit``)."""


def script(
    game: str | Path,
    seed: int,
    choose: Chooser,
    *,
    humans: Sequence[int] = (0,),
    options: dict[str, str] | None = None,
) -> tuple[list[str], GameState]:
    """Play as ``tricktaker play`` would (same seeds, heuristic bots): the lines typed and
    the state reached. ``choose`` gets a copy of the state before each of the person's
    decisions and the observation the person sees."""
    rules = load_ruleset(str(game), options=options)
    players = default_players(rules)
    state = start_game(rules, players, seed)
    bots = make_bots({s: "heuristic" for s in range(players) if s not in humans}, seed)
    lines: list[str] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        waiting = state.to_act()
        seat = next((s for s in waiting if s in humans), waiting[0])
        obs = state.observe(seat)
        if seat in humans:
            text = choose(state, obs)
            if text is None:
                lines.append("quit")
                break
            lines.append(text)
            reply = read_reply(text, obs, Cards())
            assert reply.action is not None, (text, reply)
            state.apply(seat, reply.action)
        else:
            state.apply(seat, bots[seat].act(obs))
    return lines, state


def typed(lines: Sequence[str]) -> str:
    return "\n".join(lines) + "\n"


def card_position(obs: Observation, card: int) -> int:
    """The number the hand line gives ``card``."""
    return display_order(obs).index(card) + 1


def first_card_turn(game: str | Path, seed: int, test: Callable[[Observation], bool]) -> bool:
    """Whether the person's first card decision of the seeded game passes ``test``."""
    found: list[bool] = []

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "0"
        found.append(test(obs))
        return None

    script(game, seed, choose)
    return bool(found and found[0])


def seed_where(game: str | Path, test: Callable[[Observation], bool]) -> int:
    for seed in range(200):
        if first_card_turn(game, seed, test):
            return seed
    pytest.fail("no seed gives the position the test needs")


def legal_set(obs: Observation) -> set[int]:
    return {int(a.value) for a in obs.legal_actions}


# ------------------------------------------------------------- choosing cards


def test_a_number_picks_the_card_shown_with_it_on_the_hand_line(five_cards: Path) -> None:
    """docs/games/blackout.md, Play: the card played is the one numbered on the hand line
    (high to low by suit, as shown), not the one at that place among the legal cards."""

    def differs(obs: Observation) -> bool:  # old numbering (legal list) would pick another
        legal = [int(a.value) for a in obs.legal_actions]
        return any(card_position(obs, c) != i for i, c in enumerate(legal, 1))

    seed = seed_where(five_cards, differs)
    picked: list[int] = []

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "0"
        if picked:
            return None
        legal = [int(a.value) for a in obs.legal_actions]
        card = max(legal, key=lambda c: card_position(obs, c))
        picked.append(card)
        return str(card_position(obs, card))

    lines, _ = script(five_cards, seed, choose)
    out = ok("play", str(five_cards), "--seed", str(seed), stdin=typed([lines[0], "?", *lines[1:]]))
    card = pretty_card(picked[0])
    number = lines[1]
    assert f"You play {card}." in out
    hand_line = next(line for line in out.splitlines() if line.startswith("Hand:") and ")" in line)
    assert f"{number}){card}" in hand_line
    listed = out.split("Legal:")[1].split("Your card")[0]  # `?` gives the same numbers
    assert re.search(rf"\b{number}\) {re.escape(card)}", listed)


def test_a_refused_number_names_its_card_and_the_reason(five_cards: Path) -> None:
    """docs/games/blackout.md, Play: follow suit; a number picking a card that may not be
    played is refused with the card and the reason, and the person is asked again."""

    def must_follow(obs: Observation) -> bool:
        return bool(obs.current_trick) and len(legal_set(obs)) < len(obs.my_cards)

    seed = seed_where(five_cards, must_follow)
    wrong: list[int] = []

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "0"
        if wrong:
            return None
        wrong.append(next(c for c in display_order(obs) if c not in legal_set(obs)))
        wrong.append(card_position(obs, wrong[0]))
        return str(card_position(obs, int(obs.legal_actions[0].value)))

    lines, _ = script(five_cards, seed, choose)
    card, bad = pretty_card(wrong[0]), str(wrong[1])
    stdin = typed([lines[0], bad, *lines[1:]])
    out = ok("play", str(five_cards), "--seed", str(seed), stdin=stdin)
    assert f"Not allowed ({bad} is {card}): you must follow suit" in out


def first_hand(game: str | Path, seed: int) -> list[int]:
    """Seat 0's cards in the first hand of the seeded game."""
    state = new_game(load_ruleset(str(game)), players=4, seed=seed)
    state.apply_chance()
    return sorted(state.dealt[0])


def playing_observations(game: str, players: int, seeds: range) -> list[Observation]:
    """Observations of the seat to play, over a few seeded games of random bots."""
    from tricktaker.bots import make_bot

    found: list[Observation] = []
    for seed in seeds:
        state = new_game(load_ruleset(game), players=players, seed=seed)
        bots = [make_bot("random", seed=s) for s in range(players)]
        while not state.is_terminal() and state.hands_played < 6:
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            if obs.phase == "playing":
                found.append(obs)
            state.apply(seat, bots[seat].act(obs))
    return found


def rank_of(card: int) -> str:
    return format_card(card)[:-1].lower()


def test_a_bare_rank_plays_the_one_legal_card_of_that_rank() -> None:
    """docs/games/blackout.md, Play: ``q`` or ``10`` picks the card when only one legal
    card has that rank; with several, the player is told which to type."""
    cards = Cards()
    unique = several = missing = False
    for obs in playing_observations("blackout", 4, range(3)):
        legal = [c for c in display_order(obs) if c in legal_set(obs)]
        for card in legal:
            rank = rank_of(card)
            if rank.isdigit() and int(rank) <= len(obs.my_cards):
                continue  # a number within the hand is a card's place
            same = [c for c in legal if rank_of(c) == rank]
            reply = read_reply(rank, obs, cards)
            if len(same) == 1:
                assert reply.action == play(card)
                unique = True
            else:
                shown = ", ".join(pretty_card(c) for c in same[:-1])
                example = format_card(same[0]).lower()
                expected = f"{shown} or {pretty_card(same[-1])}: type the suit too (e.g. {example})"
                assert reply.error == expected
                several = True
        held = {rank_of(c) for c in obs.my_cards}
        for rank, name in (("a", "ace"), ("k", "king"), ("j", "jack")):
            if rank not in held:
                assert read_reply(rank, obs, cards).error == f"you hold no {name}"
                missing = True
    assert unique
    assert several
    assert missing


def test_q_is_the_queen_when_choosing_a_card_that_could_be_one() -> None:
    """``q`` plays the one legal queen; it quits when no queen is held; ``quit`` quits."""
    cards = Cards()
    with_queen = without = False
    for obs in playing_observations("blackout", 4, range(3)):
        legal_queens = [c for c in legal_set(obs) if rank_of(c) == "q"]
        held_queens = [c for c in obs.my_cards if rank_of(c) == "q"]
        assert read_reply("quit", obs, cards).command == "quit"
        if len(legal_queens) == 1:
            assert read_reply("q", obs, cards).action == play(legal_queens[0])
            with_queen = True
        if not held_queens:
            assert read_reply("Q", obs, cards).command == "quit"
            without = True
    assert with_queen
    assert without


def test_enter_plays_a_forced_card_and_the_prompt_says_so(tmp_path: Path) -> None:
    """docs/games/blackout.md, Play: with one legal card, Enter plays it."""
    path = tmp_path / "two.toml"
    path.write_text('id = "two"\nextends = "blackout"\n[schedule]\nsizes = "2"\n', "utf-8")
    forced: list[int] = []

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "0"
        if len(obs.legal_actions) == 1:
            forced.append(int(obs.legal_actions[0].value))
            return ""
        return str(card_position(obs, int(obs.legal_actions[0].value)))

    lines, state = script(path, 3, choose)
    assert forced
    assert state.is_terminal()
    out = ok("play", str(path), "--seed", "3", stdin=typed(lines))
    card = pretty_card(forced[-1])
    assert f"Your card (Enter plays {card}, your only legal card): You play {card}." in out
    assert "Final scorecard" in out


def test_a_very_long_line_is_cut_in_the_message(five_cards: Path) -> None:
    out = ok("play", str(five_cards), "--seed", "1", stdin="x" * 3000 + "\nquit\n")
    assert "Not understood: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' is too long" in out
    assert "x" * 41 not in out


def test_an_engine_message_shows_cards_as_the_table_does(five_cards: Path) -> None:
    hand = set(first_hand(five_cards, 1))
    stranger = next(c for c in range(52) if c not in hand)
    out = ok("play", str(five_cards), "--seed", "1", stdin=f"0\n{format_card(stranger)}\nquit\n")
    assert f"Not allowed: you do not hold {pretty_card(stranger)}" in out


# -------------------------------------------------------------------- colour


def run_in_terminal(args: Sequence[str], stdin: str, env: dict[str, str]) -> str:
    """Run the command with a pseudo-terminal as its screen; what it printed."""
    main, screen = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment |= {"TERM": "xterm-256color", "COLUMNS": "120", **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker.cli", *args],
        stdin=subprocess.PIPE,
        stdout=screen,
        stderr=screen,
        env=environment,
    )
    os.close(screen)
    assert process.stdin is not None
    process.stdin.write(stdin.encode())
    process.stdin.close()
    output = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 1)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=30)
    os.close(main)
    return output.decode("utf-8", "replace")


RED = re.compile(r"\x1b\[(?:[0-9;]*;)?31m(?:10|[2-9JQKA])?[♥♦]")
GREEN_CLUB = re.compile(r"\x1b\[(?:[0-9;]*;)?32m(?:10|[2-9JQKA])?♣")
BLUE_DIAMOND = re.compile(r"\x1b\[(?:[0-9;]*;)?34m(?:10|[2-9JQKA])?♦")


def euchre_seed_with_clubs_and_diamonds() -> int:
    for seed in range(50):
        state = start_game(load_ruleset("euchre"), 4, seed)
        state.apply_chance()
        suits = {format_card(c)[-1] for c in state.dealt[0]}
        if {"C", "D"} <= suits:
            return seed
    pytest.fail("no such deal")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_suits_are_coloured_in_a_terminal_unless_no_color() -> None:
    seed = str(euchre_seed_with_clubs_and_diamonds())
    args = ["play", "euchre", "--seed", seed]
    plain_terminal = run_in_terminal(args, "quit\n", {})
    assert RED.search(plain_terminal), plain_terminal[:2000]
    assert not GREEN_CLUB.search(plain_terminal)
    four = run_in_terminal([*args, "--four-colour"], "quit\n", {})
    assert GREEN_CLUB.search(four)
    assert BLUE_DIAMOND.search(four)
    assert RED.search(run_in_terminal([*args, "--four-color"], "quit\n", {}))  # either spelling
    no_color = run_in_terminal(args, "quit\n", {"NO_COLOR": "1"})
    assert "♦" in no_color
    assert not RED.search(no_color)
    assert "\x1b[" not in run(*args, stdin="quit\n").stdout  # not a terminal: no colour


# --------------------------------------------------------------------- names


CYCLE = "1\n2\n3\n4\n5\n" * 8
"""Input that finishes a five-card hand: each prompt meets a legal number within five."""


def test_names_are_used_in_messages_and_scorecards(five_cards: Path, tmp_path: Path) -> None:
    save = tmp_path / "named.json"
    names = ["--names", "Ann,Bob,Cy,Di"]
    out = ok("play", str(five_cards), "--seed", "2", *names, "--save", str(save), stdin=CYCLE)
    assert "Ann's turn" in out
    assert re.search(r"\b(Bob|Cy|Di) bids \d\.", out)
    assert re.search(r"\b(Bob|Cy|Di) plays ", out)
    assert re.search(r"\bYou\b", out) is None
    scorecard = out.split("Final scorecard")[1]
    for name in ("Ann", "Bob", "Cy", "Di"):
        assert name in scorecard
    assert json.loads(save.read_text())["names"] == ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("Ann,Bob,Cy", "--names needs 4 names (one per seat, in seat order), not 3"),
        ("Ann,Bob,,Di", "--names: a name is empty"),
        ("Ann,Bob,ann,Di", "--names: two seats have the same name"),
    ],
)
def test_names_must_fit_the_table(names: str, message: str) -> None:
    result = run("play", "blackout", "--seed", "1", "--names", names)
    assert result.exit_code == 2
    assert message in result.stderr


# ------------------------------------------------------------ pass-and-play


def hands_shown(section: str) -> list[str]:
    return [line for line in section.splitlines() if line.startswith("Hand:")]


def test_pass_and_play_hides_each_hand_from_the_next_person(five_cards: Path) -> None:
    """Seats 0 and 2 are people at one terminal, seats 1 and 3 bots: each person sees
    only their own cards, after a screen that asks to pass the terminal on."""
    humans = (0, 2)

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "0"
        return str(card_position(obs, int(obs.legal_actions[0].value)))

    lines, state = script(five_cards, 4, choose, humans=humans)
    assert state.is_terminal()
    deal = new_game(load_ruleset(str(five_cards)), players=4, seed=4)
    deal.apply_chance()
    # a pass screen before the first turn and every turn that follows the other person's
    stdin: list[str] = []
    last = None
    order = [seat for seat, _ in state.events if isinstance(seat, int) and seat in humans]
    for seat, line in zip(order, lines, strict=True):
        if seat != last:
            stdin.append("")
        stdin.append(line)
        last = seat
    out = ok(
        "play",
        str(five_cards),
        "--seed",
        "4",
        "--humans",
        "1,3",
        "--names",
        "Ann,Bob,Cy,Di",
        stdin=typed(stdin),
    )
    assert (
        "At this terminal: Ann (seat 1), Cy (seat 3); bots: Bob (heuristic), Di (heuristic)." in out
    )
    sections = re.split(r"Pass to (Ann|Cy): press Enter when (?:Ann|Cy) is ready", out)
    assert len(sections) > 3
    assert "Hand:" not in sections[0]  # the first person is passed the terminal too
    for person, section in zip(sections[1::2], sections[2::2], strict=True):
        other = 2 if person == "Ann" else 0
        assert f"{'Cy' if person == 'Ann' else 'Ann'}'s turn" not in section
        for line in hands_shown(section):
            for card in deal.dealt[other]:
                assert pretty_card(card) not in line
    assert "Final scorecard" in out


def test_hotseat_gives_every_seat_to_a_person_and_bots_need_no_seat() -> None:
    result = run("play", "blackout", "--hotseat", "--bots", "random", stdin="")
    assert result.exit_code == 2
    assert "every seat is played by a person" in result.stderr
    out = ok("play", "blackout", "-n", "3", "--hotseat", "--seed", "1", stdin="quit\n")
    assert "At this terminal: seats 1, 2 and 3." in out
    assert re.search(r"Pass to (Seat [123]): press Enter when \1 is ready", out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--humans", "1,5"], "--humans: '5' is not a seat (1 to 4)"),
        (["--humans", "0,2"], "--humans: seats are numbered from 1 (1 to 4), not 0"),
        (["--humans", "1,1"], "--humans: seat 1 is given twice"),
        (["--humans", "1,3", "--seat", "2"], "--seat 2 is not one of the --humans seats"),
        (["--humans", "1,3", "--bots", "random,random,random"], "--bots needs one bot name, or 2"),
        (["--seat", "0"], "--seat 0: seats are numbered from 1 (1 to 4 for 4 players)"),
        (["--seat", "5"], "--seat must be 1 to 4 for 4 players, not 5"),
    ],
)
def test_seats_of_people_are_checked(args: list[str], message: str) -> None:
    result = run("play", "blackout", *args)
    assert result.exit_code == 2
    assert message in result.stderr


# ------------------------------------------------------------ save and resume


def test_quit_says_where_the_game_is_saved_and_resume_carries_on(
    five_cards: Path, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    played: list[int] = []

    def choose(state: GameState, obs: Observation) -> str | None:
        if obs.phase == "bidding":
            return "1"
        if played:
            return None
        played.append(int(obs.legal_actions[0].value))
        return str(card_position(obs, played[0]))

    lines, _ = script(five_cards, 6, choose)
    out = ok("play", str(five_cards), "--seed", "6", "--save", str(save), stdin=typed(lines))
    assert f"Game saved to {save}; carry on with: {program_name()} play --resume {save}" in out
    data = json.loads(save.read_text())
    assert data["format"] == "tricktaker-save"
    assert data["version"] == 1
    assert data["humans"] == [0]
    assert data["names"] is None
    assert data["bots"] == {"1": "heuristic", "2": "heuristic", "3": "heuristic"}
    mine = [text for seat, text in data["record"]["events"] if seat == 0]
    assert mine == ["bid 1", f"play {format_card(played[0])}"]
    # saved after every action: the game carries on at the person's next decision
    again = ok("play", "--resume", str(save), stdin="quit\n")
    assert again.startswith("Carrying on Blackout from hand 1: 4 players, seed 6. You are seat 1")
    assert hands_shown(again) == hands_shown(out)[-1:]
    finished = ok("play", "--resume", str(save), stdin=CYCLE)
    assert "Final scorecard" in finished
    assert json.loads(save.read_text())["record"]["finished"] is True


def test_a_game_saves_in_the_data_folder_and_forgets_it_when_finished(
    five_cards: Path, tmp_path: Path
) -> None:
    out = ok("play", str(five_cards), "--seed", "1", stdin="quit\n")
    saves = tmp_path / "data" / "tricktaker" / "saves"
    [path] = saves.glob("*.json")
    assert path.name == "five-seed1.json"
    assert f"{program_name()} play --resume {path}" in out
    ok("play", str(five_cards), "--seed", "1", stdin="quit\n")
    assert (saves / "five-seed1-2.json").exists()  # an earlier save is never overwritten
    assert "Final scorecard" in ok("play", "--resume", str(path), stdin=CYCLE)
    assert path.exists()  # a file named with --resume stays
    assert "Final scorecard" in ok("play", str(five_cards), "--seed", "2", stdin=CYCLE)
    assert not (saves / "five-seed2.json").exists()


def test_ctrl_c_saves_and_says_where(five_cards: Path, tmp_path: Path) -> None:
    save = tmp_path / "interrupted.json"
    env = {**os.environ, "COLUMNS": "200", "XDG_DATA_HOME": str(tmp_path)}
    # Ctrl-C as a terminal sends it, even where the test runner ignores SIGINT
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
        " from tricktaker.cli import main; main()"
    )
    args = ["play", str(five_cards), "--seed", "1", "--save", str(save)]
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 60
    while not save.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    text = out.decode()
    assert f"Game saved to {save}; carry on with: {program_name()} play --resume {save}" in text
    assert json.loads(save.read_text())["format"] == "tricktaker-save"


def test_a_saved_game_given_as_game_points_to_resume(five_cards: Path, tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    ok("play", str(five_cards), "--seed", "1", "--save", str(save), stdin="quit\n")
    result = run("play", str(save))
    assert result.exit_code == 2
    assert f"{save}: that looks like a saved game: use {program_name()} play --resume {save}" in (
        result.stderr
    )
    result = run("play", "--resume", str(save), "--seed", "3")
    assert result.exit_code == 2
    assert "leave out --seed" in result.stderr


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda text: text[: len(text) // 2], "not JSON"),
        (lambda text: text.replace('"tricktaker-save"', '"something"'), "not a saved game"),
        (lambda text: text.replace('"version":1', '"version":9'), "version 9 is not supported"),
        (lambda text: text.replace('"humans":[0]', '"humans":[7]'), "'humans' must list seats"),
        (lambda text: text.replace('"heuristic"', '"genius"', 1), "unknown bot 'genius'"),
        (lambda text: re.sub(r'\[0,"bid (\d)"\]', r'[0,"bid 9"]', text), "damaged: event"),
    ],
)
def test_a_damaged_save_gets_a_clear_error(
    five_cards: Path, tmp_path: Path, edit: Callable[[str], str], message: str
) -> None:
    save = tmp_path / "saved.json"
    ok("play", str(five_cards), "--seed", "1", "--save", str(save), stdin="0\nquit\n")
    save.write_text(edit(save.read_text()))
    result = run("play", "--resume", str(save))
    assert result.exit_code == 2, result.output
    assert message in result.stderr


# ------------------------------------------------------------------- Euchre


BOWER_HANDS = ["JD AC AD AS JC", "AH 9D 10C QC KC", "JH 9C 10D QD KD", "KH 10S JS QS KS"]
BOWER_KITTY = "QH 10H 9H"


def euchre_declared(hands: Sequence[str], kitty: str, discards: str) -> GameState:
    """A first hand dealt by seat 0: seat 1 bids 3H, the others pass, and seat 1 discards
    ``discards`` (none: it is still to discard)."""
    state = new_game(load_ruleset("euchre"), players=4, seed=0, first_dealer=0)
    order = state.deck_order_for([h.split() for h in hands], kitty=kitty.split())
    state.apply_chance(ChanceOutcome("deal", order))
    for text in ("3H", "pass", "pass", "pass"):
        seat = state.to_act()[0]
        state.apply(seat, Action("pass") if text == "pass" else Action("auction", text))
    for card in discards.split():
        state.apply(state.to_act()[0], Action("discard", parse_card(card)))
    return state


def play_cards(state: GameState, cards: Sequence[str]) -> None:
    for card in cards:
        state.apply(state.to_act()[0], play(parse_card(card)))


def refusal(state: GameState, seat: int, card: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, play(parse_card(card)))
    return info.value.reason


def test_a_left_bower_refusal_says_it_belongs_to_the_trump_suit() -> None:
    """docs/games/euchre.md, Play: the left bower follows trumps, not its printed suit."""
    state = euchre_declared(BOWER_HANDS, BOWER_KITTY, BOWER_KITTY)
    play_cards(state, ["9D", "10D", "10S"])  # diamonds led; seat 0 holds JD and AD
    assert refusal(state, 0, "JD") == (
        "you must follow suit (diamonds led): the left bower (JD) belongs to the trump suit"
        " (hearts) here"
    )
    assert refusal(state, 0, "AC") == "you must follow suit (diamonds led)"


def test_the_table_shows_the_bower_refusal_with_suit_symbols() -> None:
    """docs/games/euchre.md, Play: the refusal as the person reads it at the table."""
    state = euchre_declared(BOWER_HANDS, BOWER_KITTY, BOWER_KITTY)
    play_cards(state, ["9D", "10D", "10S"])
    console = Console(file=io.StringIO(), width=200)
    table = Table(console, state, [0], {}, Cards(), names=["Ann", "Bob", "Cy", "Di"])
    obs = state.observe(0)
    jack = play(parse_card("JD"))
    with pytest.raises(IllegalActionError) as info:
        state.check(0, jack)
    number = str(card_position(obs, parse_card("JD")))
    assert table.refusal(number, jack, info.value, obs) == (
        f"Not allowed ({number} is J♦): you must follow suit (diamonds led): the left bower"
        " (J♦) belongs to the trump suit (hearts) here (rule: follow suit)"
    )


def test_a_refused_euchre_bid_says_what_can_be_bid() -> None:
    """docs/games/euchre.md, Bidding: a higher number beats a lower one, at the same number
    the higher suit; no trump is for five and beats everything."""
    for seed in range(40):
        state = start_game(load_ruleset("euchre"), 4, seed)
        bots = make_bots(dict.fromkeys((1, 2, 3), "heuristic"), seed)
        state.apply_chance()
        while state.to_act()[0] != 0:
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
        high = state.observe(0).extra.get("high_bid")
        if high and high["bid"][0] == "3" and high["bid"] != "3D":
            break
    else:
        pytest.fail("no seed where a bot opens at 3 before seat 0")
    out = ok("play", "euchre", "--seed", str(seed), stdin="3s\n6h\n1\nquit\n")
    bidder = table_names(4, [0], [1, 2, 3], None)[high["seat"]]  # a bot's short name
    assert f"3S does not beat the high bid {high['bid']} ({bidder}): you can bid" in out
    assert "4 or 5 in any suit, no trump (NT), or pass" in out
    assert "'6H' is not a bid: a bid is 3, 4 or 5 tricks and a suit letter; you can bid" in out


def test_read_reply_numbers_the_cards_to_discard_and_lets_a_rank_pick_one() -> None:
    """docs/games/euchre.md, Kitty and discard: the declarer discards any three cards."""
    state = euchre_declared(BOWER_HANDS, BOWER_KITTY, "")
    obs = state.observe(1)
    assert obs.phase == "discard"
    order = display_order(obs)
    cards = Cards()
    # hearts are trump: the trumps first, then the other suits alternating colours
    assert [format_card(c) for c in order] == ["AH", "QH", "10H", "9H", "9D", "KC", "QC", "10C"]
    assert read_reply("1", obs, cards).action == Action("discard", order[0])
    assert read_reply("8", obs, cards).action == Action("discard", parse_card("10C"))
    assert read_reply("k", obs, cards).action == Action("discard", parse_card("KC"))
    assert read_reply("9", obs, cards).error == "9♥ or 9♦: type the suit too (e.g. 9h)"
    assert read_reply("12", obs, cards).error == (
        "12 is not a card number: your cards are numbered 1 to 8 (? lists the legal ones)"
    )


@pytest.mark.parametrize("name", ["human", "render", "saves", "seating"])
def test_the_examples_in_the_play_modules_run(name: str) -> None:
    module = importlib.import_module(f"tricktaker.cli.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_save_that_cannot_be_written_is_reported_and_play_goes_on(
    five_cards: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    save = blocker / "game.json"
    result = run("play", str(five_cards), "--seed", "1", "--save", str(save), stdin="0\nquit\n")
    assert result.exit_code == 1
    assert result.stdout.count(f"Cannot save the game to {save}: ") == 1
    assert "playing on unsaved" in result.stdout
    assert "Your card" in result.stdout  # the game went on after the failure
    assert "Game saved" not in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_pass_screen_clears_the_terminal_before_the_next_person() -> None:
    out = run_in_terminal(
        ["play", "blackout", "--seed", "1", "--humans", "1,2"], "\n0\n\n0\nquit\nquit\n", {}
    )
    before, _, after = out.partition("Pass to Seat 2")
    assert "\x1b[2J\x1b[3J" in before.rsplit("Your turn", 1)[1]  # wiped after the last turn
    assert "\x1b[2J\x1b[3J" in after.split("Your turn", 1)[0]  # and again for the next
