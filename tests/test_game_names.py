"""A game is one unit: no module outside ``src/tricktaker/games/`` names a game.

docs/rulesets.md, Writing a game in Python: every layer above the engine (bots, kernel,
presentation, scorekeeper, server, research encoding, command line, web client) asks a
game for what it declares in :attr:`GameHooks.capabilities` and never tests a game's id
or the keys of its data. So the code of those layers holds no game's name: no identifier,
attribute, import or string literal naming Pluck, Euchre, Buckup or Caller Clag, and the
web client's scripts none either. Docstrings and comments may still use a game as an
example, as prose.

The check reads the sources with :mod:`ast` (Python) and strips comments from the
scripts (JavaScript); it is checked itself on a small source that names a game in each
way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tricktaker"
STATIC = PACKAGE / "web" / "static"
GAME_WORDS = re.compile(r"pluck|euchre|buckup|caller_?clag|callerclag", re.IGNORECASE)
"""The shipped games that need code of their own, as they may appear in code."""


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (of modules, classes,
    functions, and the attribute docstrings that follow an assignment)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, stmt in enumerate(body):
            if not (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                continue
            first = index == 0 and isinstance(
                node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            )
            after_assignment = index > 0 and isinstance(body[index - 1], ast.Assign | ast.AnnAssign)
            if first or after_assignment:
                found.add(id(stmt.value))
    return found


def game_names_in_python(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` for each place the code (not its docstrings or comments) names
    a game: identifiers, attributes, imports, keyword arguments and string literals
    (f-string parts included)."""
    tree = ast.parse(source)
    docstrings = _docstring_nodes(tree)
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, ast.alias):
            texts.extend([node.name, node.asname or ""])
        elif isinstance(node, ast.ImportFrom):
            texts.append(node.module or "")
        elif isinstance(node, ast.keyword):
            texts.append(node.arg or "")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            texts.append(node.name)
        elif isinstance(node, ast.arg):
            texts.append(node.arg)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            texts.append(node.value)
        for text in texts:
            if GAME_WORDS.search(text):
                yield getattr(node, "lineno", 0), text


_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.DOTALL)


def game_names_in_script(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` for each line of a script whose code (comments removed) names a
    game."""
    code = _JS_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), source)
    for number, line in enumerate(code.splitlines(), start=1):
        if GAME_WORDS.search(line):
            yield number, line.strip()


def python_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def scripts() -> list[Path]:
    return sorted(p for p in STATIC.glob("*.js") if not p.name.startswith("vendor"))


def test_the_checker_sees_every_way_code_names_a_game() -> None:
    """The checker itself: names in code are found, the same words in docstrings and
    comments are not."""
    source = (
        '"""Pluck and Euchre, as examples."""\n'
        "from tricktaker.games.pluck import PluckHooks\n"
        "KEPT = ('buckup',)\n"
        "def euchre_panel(obs):\n"
        '    """Euchre\'s panel."""\n'
        "    # Pluck's quotas\n"
        "    return obs.extra.get('plucks') or f'{obs.seat} caller_clag'\n"
        "X = 1\n"
        '"""Attribute docstring naming Buckup."""\n'
    )
    found = [line for line, _ in game_names_in_python(source)]
    assert sorted(set(found)) == [2, 3, 4, 7]
    script = "// Euchre's panel\nconst a = panel.euchre ?? 1; /* Buckup */\nconst b = 'x';\n"
    assert [line for line, _ in game_names_in_script(script)] == [2]


@pytest.mark.parametrize("path", python_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_outside_the_games_names_a_game(path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: a layer asks the game's capabilities;
    it never names a game or tests its keys."""
    found = list(game_names_in_python(path.read_text(encoding="utf-8")))
    assert not found, "\n".join(f"{path.name}:{line}: {text!r}" for line, text in found)


@pytest.mark.parametrize("path", scripts(), ids=lambda p: p.name)
def test_no_script_of_the_web_client_names_a_game(path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: the web client renders the generic
    panel and scorekeeper steps the server sends; it names no game."""
    found = list(game_names_in_script(path.read_text(encoding="utf-8")))
    assert not found, "\n".join(f"{path.name}:{line}: {text}" for line, text in found)
