"""``tricktaker play`` in a real terminal (tmux): what a person can see on the screen and
scroll back to. Pass-and-play must leave nothing of one person's hand for the next."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers import five_card_rules
from tricktaker import load_ruleset, new_game
from tricktaker.cards import pretty_card

VENV_BIN = Path(sys.executable).parent


class Terminal:
    """A tmux session of 100x40 running one command, on a server of its own."""

    def __init__(self, command: str, cwd: Path, env: dict[str, str], *, rows: int = 40) -> None:
        self.socket = f"tt-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        # the command's output stays readable after it ends (sleep), for the checks
        shell = f"env -u LESS -u PAGER {exports} {command}; echo EXITED; sleep 60"
        self.tmux("new-session", "-d", "-x", "100", "-y", str(rows), "-c", str(cwd), shell)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def screen(self) -> str:
        """The visible screen."""
        return self.tmux("capture-pane", "-p")

    def history(self) -> str:
        """Everything the person could see: the scrollback and the screen."""
        return self.tmux("capture-pane", "-p", "-S", "-")

    def type(self, text: str) -> None:
        if text:
            self.tmux("send-keys", "-l", text)
        self.tmux("send-keys", "Enter")

    def wait_for(self, found: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.1)
        pytest.fail(f"the terminal never showed {what}:\n{self.history()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def showing(text: str) -> Callable[[str], bool]:
    """Whether a screen shows ``text``."""
    return lambda screen: text in screen


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    if shutil.which("tmux") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("tmux is missing in CI: apt-get install tmux")
        pytest.skip("tmux is not installed")
    opened: list[Terminal] = []

    def start(args: str, *, rows: int = 40) -> Terminal:
        env = {
            "PATH": f"{VENV_BIN}:/usr/bin:/bin",
            "TERM": "xterm-256color",
            "XDG_DATA_HOME": str(tmp_path),
            "HOME": str(tmp_path),
        }
        term = Terminal(f"{VENV_BIN / 'tricktaker'} {args}", tmp_path, env, rows=rows)
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


@pytest.fixture
def five_cards(tmp_path: Path) -> Path:
    """House rules: Blackout with a single hand of five cards."""
    return five_card_rules(tmp_path)


def test_pass_and_play_leaves_no_hand_to_scroll_back_to(
    terminal: Callable[..., Terminal], five_cards: Path
) -> None:
    names = ["Ann", "Bob", "Cy", "Di"]
    deal = new_game(load_ruleset(str(five_cards)), players=4, seed=4)
    deal.apply_chance()
    held = {
        name: [pretty_card(card) for card in deal.dealt[seat]] for seat, name in enumerate(names)
    }
    term = terminal(
        f"play {five_cards} --seed 4 --humans 1,3 --bots random --names {','.join(names)}"
    )
    # the first person gets a pass screen too, with no hand on it
    first = term.wait_for(lambda s: "Pass to " in s, "the first pass screen")
    assert "Hand:" not in term.history()
    person = "Cy" if "Pass to Cy: press Enter when Cy is ready" in first else "Ann"
    assert f"Pass to {person}: press Enter when {person} is ready" in first
    for _turn in range(2):  # each person bids; the other is passed the terminal
        term.type("")
        shown = term.wait_for(lambda s: "bid (" in s, f"{person}'s bid")
        assert any(pretty_card(c) in shown for c in deal.dealt[names.index(person)])
        term.type("0")
        other = "Ann" if person == "Cy" else "Cy"
        term.wait_for(showing(f"Pass to {other}:"), f"the pass screen for {other}")
        scrollback = term.history()
        assert "Hand:" not in scrollback, scrollback
        for card in held[person]:
            assert card not in scrollback, (card, scrollback)
        person = other


def test_a_long_rules_page_is_paged_on_a_terminal(terminal: Callable[..., Terminal]) -> None:
    term = terminal("rules blackout", rows=20)
    screen = term.wait_for(lambda s: s.rstrip().endswith(":"), "the pager's prompt")
    assert screen.splitlines()[0].strip() == "Blackout"  # the top of the page, held
    assert "Schedule" not in screen
    assert "EXITED" not in term.history()
    term.type("q")
    term.wait_for(lambda s: "EXITED" in s, "the end of the command")


def test_a_piped_rules_page_is_plain_and_whole() -> None:
    result = subprocess.run(
        [str(VENV_BIN / "tricktaker"), "rules", "blackout"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    assert "\x1b" not in result.stdout
    assert result.stdout.startswith("# Blackout")  # the page as written, unpaged
    assert "Schedule" in result.stdout


def test_a_long_replay_is_paged_on_a_terminal(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    bots = ["-b", "random,random,random"]
    args = ["simulate", "blackout", "-n", "3", "-g", "1", *bots, "--record", str(folder)]
    subprocess.run([str(VENV_BIN / "tricktaker"), *args], capture_output=True, check=True)
    [record] = folder.glob("*.json")
    term = terminal(f"replay {record}", rows=20)
    screen = term.wait_for(lambda s: s.rstrip().endswith(":"), "the pager's prompt")
    assert "Blackout" in screen.splitlines()[0]  # the top of the replay, held
    assert "Final" not in screen
    term.type("q")
    term.wait_for(lambda s: "EXITED" in s, "the end of the command")
