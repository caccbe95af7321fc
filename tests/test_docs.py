"""The rules pages (docs/games/<id>.md): one per shipped game, each naming every option,
with the same sections; shipped in the package; shown by ``tricktaker rules GAME``; and
every link of the README and docs/ pointing at a file of the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tricktaker import list_rulesets, load_ruleset
from tricktaker.cli import app
from tricktaker.docs import game_page, has_page, page_ids, page_path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "games"
GAMES = list_rulesets()
SECTIONS = (
    "Players and deck",
    "Hands and schedule",
    "Deal and trump",
    "Bidding",
    "Play",
    "Scoring",
    "Special hands",
    "Options",
    "Choices we made",
    "End of the game",
)
"""The sections every page has, in this order (a page may add its own between them)."""

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
"""An inline markdown link ``[text](target)``; the target is group 1."""
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
"""A reference definition ``[name]: target``."""
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)

OUTSIDE = ("RULES" + ".md", "../" + "shared", "\N{BLACK FLAG}", "seed " + "00")
"""Traces of material outside the repository (written so that this file has none)."""

runner = CliRunner(env={"COLUMNS": "200"})


def page_text(game: str) -> str:
    return (PAGES / f"{game}.md").read_text(encoding="utf-8")


def headings(text: str, level: int) -> list[str]:
    marks = "#" * level
    return [
        line[level + 1 :].strip()
        for line in FENCE.sub("", text).splitlines()
        if line.startswith(f"{marks} ")
    ]


def anchor(heading: str) -> str:
    """The anchor a heading gets on GitHub: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [m.group(1) for m in LINK.finditer(text)] + REFERENCE.findall(text)


# ------------------------------------------------------------------ the pages


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_game_has_its_page(game: str) -> None:
    path = PAGES / f"{game}.md"
    assert path.is_file(), f"{game} has no rules page {page_path(game)}"
    assert has_page(game)
    assert headings(page_text(game), 1) == [headings(page_text(game), 1)[0]], (
        "a page has exactly one title"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_page_names_every_option(game: str) -> None:
    text = page_text(game)
    options = [*load_ruleset(game).spec.options, "draw_for_dealer"]
    missing = [name for name in options if f"`{name}`" not in text]
    assert not missing, f"{page_path(game)} does not name the options {missing}"
    options_section = text.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    unnamed = [name for name in options if f"`{name}`" not in options_section]
    assert not unnamed, f"{page_path(game)}, Options: {unnamed} are not listed"


@pytest.mark.parametrize("game", GAMES)
def test_every_page_has_the_sections_in_order(game: str) -> None:
    found = headings(page_text(game), 2)
    missing = [name for name in SECTIONS if name not in found]
    assert not missing, f"{page_path(game)} lacks the sections {missing}"
    order = [found.index(name) for name in SECTIONS]
    assert order == sorted(order), f"{page_path(game)}: the sections are out of order: {found}"


def test_the_index_lists_every_page() -> None:
    index = (PAGES / "README.md").read_text(encoding="utf-8")
    listed = {target for target in links(PAGES / "README.md") if target.endswith(".md")}
    assert {f"{game}.md" for game in GAMES} <= listed
    assert len(re.findall(r"^\| \[", index, re.MULTILINE)) == len(GAMES)


def test_pages_are_only_for_shipped_games() -> None:
    assert page_ids() == GAMES
    assert sorted(p.stem for p in PAGES.glob("*.md") if p.stem != "README") == GAMES


# ----------------------------------------------------------------- packaging


@pytest.mark.parametrize("game", GAMES)
def test_pages_are_reachable_through_the_package(game: str) -> None:
    """The package reads the same text as the repository's docs/games/<id>.md."""
    assert game_page(game) == page_text(game)


def test_the_package_folder_is_the_docs_folder() -> None:
    """src/tricktaker/docs/games is the repository's docs/games (a relative link), and the
    wheel's package data takes every page from it."""
    linked = ROOT / "src" / "tricktaker" / "docs" / "games"
    assert linked.resolve() == PAGES.resolve()
    if linked.is_symlink():
        assert not Path(linked.readlink()).is_absolute()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]
    assert "games/*.md" in data["tricktaker.docs"]


def test_an_unknown_page_is_a_clear_error() -> None:
    with pytest.raises(LookupError, match="no rules page for 'nosuchgame'; the pages are: "):
        game_page("nosuchgame")


def test_the_license_is_declared_and_shipped() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the tricktaker authors" in text


# --------------------------------------------------------------------- links


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(path: Path) -> None:
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file_part, _, fragment = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}: link {target!r}"
        assert resolved.is_relative_to(ROOT), f"{where} leaves the repository"
        assert resolved.exists(), f"{where} points at no file"
        if fragment and resolved.suffix == ".md":
            text = resolved.read_text(encoding="utf-8")
            anchors = {anchor(h) for level in range(1, 7) for h in headings(text, level)}
            assert fragment in anchors, f"{where}: no heading #{fragment}"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_stand_on_their_own(path: Path) -> None:
    """No reference to material outside the repository."""
    text = path.read_text(encoding="utf-8")
    for word in OUTSIDE:
        assert word not in text, f"{path.relative_to(ROOT)} mentions {word!r}"


# ----------------------------------------------------------- tricktaker rules


@pytest.mark.parametrize("game", GAMES)
def test_rules_piped_prints_the_page_and_the_schedule(game: str) -> None:
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert page_text(game).strip() in out
    assert "Schedule for " in out
    for name in load_ruleset(game).spec.options:
        assert name in out.split(page_text(game).strip(), 1)[1], "the options table"
    for word in (*OUTSIDE, "decision"):
        assert word not in out.split(page_text(game).strip(), 1)[1]


def test_rules_shows_the_schedule_for_the_chosen_players() -> None:
    """docs/games/blackout.md, Hands and schedule: 1 up to the maximum (52 // players)."""
    out = runner.invoke(app, ["rules", "blackout", "--players", "5"]).stdout
    assert "Schedule for 5 players" in out
    assert " ".join(str(n) for n in range(1, 11)) + "  (10 hands)" in out
    out = runner.invoke(app, ["rules", "blackout"]).stdout
    assert "Schedule for 4 players" in out
    assert "(13 hands)" in out
    out = runner.invoke(app, ["rules", "pluck"]).stdout
    assert "Schedule for 3 players\n  17 cards each, every hand; the game lasts 6 hands." in out


def test_rules_refuses_a_table_the_game_does_not_allow() -> None:
    result = runner.invoke(app, ["rules", "euchre", "--players", "5"])
    assert result.exit_code == 2
    assert "Euchre (23-card auction) is for 4 players, not 5" in result.output
    result = runner.invoke(app, ["rules", "--players", "5"])
    assert result.exit_code == 2
    assert "need a GAME" in result.output


def test_rules_of_a_house_file_names_its_page_and_its_changes(tmp_path: Path) -> None:
    base = tmp_path / "quick.toml"
    base.write_text(
        'extends = "blackout"\nid = "quick"\nname = "Quick Blackout"\n'
        'description = "Blackout of 1 to 5 cards."\n[schedule]\nsizes = "1..5"\n',
        encoding="utf-8",
    )
    house = tmp_path / "house.toml"
    house.write_text(
        'extends = "quick.toml"\nid = "house"\n[bidding]\nhook = true\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["rules", str(house), "--players", "3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Quick Blackout (house)" in out
    assert "Blackout of 1 to 5 cards." in out
    assert "docs/games/blackout.md" in out
    assert "tricktaker rules blackout" in out
    assert "bidding.hook, schedule.sizes" in out
    assert "Schedule for 3 players\n  1 2 3 4 5  (5 hands)" in out
    assert page_text("blackout").splitlines()[2] not in out, "not the parent's whole page"


def test_rules_of_a_file_that_stands_alone(tmp_path: Path) -> None:
    text = (ROOT / "src" / "tricktaker" / "rules" / "presets" / "jabberwocky.toml").read_text(
        encoding="utf-8"
    )
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["rules", str(path)]).stdout
    assert "no shipped game: every rule is in the file" in out
    assert "Schedule for 4 players" in out


def test_the_rules_named_by_refusals_are_sections_of_the_pages() -> None:
    """An illegal move in Pluck, Euchre or Buckup names its rule as "Game: section"; the
    section is a heading of the game's page, so a player can look it up."""
    games = {"Pluck": "pluck", "Euchre": "euchre", "Buckup": "buckup"}
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted((ROOT / "src" / "tricktaker" / "games").glob("*/hooks.py"))
    )
    named = set(re.findall(r"\"(Pluck|Euchre|Buckup): ([^\"]+)\"", source))
    assert {game for game, _ in named} == set(games)
    for game, section in sorted(named):
        text = page_text(games[game])
        found = {h.lower() for level in (2, 3) for h in headings(text, level)}
        assert section.lower() in found, f"{page_path(games[game])} has no section {section!r}"
