"""Last Trick: a small game written outside tricktaker, as a plugin author would.

After the deal each player in turn, from the dealer's left, stakes 0 to
``max_stake`` points on winning the last trick; then the tricks are played without
trump. A player scores one point per trick, plus the stake if they won the last
trick, minus it otherwise. A game is ``hands`` hands.

It uses only public names of the engine: :class:`GameHooks`, :func:`register_hooks`,
:func:`register_action_kind`, the ``HOOK`` phase and the state's ``set_trump`` and
``start_play``. Its panel at the table is its ``present`` capability, written with the
presentation layer's public names (:class:`~tricktaker.present.game.BasePresent`,
:class:`~tricktaker.present.parts.Line`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from tricktaker.engine.actions import Action, register_action_kind
from tricktaker.engine.base import HOOK
from tricktaker.engine.hooks import GameHooks, HandScore, register_hooks
from tricktaker.present.game import BasePresent
from tricktaker.present.parts import Line
from tricktaker.present.text import CardText

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup
    from tricktaker.engine.state import GameState
    from tricktaker.envs.fields import ActionSpace, FieldLayout, FieldWriter

STAKE = "stake"
register_action_kind(STAKE, "int")
MOST_STAKE = 9
"""The highest ``max_stake`` a ruleset may set."""


class LastTrickSettings(BaseModel):
    """The ``[settings]`` of a Last Trick ruleset."""

    model_config = ConfigDict(extra="forbid")

    hands: int = Field(default=3, ge=1, le=50)
    max_stake: int = Field(default=2, ge=0, le=MOST_STAKE)


@dataclass
class LastTrickData:
    """The stakes of the hand in progress (``state.ext``)."""

    stakes: list[int] = field(default_factory=list)

    def copy(self) -> LastTrickData:
        return LastTrickData(list(self.stakes))


@dataclass(frozen=True, slots=True)
class LastTrickView:
    """The game's part of an observation: the stakes made so far this hand, from the
    dealer's left."""

    stakes: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"stakes": list(self.stakes)}


class LastTrickEncoding:
    """The game's fields in the research encoding (:mod:`tricktaker.envs.fields`): each
    seat's stake, and whether it has staked yet; the action ``stake N``."""

    phases = ("stake",)

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        n = layout.players
        layout.add("stakes", n, "by relative seat: its stake this hand", high=MOST_STAKE)
        layout.add("staked", n, "by relative seat: 1 once it has staked this hand")

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        actions.add(STAKE, tuple(range(MOST_STAKE + 1)), "stake N: index = offset + N")

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        view = observation.view
        if not isinstance(view, LastTrickView):
            return
        for done, stake in enumerate(view.stakes):  # from the dealer's left
            seat = out.relative(observation.dealer + 1 + done)
            out.set("stakes", seat, stake)
            out.set("staked", seat)


class LastTrickPresent(BasePresent):
    """The game at the table: a panel line with each seat's stake so far (from the
    dealer's left) and whose turn it is to stake; no bids to total."""

    own_panel = True
    bids_total = False
    hidden_note = "(not dealt yet)"

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        view = obs.view
        if not isinstance(view, LastTrickView):
            return []
        staked = [
            f"{names[(obs.dealer + 1 + done) % obs.players]} {stake}"
            for done, stake in enumerate(view.stakes)
        ]
        text = ",  ".join(staked) or "none yet"
        if len(view.stakes) < obs.players and obs.to_act:
            text += f";  {names[obs.to_act[0]]} to stake"
        return [Line("Stakes", text, text)]

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """The stake asked for at the terminal, with the stakes allowed (where there is
        a choice)."""
        stakes = [int(a.value) for a in obs.legal_actions if a.kind == STAKE]
        return f"Your stake on the last trick (0-{max(stakes)}): " if len(stakes) > 1 else None


class LastTrickCoach:
    """What the coach counts as made (its ``"coach"`` capability): a stake on the last
    trick is made by winning it; a seat that staked nothing has nothing to make."""

    def made(
        self, result: HandResult, seat: int, partnerships: tuple[tuple[int, ...], ...]
    ) -> bool | None:
        if not result.bids[seat]:
            return None
        return bool(result.extra["last_trick"] == seat)


@register_hooks
class LastTrickHooks(GameHooks):
    """Stakes on the last trick before the play, and the hand's points."""

    name = "last_trick"
    settings_model = LastTrickSettings
    capabilities: ClassVar[dict[str, object]] = {
        "encoding": LastTrickEncoding(),
        "scorekeeper": "tests.plugins.last_trick_scorekeeper:SCOREKEEPER",
        "present": LastTrickPresent(),
        "search": "tests.plugins.last_trick_search:SEARCH",
        "coach": LastTrickCoach(),
    }

    def init_game(self, state: GameState) -> LastTrickData:
        return LastTrickData()

    def _data(self, state: GameState) -> LastTrickData:
        data = state.ext
        assert isinstance(data, LastTrickData)
        return data

    def _settings(self, state: GameState) -> LastTrickSettings:
        settings = self.settings(state)
        assert isinstance(settings, LastTrickSettings)
        return settings

    def after_deal(self, state: GameState) -> None:
        self._data(state).stakes = []
        state.cards_seen = [True] * state.players
        state.phase = HOOK

    def phase_name(self, state: GameState) -> str:
        return "stake"

    def to_act(self, state: GameState) -> tuple[int, ...]:
        done = len(self._data(state).stakes)
        return ((state.dealer + 1 + done) % state.players,)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [Action(STAKE, n) for n in range(self._settings(state).max_stake + 1)]

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        data = self._data(state)
        assert isinstance(action.value, int)
        data.stakes.append(action.value)
        if len(data.stakes) == state.players:
            state.set_trump(None)
            state.start_play()

    def stake_of(self, state: GameState, seat: int) -> int:
        """The stake ``seat`` made this hand (stakes are made from the dealer's left)."""
        return self._data(state).stakes[(seat - state.dealer - 1) % state.players]

    def score_hand(self, state: GameState) -> HandScore:
        last = state.trick_winners[-1]
        stakes = tuple(self.stake_of(state, s) for s in range(state.players))
        scores = tuple(
            state.tricks_won[s] + (stakes[s] if s == last else -stakes[s])
            for s in range(state.players)
        )
        return HandScore(hand_scores=scores, bids=stakes, extra={"last_trick": last})

    def hands_in_game(self, state: GameState) -> int | None:
        return self._settings(state).hands

    def game_over(self, state: GameState) -> bool:
        return state.hands_played >= self._settings(state).hands

    def view(self, state: GameState, seat: int) -> LastTrickView:
        return LastTrickView(stakes=tuple(self._data(state).stakes))

    def public_actions(self, obs: Observation) -> list[tuple[int, Action]]:
        """The stakes of the hand so far (public), ``(seat, action)`` from the dealer's
        left, from the seat's view (or its JSON, for an observation read from the wire)."""
        view = obs.view
        stakes = view.stakes if isinstance(view, LastTrickView) else obs.extra.get("stakes", ())
        return [
            ((obs.dealer + 1 + done) % obs.players, Action(STAKE, int(stake)))
            for done, stake in enumerate(stakes)
        ]
