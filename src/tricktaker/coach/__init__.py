"""The coach: what each legal choice of a decision is worth, for a hint while playing
and for a review of a finished game (docs/coach.md)."""

from tricktaker.coach.contract import made_bid
from tricktaker.coach.exact import exact_hint
from tricktaker.coach.model import MODEL, ChoiceValue, Hint, hand_points
from tricktaker.coach.values import hint

__all__ = ["MODEL", "ChoiceValue", "Hint", "exact_hint", "hand_points", "hint", "made_bid"]
