"""A learned linear policy over the encoding, saved to a file, and the bot that plays it.

The arena and every command that takes a bot name load one as
``policy:path=FILE.npz`` (examples/train_agent.py trains and saves one):

>>> import numpy as np, tempfile, os
>>> from tricktaker import load_ruleset, new_game
>>> rules = load_ruleset("blackout")
>>> policy = LinearPolicy.zeros(rules, 4)
>>> path = os.path.join(tempfile.mkdtemp(), "p.npz")
>>> policy.save(path)
>>> bot = PolicyBot(seed=0, path=path)
>>> state = new_game(rules, players=4, seed=2)
>>> state.apply_chance()
>>> seat = state.to_act()[0]
>>> bot.act(state.observe(seat)) in state.legal_actions(seat)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.envs.encoding import Encoding, Vector
from tricktaker.rules import Ruleset, load_ruleset

__all__ = ["LinearPolicy", "PolicyBot", "feature_scale"]

Matrix = npt.NDArray[np.float64]


def feature_scale(encoding: Encoding) -> npt.NDArray[np.float64]:
    """A divisor per observation number that brings it near [-1, 1]: the field's bound,
    at least 1 and at most 100 (scores and chips are divided by 100)."""
    bound = np.maximum(np.abs(encoding.low), np.abs(encoding.high)).astype(np.float64)
    return np.clip(bound, 1.0, 100.0)


@dataclass
class LinearPolicy:
    """A softmax policy: the logit of action ``a`` is ``weights[a] @ x + bias[a]`` where
    ``x`` is the encoding divided by :func:`feature_scale`; illegal actions are masked."""

    game: str
    options: dict[str, object]
    players: int
    weights: Matrix
    bias: npt.NDArray[np.float64]

    @classmethod
    def zeros(cls, rules: Ruleset, players: int) -> LinearPolicy:
        """The uniform policy (every legal action equally likely)."""
        encoding = Encoding.of(rules, players)
        return cls(
            game=rules.id,
            options=dict(rules.options),
            players=players,
            weights=np.zeros((encoding.action_size, encoding.observation_size)),
            bias=np.zeros(encoding.action_size),
        )

    def features(self, vector: Vector, encoding: Encoding) -> npt.NDArray[np.float64]:
        """The scaled input of the policy."""
        return vector.astype(np.float64) / feature_scale(encoding)

    def probabilities(
        self, x: npt.NDArray[np.float64], mask: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.float64]:
        """The policy's distribution over the action indices (0 where ``mask`` is 0)."""
        logits = self.weights @ x + self.bias
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        weights = np.exp(logits)
        result: npt.NDArray[np.float64] = weights / weights.sum()
        return result

    def save(self, path: str | Path) -> None:
        """Write the policy as a ``.npz`` file (arrays and the game it is for)."""
        about = json.dumps({"game": self.game, "options": self.options, "players": self.players})
        with Path(path).open("wb") as out:
            np.savez(out, weights=self.weights, bias=self.bias, about=np.array(about))

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy written by :meth:`save`."""
        try:
            with np.load(Path(path)) as data:
                about = json.loads(str(data["about"]))
                weights, bias = data["weights"], data["bias"]
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not a saved tricktaker policy ({exc})") from None
        return cls(about["game"], about["options"], about["players"], weights, bias)


class PolicyBot:
    """A bot that plays a saved :class:`LinearPolicy`: the most likely legal action
    (ties: the lowest index), so its play is deterministic."""

    name = "policy"

    def __init__(self, seed: int = 0, path: str = "") -> None:
        if not path:
            raise ValueError("give the policy file: policy:path=FILE.npz")
        self.policy = LinearPolicy.load(path)
        self.path = path
        self.rules = load_ruleset(self.policy.game, options=self.policy.options)
        self.encoding = Encoding.of(self.rules, self.policy.players)

    def act(self, observation: Observation) -> Action:
        """The policy's choice among ``observation.legal_actions``."""
        if (
            observation.rules.id != self.policy.game
            or observation.players != self.policy.players
            or dict(observation.rules.options) != self.policy.options
        ):
            raise ValueError(
                f"{self.path} was trained for {self.policy.game} with {self.policy.players}"
                f" players and options {self.policy.options}, not {observation.rules.id}"
                f" with {observation.players} and {dict(observation.rules.options)}"
            )
        x = self.policy.features(self.encoding.encode(observation), self.encoding)
        mask = self.encoding.action_mask(observation)
        probabilities = self.policy.probabilities(x, mask)
        return self.encoding.action_at(int(np.argmax(probabilities)))
