"""The browser client of the table server: static files (plain ES modules, no build
step) served at ``/`` by ``tricktaker serve``, and the data the pages ask for.

* :mod:`tricktaker.web.catalog`: the shipped games and their options, and the check of
  a house-rules file, as JSON for the lobby;
* :mod:`tricktaker.web.replays`: a game record replayed by the engine into the frames
  a replay steps through, with every hand shown.

The HTTP routes are in :mod:`tricktaker.server.web`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

STATIC = "static"
"""The folder of the page's files, inside this package."""


def static_dir() -> Path:
    """The folder of the browser client's files (``index.html``, the ES modules, CSS)."""
    folder = resources.files(__name__).joinpath(STATIC)
    return Path(str(folder))
