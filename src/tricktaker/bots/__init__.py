"""Bots: they see an Observation, never a GameState."""

from tricktaker.bots.base import BOT_NAMES, LEVELS, Bot, make_bot, parse_bot_spec, play_game
from tricktaker.bots.determinize import Determinizer, sample_state
from tricktaker.bots.heuristic import HeuristicBot
from tricktaker.bots.ismcts import ISMCTSBot
from tricktaker.bots.pimc import PIMCBot
from tricktaker.bots.random_bot import RandomBot

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Bot",
    "Determinizer",
    "HeuristicBot",
    "ISMCTSBot",
    "PIMCBot",
    "RandomBot",
    "make_bot",
    "parse_bot_spec",
    "play_game",
    "sample_state",
]
