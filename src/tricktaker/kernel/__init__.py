"""The compiled search kernel: hands, determinizer and ISMCTS in C++ (the Oh Hell family's
bids and cards; the card play of the hook games that declare it, :func:`kernel_plays`).

A CPython extension (``_core``, built by ``pip install`` from the C++ sources in this
folder) plays one hand at a time: cards as 64-bit masks, legal moves, tricks, scores,
the search's rollout policy, the void-aware determinizer and the ISMCTS and flat-rollout
(PIMC) loops, called once per decision. It is configured at run time from the loaded ruleset and the
engine's card tables (:mod:`tricktaker.kernel.convert`) through the typed objects of
:mod:`tricktaker.kernel.spec`, whose fields and limits the compiled module declares; a
malformed input raises ``ValueError`` or ``TypeError``, never aborts; a ruleset or
decision it does not play raises :class:`KernelUnsupportedError` (the bots then search
in Python).

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
    ResultTable,
    check_ruleset,
    config_of_state,
    hand_config,
    kernel_plays,
    kernel_state,
    plays_whole,
    state_rules,
)
from tricktaker.kernel.native import LOAD_ERROR, KernelUnavailableError, available, native
from tricktaker.kernel.search import kernel_rollouts, kernel_search, kernel_world
from tricktaker.kernel.spec import (
    CARD_PLAY,
    KernelConfig,
    KernelLimits,
    KernelState,
    KernelSupport,
    KernelUnsupportedError,
    PlayInference,
    SplitGraph,
    WorldFacts,
    limits,
)
from tricktaker.kernel.spec import WHOLE_GAME as WHOLE_GAME

__all__ = [
    "BID_BASE",
    "CARD_PLAY",
    "LOAD_ERROR",
    "KernelConfig",
    "KernelLimits",
    "KernelState",
    "KernelSupport",
    "KernelUnavailableError",
    "KernelUnsupportedError",
    "PlayInference",
    "ResultTable",
    "SplitGraph",
    "WorldFacts",
    "available",
    "check_ruleset",
    "config_of_state",
    "hand_config",
    "kernel_plays",
    "kernel_rollouts",
    "kernel_search",
    "kernel_state",
    "kernel_world",
    "limits",
    "native",
    "plays_whole",
    "state_rules",
]


def __getattr__(name: str) -> int:
    """``BID_BASE``: read from the compiled module when first asked for (see
    :func:`limits`)."""
    if name == "BID_BASE":
        return limits().bid_base
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
