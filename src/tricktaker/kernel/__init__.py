"""The compiled search kernel: hands, determinizer and ISMCTS in C++ (the Oh Hell family's
bids and cards; the card play of the hook games in :data:`KERNEL_HOOKS`).

A CPython extension (``_core``, built by ``pip install`` from the C++ sources in this
folder) plays one hand at a time: cards as 64-bit masks, legal moves, tricks, scores,
the search's rollout policy, the void-aware determinizer and the ISMCTS and flat-rollout
(PIMC) loops, called once per decision. It is configured at run time from the loaded ruleset and the
engine's card tables (:mod:`tricktaker.kernel.convert`); a ruleset or decision it does
not play raises :class:`KernelUnsupportedError` (the bots then search in Python).

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("blackout"), players=4, seed=3)
>>> state.apply_chance()
>>> if available():
...     obs = state.observe(state.to_act()[0])
...     action, done = kernel_search(obs, seed=1, iterations=50, time_budget=None,
...         exploration=0.3, noise=0.5, model_opponents=False, weighted=True)
...     assert action in obs.legal_actions and done == 50
"""

from tricktaker.kernel.convert import (
    BID_BASE,
    KERNEL_HOOKS,
    KernelUnsupportedError,
    ResultTable,
    check_ruleset,
    config_of_state,
    hand_config,
    state_dict,
)
from tricktaker.kernel.native import LOAD_ERROR, KernelUnavailableError, available, native
from tricktaker.kernel.search import kernel_rollouts, kernel_search, kernel_world

__all__ = [
    "BID_BASE",
    "KERNEL_HOOKS",
    "LOAD_ERROR",
    "KernelUnavailableError",
    "KernelUnsupportedError",
    "ResultTable",
    "available",
    "check_ruleset",
    "config_of_state",
    "hand_config",
    "kernel_rollouts",
    "kernel_search",
    "kernel_world",
    "native",
    "state_dict",
]
