"""The hook games' own models of a hand, which tests/test_properties_games.py checks
the engine against (one module for the base checker, one for each game)."""
