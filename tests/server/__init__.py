"""Tests of the table server (tricktaker.server)."""
