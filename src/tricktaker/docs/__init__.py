"""The rules of every shipped game, one page per game, shipped with the package.

The pages are the markdown files ``docs/games/<id>.md`` of the repository; the package
reaches them as ``tricktaker/docs/games/`` (a link to that folder in a source checkout,
copies in an installed wheel), so they are read with :mod:`importlib.resources` however
tricktaker was installed.

>>> "pluck" in page_ids()
True
>>> game_page("pluck").splitlines()[0]
'# Pluck'
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

PAGES = "games"
"""The folder of the game pages, inside this package."""

INDEX = "README"
"""The index page of the folder (not a game)."""


def _folder() -> Traversable:
    return resources.files(__name__).joinpath(PAGES)


def page_ids() -> list[str]:
    """The ids of the games that have a page, sorted."""
    return sorted(
        entry.name.removesuffix(".md")
        for entry in _folder().iterdir()
        if entry.name.endswith(".md") and entry.name != f"{INDEX}.md"
    )


def has_page(game_id: str) -> bool:
    """Whether the game ``game_id`` has a page."""
    return game_id in page_ids()


def page_path(game_id: str) -> str:
    """Where the page lives in the repository (``docs/games/<id>.md``), for citing it."""
    return f"docs/{PAGES}/{game_id}.md"


def game_page(game_id: str) -> str:
    """The markdown text of the page of the shipped game ``game_id``.

    Raises :class:`LookupError` naming the games that have a page when there is none.
    """
    if not has_page(game_id):
        known = ", ".join(page_ids()) or "none"
        raise LookupError(f"no rules page for {game_id!r}; the pages are: {known}")
    return _folder().joinpath(f"{game_id}.md").read_text(encoding="utf-8")
