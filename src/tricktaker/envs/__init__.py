"""Research interfaces: a fixed numeric encoding, PettingZoo and Gymnasium environments.

Needs the ``envs`` extra (``pip install 'tricktaker[envs]'``: numpy, PettingZoo,
Gymnasium); the rest of tricktaker never imports this package. See docs/envs.md.

>>> import tricktaker.envs
>>> env = tricktaker.envs.pettingzoo_env("bluke", players=3)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

# The functions are bound here, over the modules of the same names, so that
# ``tricktaker.envs.pettingzoo_env(...)`` is always the function.
from tricktaker.envs.encoding import Encoding
from tricktaker.envs.gym_env import gym_env
from tricktaker.envs.pettingzoo_env import pettingzoo_env

__all__ = ["Encoding", "gym_env", "pettingzoo_env"]
