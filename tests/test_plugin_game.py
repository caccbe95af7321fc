"""A game written outside the package plugs into the engine through the public registry.

docs/rulesets.md, Writing a game in Python: hooks are found by the name a ruleset
gives (registered with ``register_hooks``, or declared in the ``tricktaker.games``
entry-point group of an installed package), or by a ``"module:Class"`` path.
The game used here is ``tests/plugins/last_trick.py`` with its ruleset
``tests/plugins/last_trick.toml``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.plugins.last_trick import STAKE, LastTrickHooks, LastTrickSettings
from tricktaker import GameRecord, Ruleset, RulesetError, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import GameHooks, get_hooks, known_hooks, register_hooks

PLUGINS = Path(__file__).parent / "plugins"
LAST_TRICK = PLUGINS / "last_trick.toml"


def _house_rule(tmp_path: Path, hooks: str, *extra: str) -> Ruleset:
    """A house rule over Last Trick that names its hooks as ``hooks``."""
    path = tmp_path / "house.toml"
    lines = [f'extends = "{LAST_TRICK.as_posix()}"', 'id = "house"', f'hooks = "{hooks}"', *extra]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_ruleset(path)


def _play_hand(rules: Ruleset, players: int = 3, seed: int = 1) -> None:
    state = new_game(rules, players=players, seed=seed)
    play_game(state, [make_bot("random", seed=s) for s in range(players)], until_hand_end=True)
    assert state.hands_played == 1


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 7), (5, 11)])
def test_registered_plugin_plays_a_whole_game_records_and_replays(players: int, seed: int) -> None:
    """docs/rulesets.md, Writing a game in Python: hooks registered with
    ``register_hooks`` are found by the name the ruleset gives; the engine deals,
    plays the tricks, scores through the hooks, records and replays."""
    rules = load_ruleset(LAST_TRICK)
    assert isinstance(rules.hooks, LastTrickHooks)
    assert rules.hook_settings == LastTrickSettings(hands=3, max_stake=2)
    state = new_game(rules, players=players, seed=seed)
    play_game(state, [make_bot("random", seed=seed + s) for s in range(players)])

    assert state.is_terminal()
    assert state.hands_played == 3
    totals = [0] * players
    for hand in state.history:
        assert hand.hand_size == 5
        assert sum(hand.tricks) == 5
        assert all(0 <= stake <= 2 for stake in hand.bids)
        last = hand.trick_winners[-1]
        assert hand.extra == {"last_trick": last}
        expected = [
            hand.tricks[s] + (hand.bids[s] if s == last else -hand.bids[s]) for s in range(players)
        ]
        assert list(hand.hand_scores) == expected
        totals = [t + e for t, e in zip(totals, expected, strict=True)]
    assert state.scores == totals

    text = state.record().dumps()
    assert '"hooks":"last_trick"' in text
    again = GameRecord.loads(text).replay()
    assert again.is_terminal()
    assert again.history == state.history
    assert again.record().dumps() == text


def test_plugin_stake_phase_is_an_ordinary_decision() -> None:
    """docs/rulesets.md, Writing a game in Python: a hook phase is played with the
    same calls as bidding and play; each player stakes in turn from the dealer's left
    and the observation carries the game's own data."""
    state = new_game(load_ruleset(LAST_TRICK), players=3, seed=5, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    assert state.phase_name == "stake"
    assert state.to_act() == (1,)
    assert [str(a) for a in state.legal_actions(1)] == ["stake 0", "stake 1", "stake 2"]
    state.apply(1, Action(STAKE, 2))
    assert state.to_act() == (2,)
    assert state.observe(0).extra == {"stakes": [2]}
    state.apply(2, Action.parse("stake 0"))
    state.apply(0, Action(STAKE, 1))
    assert state.phase_name == "playing"
    assert state.to_act() == (1,)
    assert state.trump is None


def test_plugin_stakes_are_public_actions_and_asked_for_in_its_own_words() -> None:
    """docs/rulesets.md, Writing a game in Python: the hooks give back the hand's public
    actions from any seat's observation (its JSON too: a remote seat's), which a sampler
    replays and a remote terminal narrates; the game's ``present`` capability asks for
    its own decision at the terminal."""
    from tricktaker.cli.human import prompt_text, read_reply
    from tricktaker.cli.render import Cards
    from tricktaker.client.decode import observation
    from tricktaker.server.tables.views import observation_json

    state = new_game(load_ruleset(LAST_TRICK), players=3, seed=5, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    hooks = state.rules.hooks
    assert hooks is not None
    plain = Cards(symbols=False)
    assert prompt_text(state.observe(1), plain) == "Your stake on the last trick (0-2): "
    assert read_reply("2", state.observe(1), plain).action == Action(STAKE, 2)
    state.apply(1, Action(STAKE, 2))
    state.apply(2, Action(STAKE, 0))
    expected = [(1, Action(STAKE, 2)), (2, Action(STAKE, 0))]
    assert hooks.public_actions(state.observe(0)) == expected
    remote = observation(observation_json(state.observe(0)), state.rules)
    assert remote.view is None
    assert hooks.public_actions(remote) == expected


def test_entry_point_of_an_installed_package_is_found_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/rulesets.md, Writing a game in Python: a package declares its hooks in the
    ``tricktaker.games`` entry-point group; the engine imports it when a ruleset names
    it. The package here is a real distribution (module plus ``.dist-info``) on
    ``sys.path``, with hooks that do not register themselves."""
    (tmp_path / "tt_demo_plugin.py").write_text(
        "from tests.plugins.last_trick import LastTrickHooks\n\n\n"
        "class DemoHooks(LastTrickHooks):\n"
        '    name = "last_trick_demo"\n',
        encoding="utf-8",
    )
    info = tmp_path / "tt_demo_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tt-demo-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[tricktaker.games]\nlast_trick_demo = tt_demo_plugin:DemoHooks\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))

    assert "last_trick_demo" in known_hooks()
    rules = _house_rule(tmp_path, "last_trick_demo")
    assert type(rules.hooks).__name__ == "DemoHooks"
    assert get_hooks("last_trick_demo") is rules.hooks
    _play_hand(rules)


def test_ruleset_may_name_the_hooks_class_by_module_path(tmp_path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: ``hooks = "module:Class"`` imports
    the module and uses the class, for a game that is not packaged."""
    name = "tests.plugins.last_trick:LastTrickHooks"
    rules = _house_rule(tmp_path, name, "[settings]", "hands = 1")
    assert isinstance(rules.hooks, LastTrickHooks)
    assert rules.hook_settings.hands == 1
    assert name in known_hooks()
    _play_hand(rules, players=4)


def test_unknown_hooks_name_lists_the_games_and_how_to_plug_one_in(tmp_path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: an unknown name is an error that
    names the file, the known games and the ways to plug a game in."""
    with pytest.raises(RulesetError) as info:
        _house_rule(tmp_path, "no_such_game")
    message = str(info.value)
    where = re.escape(str(tmp_path / "house.toml"))
    assert re.match(rf"{where}(:\d+:\d+)?: hooks: unknown hooks 'no_such_game'", message)
    for game in ("buckup", "euchre", "pluck", "last_trick"):
        assert game in message
    for way in ("register_hooks", "'tricktaker.games' entry-point group", '"module:Class"'):
        assert way in message
    assert "Did you mean" not in message
    with pytest.raises(
        RulesetError, match=r"unknown hooks 'last_trik' .*Did you mean 'last_trick'\?"
    ):
        _house_rule(tmp_path, "last_trik")


@pytest.mark.parametrize(
    ("hooks", "reason"),
    [
        ("tests.plugins.no_such_module:Hooks", "cannot import 'tests.plugins.no_such_module'"),
        ("tests.plugins.last_trick:NoSuchHooks", "has no 'NoSuchHooks'"),
        ("tests.plugins.last_trick:LastTrickData", "not a subclass of"),
    ],
)
def test_bad_module_path_is_a_clear_error(tmp_path: Path, hooks: str, reason: str) -> None:
    """docs/rulesets.md, Writing a game in Python: a ``"module:Class"`` path that does
    not lead to a GameHooks subclass is refused with the reason."""
    with pytest.raises(RulesetError, match="hooks: ") as info:
        _house_rule(tmp_path, hooks)
    assert reason in str(info.value)


def test_register_hooks_refuses_a_taken_name_and_non_hooks() -> None:
    """docs/rulesets.md, Writing a game in Python: names are unique; re-registering the
    same class (a module imported again) is allowed."""

    class OtherPluck(GameHooks):
        name = "pluck"

    get_hooks("pluck")
    taken = r"registered by tricktaker\.games\.pluck\.hooks:PluckHooks"
    with pytest.raises(ValueError, match=taken):
        register_hooks(OtherPluck)
    assert register_hooks(LastTrickHooks) is LastTrickHooks
    assert isinstance(get_hooks("last_trick"), LastTrickHooks)
    with pytest.raises(TypeError, match="not a subclass"):
        register_hooks(LastTrickSettings)  # type: ignore[type-var]

    class Nameless(GameHooks):
        pass

    with pytest.raises(ValueError, match="has no name"):
        register_hooks(Nameless)
