"""The real table server as a subprocess (``python -m tricktaker serve``) on the loopback
address: started, waited for, stopped or killed. Used by the crash tests and the
browser tests, which talk to it over real sockets."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``python -m tricktaker serve`` on a fixed port and database, started and killed."""

    def __init__(
        self,
        db_url: str,
        port: int,
        log: Path,
        *,
        rate_limits: bool = False,
        options: Sequence[str] = (),
    ) -> None:
        self.db_url, self.port, self.log = db_url, port, log
        self.rate_limits = rate_limits
        self.options = tuple(options)
        """Further options of ``tricktaker serve``."""
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers HTTP."""
        args = [
            *(sys.executable, "-m", "tricktaker", "serve"),
            *("--port", str(self.port), "--db", self.db_url),
        ]
        if not self.rate_limits:
            args.append("--no-rate-limits")
        args.extend(self.options)
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                args,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/tables", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.returncode == -signal.SIGKILL

    def stop(self) -> None:
        """Terminate the server (SIGTERM, then SIGKILL if it hangs)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
