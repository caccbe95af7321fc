"""The ``tricktaker`` command run in-process (Typer's CliRunner), for the CLI tests."""

from __future__ import annotations

from dataclasses import dataclass

from typer.testing import CliRunner, Result

from tricktaker.cli import app


@dataclass(frozen=True, slots=True)
class Command:
    """Runs ``tricktaker ARGS`` with ``runner`` (its environment fixes the terminal)."""

    runner: CliRunner

    def run(self, *args: str, stdin: str | None = None) -> Result:
        """The run's result; no traceback in its output, whatever its exit status."""
        result = self.runner.invoke(app, list(args), input=stdin)
        assert "Traceback" not in result.output
        return result

    def ok(self, *args: str, stdin: str | None = None) -> str:
        """The standard output of a run that must exit with status 0."""
        result = self.run(*args, stdin=stdin)
        assert result.exit_code == 0, result.output
        return result.stdout
