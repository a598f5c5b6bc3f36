"""The house rules of the code: the layering of the design, no import cycle, small modules.

The import graph is read from the sources with `ast` (every ``import``, also one inside a
function), so an arrow hidden in a function body counts as much as one at the top. An import
under ``if TYPE_CHECKING:`` counts for the layering but not for cycles: it never runs, it
names a type for the checker (the engine's game strategies name the `Table` they are given).
The layering of the design: ``bot → storage → engine`` and ``bot → engine``; the engine
imports nothing of the project but itself, the storage at most the engine, and nothing
imports the bot.

Sizes: no module over `MAX_MODULE_LINES` lines and no class over `MAX_CLASS_LINES` in
``bot/`` and ``storage/`` (``engine/ai`` follows with the work on the computer players).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "storage", "bot")
ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset({"engine"}),
    "storage": frozenset({"storage", "engine"}),
    "bot": frozenset({"bot", "storage", "engine"}),
}
"""Which top-level packages of the project a package's modules may import."""
MAX_MODULE_LINES = 400
MAX_CLASS_LINES = 250
SIZED = ("bot", "storage")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _typing_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:``."""
    guarded: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in {
            "TYPE_CHECKING", "typing.TYPE_CHECKING"
        }:
            guarded.update(n for s in node.body for n in ast.walk(s))
    return guarded


def _imported(
    name: str, tree: ast.Module, *, typing: bool = True
) -> Iterator[tuple[int, str]]:
    """(line, module) for every import of a project module in ``tree`` (without those under
    ``TYPE_CHECKING`` unless ``typing``)."""
    skipped = set() if typing else _typing_only(tree)
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name if _is_package(name) else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = ".".join(p for p in (package, node.module or "") if p)
            else:
                base = node.module or ""
            for alias in node.names:
                # ``from storage import results`` imports the module storage.results.
                sub = f"{base}.{alias.name}"
                yield node.lineno, sub if sub in MODULES else base


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = {
            target
            for _, target in _imported(name, tree, typing=False)
            if target.split(".")[0] in PACKAGES and target in MODULES and target != name
        }
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

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
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_sources_are_found() -> None:
    assert {"engine", "engine.rules", "storage", "storage.database", "bot", "bot.app"} <= set(
        MODULES
    )


def test_arrows_point_down_the_layering() -> None:
    wrong = []
    for name, path in MODULES.items():
        layer = name.split(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, target in _imported(name, tree):
            top = target.split(".")[0]
            if top in PACKAGES and top not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert wrong == []


def test_no_import_cycle() -> None:
    assert [sorted(c) for c in _cycles(_graph())] == []


def test_the_cycle_finder_finds_a_hidden_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [frozenset({"a", "b", "c"})]


def _sizes(path: Path) -> Iterator[str]:
    """What in the module is over the limits."""
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        yield f"{lines} lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_CLASS_LINES:
                yield f"class {node.name}: {length} lines"


@pytest.mark.parametrize("package", SIZED)
def test_modules_and_classes_are_small(package: str) -> None:
    over = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        problems = list(_sizes(path))
        if problems:
            over[name] = problems
    assert over == {}
