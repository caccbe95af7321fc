"""Tests of the coach (tricktaker.coach): hints, reviews and their exact checks."""
