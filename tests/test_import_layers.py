"""The layers of the package: ``cards < rules < engine < games``.

docs/rulesets.md, Writing a game in Python: a game's hooks are found by the name its
ruleset gives, through a registry kept in the rules layer (``tricktaker.rules.registry``)
and filled from above, so ``tricktaker.engine`` and ``tricktaker.rules`` never import
``tricktaker.games`` (nor the bots, the arena or the command line), the rules never
import the engine at run time, and no import cycle runs through a game. The imports
are read from the sources with :mod:`ast`, including imports inside functions and
``importlib.import_module("...")`` calls with a literal name.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tricktaker"
LOWER_LAYERS = ("engine", "rules")
LAYERS = ("tricktaker.cards", "tricktaker.rules", "tricktaker.engine", "tricktaker.games")
"""From the bottom up: a module imports, at run time, only its own layer and those below."""
UPPER_LAYERS = ("tricktaker.games", "tricktaker.bots", "tricktaker.arena", "tricktaker.cli")


def module_name(path: Path) -> str:
    """``tricktaker.engine.state`` for ``src/tricktaker/engine/state.py``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return ast.unparse(test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}


def _walk(node: ast.AST, *, runtime_only: bool) -> Iterator[ast.AST]:
    """Every node under ``node``; without ``if TYPE_CHECKING:`` bodies if ``runtime_only``."""
    for child in ast.iter_child_nodes(node):
        if runtime_only and isinstance(child, ast.If) and _is_type_checking(child.test):
            yield from (n for stmt in child.orelse for n in [stmt, *_walk(stmt, runtime_only=True)])
            continue
        yield child
        yield from _walk(child, runtime_only=runtime_only)


def imports_of(source: str, name: str, *, is_package: bool, runtime_only: bool) -> set[str]:
    """The modules a module's source imports anywhere (``a.b.c`` also stands for ``a.b``).

    ``name`` is the module's own dotted name, used to resolve relative imports.
    """
    found: set[str] = set()
    package = name.split(".") if is_package else name.split(".")[:-1]
    for node in _walk(ast.parse(source), runtime_only=runtime_only):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base_parts = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*base_parts, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in {"importlib.import_module", "import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    with_parents: set[str] = set()
    for module in found:
        parts = module.split(".")
        with_parents.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return with_parents


def modules_of(*layers: str) -> dict[str, Path]:
    """The modules under ``src/tricktaker/<layer>/``, by dotted name."""
    return {
        module_name(path): path
        for layer in layers
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    }


def _source_imports(path: Path, *, runtime_only: bool) -> set[str]:
    return imports_of(
        path.read_text(encoding="utf-8"),
        module_name(path),
        is_package=path.name == "__init__.py",
        runtime_only=runtime_only,
    )


def _upper(module: str) -> bool:
    return any(module == top or module.startswith(top + ".") for top in UPPER_LAYERS)


def test_the_parser_sees_imports_in_functions_relative_and_dynamic() -> None:
    """The checker itself: the ways a module can reach the games are all seen."""
    source = (
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from tricktaker.bots import Bot\n"
        "def f():\n"
        "    from ..games import pluck\n"
        "    importlib.import_module('tricktaker.cli')\n"
        "    from tricktaker import arena\n"
    )
    everything = imports_of(source, "tricktaker.engine.x", is_package=False, runtime_only=False)
    assert {"tricktaker.games.pluck", "tricktaker.cli", "tricktaker.bots.Bot"} <= everything
    assert "tricktaker.arena" in everything
    runtime = imports_of(source, "tricktaker.engine.x", is_package=False, runtime_only=True)
    assert "tricktaker.bots" not in runtime
    assert "tricktaker.games.pluck" in runtime


@pytest.mark.parametrize("path", modules_of(*LOWER_LAYERS).values(), ids=module_name)
def test_engine_and_rules_import_no_game_bot_arena_or_cli(path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: the engine finds games by name, so
    no module of the engine or the rules imports an upper layer, not even inside a
    function or for type checking."""
    upward = sorted(m for m in _source_imports(path, runtime_only=False) if _upper(m))
    assert not upward, f"{module_name(path)} imports {', '.join(upward)}"


def _layer(module: str) -> int | None:
    """The index in :data:`LAYERS` of the layer ``module`` belongs to, if any."""
    for index, top in enumerate(LAYERS):
        if module == top or module.startswith(top + "."):
            return index
    return None


def _above(path: Path) -> list[str]:
    """The modules of higher layers that the module at ``path`` imports at run time."""
    own = _layer(module_name(path))
    assert own is not None
    return sorted(
        m
        for m in _source_imports(path, runtime_only=True)
        if (layer := _layer(m)) is not None and layer > own
    )


def test_the_layer_checker_sees_a_function_level_import_of_the_engine() -> None:
    """The checker itself: a rules module importing the engine inside a function is
    caught, and one importing it only for type checking is not."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from tricktaker.engine.hooks import GameHooks\n"
        "def f():\n"
        "    from tricktaker.engine.setup import parse_deal_pattern\n"
    )
    name = "tricktaker.rules.x"
    runtime = imports_of(source, name, is_package=False, runtime_only=True)
    assert "tricktaker.engine.setup" in runtime
    assert "tricktaker.engine.hooks" not in runtime
    typing_only = source.split("def f")[0]
    runtime = imports_of(typing_only, name, is_package=False, runtime_only=True)
    assert not [m for m in runtime if _layer(m) == LAYERS.index("tricktaker.engine")]


@pytest.mark.parametrize(
    "path",
    [PACKAGE / "cards.py", *modules_of("rules", "engine").values()],
    ids=module_name,
)
def test_each_layer_imports_only_the_layers_below_it(path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: the package is layered
    ``cards < rules < engine < games``. At run time (imports inside functions included,
    ``if TYPE_CHECKING:`` left out) the cards import no rules, the rules import no
    engine (a ruleset finds its hooks through ``tricktaker.rules.registry``, which the
    engine and the games fill), and the engine imports no game."""
    above = _above(path)
    assert not above, f"{module_name(path)} imports {', '.join(above)}, a layer above it"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_runs_through_a_game() -> None:
    """docs/rulesets.md, Writing a game in Python: at run time (imports inside
    functions included, ``if TYPE_CHECKING:`` left out) the games import the engine
    and the rules, never the other way round, and no cycle goes through a game.
    Importing ``a.b.c`` also runs ``a/b/__init__.py``, except for a module's own
    packages, which are always imported first."""
    modules = modules_of("engine", "rules", "games")
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        graph[name] = {
            m for m in _source_imports(path, runtime_only=True) if m in modules and m != name
        } - own
    assert graph["tricktaker.games.pluck.hooks"] >= {"tricktaker.engine.hooks"}
    through_games = [c for c in _cycles(graph) if any(m.startswith("tricktaker.games") for m in c)]
    assert not through_games, f"import cycles through the games: {through_games}"


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_engine_alone_imports_no_game_and_finds_the_shipped_ones_by_name() -> None:
    """docs/rulesets.md, Writing a game in Python: ``import tricktaker.engine`` loads
    no game; a ruleset naming ``pluck`` loads Pluck's rules only (its hooks and view,
    and what the games share in declaring themselves), through the ``tricktaker.games``
    entry points, even when the engine is used on its own: no other game, and none of
    Pluck's panel, search or encoding."""
    code = (
        "import sys\n"
        "from tricktaker.engine import new_game\n"
        "from tricktaker.rules import load_ruleset\n"
        "upper = ('tricktaker.games', 'tricktaker.bots', 'tricktaker.arena', 'tricktaker.cli')\n"
        "print(sorted(m for m in sys.modules if m.startswith(upper)))\n"
        "state = new_game(load_ruleset('pluck'), players=3, seed=1)\n"
        "print(type(state.hooks).__module__)\n"
        "print(sorted(m for m in sys.modules if m.startswith('tricktaker.games')))\n"
    )
    before, module, after = _run(code).splitlines()
    assert before == "[]"
    assert module == "tricktaker.games.pluck.hooks"
    assert after == str(
        [
            "tricktaker.games",
            "tricktaker.games.declared",
            "tricktaker.games.pluck",
            "tricktaker.games.pluck.hooks",
            "tricktaker.games.pluck.view",
        ]
    )


def test_a_ruleset_without_hooks_loads_no_engine_and_one_with_hooks_loads_its_game() -> None:
    """docs/rulesets.md, Writing a game in Python: the rules stand below the engine, so
    loading Blackout imports no module of the engine; loading Pluck imports its game
    (through the ``tricktaker.games`` entry point), which brings the engine with it,
    and its hooks are the engine's registered ones."""
    code = (
        "import sys\n"
        "from tricktaker.rules import load_ruleset\n"
        "load_ruleset('blackout')\n"
        "print(sorted(m for m in sys.modules if m.startswith('tricktaker.engine')))\n"
        "rules = load_ruleset('pluck')\n"
        "from tricktaker.engine.hooks import GameHooks, get_hooks\n"
        "print(isinstance(rules.hooks, GameHooks), get_hooks('pluck') is rules.hooks)\n"
    )
    before, after = _run(code).splitlines()
    assert before == "[]"
    assert after == "True True"


SHARED_GAME_MODULES = frozenset({"tricktaker.games", "tricktaker.games.declared"})
"""The modules under ``src/tricktaker/games/`` that are no game and that any layer may
import: the package itself (which imports none of its games) and what the shipped
games share in declaring themselves (:mod:`tricktaker.games.declared`: the registered
action kinds, by game). Every other module there belongs to one game's package."""

GAME_LOADERS: frozenset[str] = frozenset()
"""The modules outside ``src/tricktaker/games/`` that may import a game's package by
name: none. The shipped games are loaded through the ``tricktaker.games`` entry points
(``pyproject.toml``) by the name a ruleset gives (:mod:`tricktaker.rules.registry`),
and a game's capabilities through the ``"module:attribute"`` paths its hooks declare
(:func:`tricktaker.engine.hooks.capability`): neither is an import statement."""


def game_imports(source: str, name: str, *, is_package: bool = False) -> list[str]:
    """The modules of a game's package (``tricktaker.games.<game>`` and under) that a
    module's source imports anywhere, for type checking too; the shared modules
    (:data:`SHARED_GAME_MODULES`) and what they define are no game's."""
    found = imports_of(source, name, is_package=is_package, runtime_only=False)
    return sorted(
        m
        for m in found
        if m.startswith("tricktaker.games.")
        and ".".join(m.split(".")[:3]) not in SHARED_GAME_MODULES
    )


def test_the_game_import_checker_sees_a_generic_module_importing_a_game() -> None:
    """The checker itself: a generic module reaching into a game's package, at the top
    or inside a function, relatively, by ``importlib`` or for type checking, is caught;
    the games' shared declaration helpers are not a game."""
    sources = (
        "from tricktaker.games.ohhell.calls import CALL_SIZE\n",
        "def f():\n    from ..games.pluck import hooks\n",
        "import importlib\nimportlib.import_module('tricktaker.games.euchre.view')\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import tricktaker.games.buckup\n",
        "from tricktaker.games import ohhell\n",
    )
    for source in sources:
        assert game_imports(source, "tricktaker.cli.human"), source
    shared = "from tricktaker.games.declared import action_kinds_of\nimport tricktaker.games\n"
    assert not game_imports(shared, "tricktaker.server.x")


@pytest.mark.parametrize(
    "path",
    sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts),
    ids=module_name,
)
def test_no_module_outside_the_games_imports_a_game(path: Path) -> None:
    """docs/rulesets.md, Writing a game in Python: a layer above the engine asks a game's
    declared capabilities (:attr:`GameHooks.capabilities`), so no module outside
    ``src/tricktaker/games/`` imports a game's package, not even inside a function or
    for type checking (except the loaders listed in :data:`GAME_LOADERS`: none)."""
    name = module_name(path)
    if name in GAME_LOADERS:
        return
    found = game_imports(
        path.read_text(encoding="utf-8"), name, is_package=path.name == "__init__.py"
    )
    assert not found, f"{name} imports {', '.join(found)}; ask the game's capabilities instead"
