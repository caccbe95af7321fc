"""The coach: what each legal choice of a decision is worth, for a hint while playing
and for a review of a finished game (docs/coach.md)."""

from tricktaker.coach.model import MODEL, ChoiceValue, Hint, hand_points

__all__ = ["MODEL", "ChoiceValue", "Hint", "hand_points"]
