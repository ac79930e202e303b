"""The import arrows of docs/architecture.md, read from the source with ``ast``.

The packages form layers, each importing only from the layers below it:

    simulator  <-  core  <-  cards  <-  league  <-  challenge  <-  table  <-  config

(the engine knows nothing of Django; ``core`` holds the accounts and the API base both
apps share). No module imports itself round a cycle, and imports sit at the top of
their module, where a reader finds them: the only ones inside functions are Django's
``AppConfig.ready`` (models load after the app registry), and the engine's command line
and ``play_game`` loading NumPy only when odds are asked for or an exact coach is solved.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LAYERS = ["simulator", "core", "cards", "league", "challenge", "table", "config"]
# Imports allowed inside a function: (file, imported module) -> why.
LOCAL_IMPORTS_ALLOWED = {
    ("core/apps.py", "core.roles"): "models load once the app registry is ready",
    ("league/apps.py", "league"): "loading the tasks connects the sender of queued games",
    ("challenge/apps.py", "challenge"): "loading the receivers connects the live scoring",
    ("simulator/cli.py", "simulator.vabg.coachodds"): "NumPy loads only when odds are asked for",
    ("simulator/vabg/engine.py", "simulator.vabg"): "coachodds (NumPy) loads only to solve a coach",
}


def modules() -> Iterator[tuple[str, Path]]:
    """Yield (dotted module name, path) of every first-party module, migrations aside."""
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


MODULES = dict(modules())


def imported(node: ast.Import | ast.ImportFrom, module: str, path: Path) -> list[str]:
    """Return the first-party modules an import statement reaches (submodules resolved)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the module's own package
            package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                 for alias in node.names]  # fmt: skip
    found = []
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name:
            found.append(name)
    return found


def imports(module: str, path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Yield each import statement of a module and whether it sits inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(
        node: ast.AST, in_function: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, in_function
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            yield from walk(child, inside)

    yield from walk(tree, False)


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[0])


def test_every_first_party_package_has_a_layer() -> None:
    top = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()} - {"tests", "bench"}
    assert top <= set(LAYERS), f"give {sorted(top - set(LAYERS))} a layer in LAYERS"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module: str) -> None:
    path = MODULES[module]
    wrong = []
    for node, _ in imports(module, path):
        if module.startswith("simulator") and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "").startswith("django")
            for alias in node.names
        ):
            wrong.append(f"line {node.lineno}: the engine imports Django")
        for target in imported(node, module, path):
            if layer(target) > layer(module):
                wrong.append(f"line {node.lineno}: {module} imports {target}, a layer above")
    assert not wrong, "\n".join(wrong)


GAME_PACKAGES = ("simulator.gridcourt", "simulator.sixdice")
ALL_GAME_PACKAGES = ("simulator.vabg", *GAME_PACKAGES)


def test_the_league_reaches_the_other_games_only_through_the_game_interface() -> None:
    # The league stores and shows grid-court and six-dice games through simulator.games
    # (find_game, columns, box scores, board, replay frames).
    wrong = [
        f"{module} line {node.lineno}: imports {target}"
        for module, path in MODULES.items()
        if module.startswith(("league", "cards"))
        for node, _ in imports(module, path)
        for target in imported(node, module, path)
        if target.startswith(GAME_PACKAGES)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_table_reaches_every_game_only_through_the_game_interface() -> None:
    # The table plays any game through Game.sheet and the Sheet protocol (simulator.sheets):
    # each game's sheet lives in its own package.
    wrong = [
        f"{module} line {node.lineno}: imports {target}"
        for module, path in MODULES.items()
        if module.startswith("table")
        for node, _ in imports(module, path)
        for target in imported(node, module, path)
        if target.startswith(ALL_GAME_PACKAGES)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_sit_at_the_top_of_the_module(module: str) -> None:
    path = MODULES[module]
    rel = path.relative_to(ROOT).as_posix()
    local = []
    for node, in_function in imports(module, path):
        if not in_function:
            continue
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
        if any((rel, name) in LOCAL_IMPORTS_ALLOWED for name in names):
            continue
        local.append(
            f"{rel} line {node.lineno}: import inside a function ({', '.join(map(str, names))})"
        )
    assert not local, "\n".join(local)


def test_no_module_imports_itself_round_a_cycle() -> None:
    graph = {
        module: {
            target
            for node, in_function in imports(module, path)
            if not in_function
            for target in imported(node, module, path)
            if target != module and not module.startswith(f"{target}.")
        }
        for module, path in MODULES.items()
    }
    # A package's __init__ importing its own submodules is how a package exports names,
    # not a cycle; an edge from a submodule back up to its package is ignored above.
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*stack[stack.index(target) :], target]))
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_checks_catch_a_wrong_arrow_and_a_cycle(tmp_path: Path) -> None:
    """The checks above fail on code that breaks them (so a green run means something)."""
    source = "def f():\n    from league import services\n"
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert imported(node, "cards.admin", ROOT / "cards" / "admin.py") == ["league.services"]
    assert layer("league.services") > layer("cards.admin")
    path = tmp_path / "m.py"
    path.write_text(source)
    assert [in_function for _, in_function in imports("cards.m", path)] == [True]


API_MODULES = sorted(
    m for m in MODULES if m.endswith(".api") or ".api." in m or m.startswith("league.api")
)


@pytest.mark.parametrize("module", API_MODULES)
def test_api_views_leave_every_refusal_to_the_one_handler(module: str) -> None:
    # Guide 11.7: an action validates, calls one service and serialises; the services'
    # refusals (core.errors.Refused) are answered once, by core.api.exception_handler. Only
    # a serializer's own validate() turns a model's errors into its field errors.
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("validate"):
            continue
        found += [
            f"{module}.{node.name} line {t.lineno}: try/except"
            for t in ast.walk(node)
            if isinstance(t, ast.Try)
        ]
    if module == "core.api":  # the handler's own helpers read what a client sent
        found = [f for f in found if ".content_length " not in f]
    assert not found, "\n".join(found)
