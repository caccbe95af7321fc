"""The bot interface, the registry of bots by name, and a loop that plays a game with bots.

A bot is named by its kind (``random``, ``heuristic``, ``pimc``, ``ismcts``, or
``policy:path=FILE.npz``, a policy learned through :mod:`tricktaker.envs`) or by a
difficulty level (``easy``, ``medium``, ``hard``), optionally followed by settings of
its budget, each ``:KEY=VALUE`` (``ismcts:iterations=800``, ``pimc:time_budget=0.5``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, Protocol

from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState


class Bot(Protocol):
    """Anything that picks an action from an observation.

    A bot that often needs no more than the legal actions (a random player) may also
    define ``choose(seat, legal_actions, observe)`` (see :class:`LazyBot`): the game
    loops (:func:`decide`) then call it instead of :meth:`act`, and build the
    observation only when it calls ``observe()``.
    """

    name: str

    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions``."""
        ...


class LazyBot(Bot, Protocol):
    """A bot that can choose from the legal actions, observing only when it needs to."""

    def choose(
        self, seat: int, legal_actions: tuple[Action, ...], observe: Callable[[], Observation]
    ) -> Action:
        """Choose one of ``legal_actions`` for ``seat`` (the same choice :meth:`act` makes
        from the observation that ``observe()`` returns)."""
        ...


def decide(bot: Bot, state: GameState, seat: int) -> Action:
    """``bot``'s action for ``seat`` in ``state``: from :meth:`LazyBot.choose` where the
    bot has it (the observation is built only if the bot asks for it), else from
    :meth:`Bot.act` on ``state.observe(seat)``."""
    choose: Callable[..., Action] | None = getattr(bot, "choose", None)
    if choose is None:
        return bot.act(state.observe(seat))
    return choose(seat, tuple(state.legal_actions(seat)), partial(state.observe, seat))


def _registry() -> dict[str, Callable[..., Bot]]:
    from tricktaker.bots.heuristic import HeuristicBot
    from tricktaker.bots.ismcts import ISMCTSBot
    from tricktaker.bots.pimc import PIMCBot
    from tricktaker.bots.random_bot import RandomBot

    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "pimc": PIMCBot,
        "ismcts": ISMCTSBot,
        "policy": _policy_bot,
    }


def _policy_bot(seed: int = 0, path: str = "") -> Bot:
    """A learned policy saved by tricktaker.envs (``policy:path=FILE.npz``; needs the envs
    extra, imported only when such a bot is made)."""
    try:
        from tricktaker.envs.policy import PolicyBot
    except ImportError as exc:
        raise ValueError(
            f"a policy bot needs the envs extra (pip install 'tricktaker[envs]'): {exc}"
        ) from None
    return PolicyBot(seed, path=path)


BOT_NAMES = ("random", "heuristic", "pimc", "ismcts")
"""The kinds of bot."""

LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "medium": "pimc",
    "hard": "ismcts:iterations=600:kernel_iterations=50000:time_budget=0.2",
}
"""Difficulty levels and the bot each one is. ``hard`` is the strongest bot; its budget
keeps it under a quarter of a second a move on the largest hands: 0.2 s of search, plus
the decision's set-up and the last iteration begun. The time limit only cuts searches
that would run longer (the Python search of the hook games' auctions, plucks, trump
calls, discards, stay or fold and draws; any search on a very busy machine), so most
decisions are reproducible from the seed. Where the compiled kernel searches (the Oh
Hell family, and the card play of Pluck, Euchre and Buckup) it runs 50,000 iterations
(10,000 until issue 30 measured what more of the budget gives; bench/README.md, "The hook
games' own phases and card play"), in about the time the Python search takes for 500.
Euchre's auction and discard, and Buckup's ante, stay or fold, discard and draw, are
chosen by flat play-outs rather than the Python tree (the search support's
``own_phases``)."""


def _value(spec: str, param: inspect.Parameter, text: str) -> Any:
    """The setting's value, converted to the type its parameter is annotated with."""
    annotation = str(param.annotation)
    convert: Callable[[str], Any] = int if annotation.startswith("int") else float
    if "float" not in annotation and "int" not in annotation:
        convert = str
    try:
        return convert(text)
    except ValueError:
        kind = "a whole number" if convert is int else "a number"
        raise ValueError(f"bot {spec!r}: {param.name} must be {kind}, not {text!r}") from None


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot's kind and settings from ``NAME[:KEY=VALUE]...`` (levels expanded).

    >>> parse_bot_spec("ismcts:iterations=800")
    ('ismcts', {'iterations': 800})
    >>> parse_bot_spec("hard:time_budget=0.5")
    ('ismcts', {'iterations': 600, 'kernel_iterations': 50000, 'time_budget': 0.5})
    """
    name, *settings = spec.strip().split(":")
    if name in LEVELS:
        name, base = parse_bot_spec(LEVELS[name])
    else:
        base = {}
    factories = _registry()
    if name not in factories:
        known = ", ".join([*factories, *LEVELS])
        raise ValueError(f"unknown bot {name!r}; the bots are: {known}")
    params = inspect.signature(factories[name]).parameters
    allowed = [p for p in params if p != "seed"]
    for item in settings:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bot {spec!r}: write each setting as :KEY=VALUE, not {item!r}")
        if key not in allowed:
            accepted = ", ".join(allowed) or "none"
            raise ValueError(f"bot {spec!r}: {name} has no setting {key!r} (settings: {accepted})")
        base[key] = _value(spec, params[key], text.strip())
    return name, base


def make_bot(name: str, *, seed: int = 0) -> Bot:
    """A bot by name or level, with settings (see the module notes), seeded for
    reproducible choices.

    >>> make_bot("ismcts:iterations=50", seed=1).iterations
    50
    """
    kind, settings = parse_bot_spec(name)
    try:
        return _registry()[kind](seed, **settings)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bot {name!r}: {exc}") from None


def bot_decisions(state: GameState, bots: Sequence[Bot]) -> Iterator[tuple[int, Observation]]:
    """Play ``state`` on with one bot per seat (chance steps from the seed), yielding
    each decision's seat and observation before the seat's bot acts on it: a caller that
    stops iterating leaves ``state`` at that decision (the positions a test or benchmark
    looks for in a bot-played game)."""
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in state.to_act():
            observation = state.observe(seat)
            yield seat, observation
            state.apply(seat, bots[seat].act(observation))


def play_game(state: GameState, bots: Sequence[Bot], *, until_hand_end: bool = False) -> None:
    """Play ``state`` to the end with one bot per seat (chance steps from the seed).

    With ``until_hand_end`` it stops once the hand in progress is scored.
    """
    if len(bots) != state.players:
        raise ValueError(f"give one bot per seat: {state.players} needed, {len(bots)} given")
    start = state.hands_played
    while not state.is_terminal():
        if until_hand_end and state.hands_played > start:
            return
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in state.to_act():
            state.apply(seat, decide(bots[seat], state, seat))
