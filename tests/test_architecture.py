"""The packages import one another in layers, without a circle.

domain (the rules) is at the bottom, record (stored events) right above it; ai and
replays read games through record and never through the service; the service, on top,
may use them all. Every import counts, also one inside a function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "record", "service", "replays", "ai", "bench", "deploy")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    return {_module(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imported(path: Path, module: str) -> set[str]:
    """The modules of ours `path` imports, relative imports resolved from `module`."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from X import Y` names module X.Y when Y is one, else a name inside X
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
    return {name for name in found if name.split(".")[0] in PACKAGES}


def _module_graph() -> dict[str, set[str]]:
    sources = _sources()
    known = set(sources)
    graph = {}
    for module, path in sources.items():
        targets = set()
        for name in _imported(path, module):
            # the longest known module the name denotes (X.Y.name -> X.Y)
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def package_of(module: str, sources: dict[str, Path]) -> str:
    """The package holding `module`: itself for a package's __init__, else its parent."""
    return module if sources[module].name == "__init__.py" else module.rpartition(".")[0]


def _within(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer + ".")


def package_graph() -> dict[str, set[str]]:
    """Package -> the packages its modules import, leaving out a package's own ancestors and
    descendants: a sub-package is part of its parent, so that is no edge between two."""
    sources = _sources()
    graph: dict[str, set[str]] = {}
    for module, targets in _module_graph().items():
        source = package_of(module, sources)
        edges = graph.setdefault(source, set())
        for target in targets:
            into = package_of(target, sources)
            if not (_within(into, source) or _within(source, into)):
                edges.add(into)
    return graph


def top_level_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {package: set() for package in PACKAGES}
    for module, targets in _module_graph().items():
        graph[module.split(".")[0]] |= {t.split(".")[0] for t in targets} - {module.split(".")[0]}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _users(graph: dict[str, set[str]], package: str, forbidden: Iterable[str]) -> dict[str, set[str]]:
    """The modules of `package` that import a module of a `forbidden` package, and which."""
    bad = tuple(forbidden)
    return {
        module: {t for t in targets if t.split(".")[0] in bad}
        for module, targets in graph.items()
        if module.split(".")[0] == package and any(t.split(".")[0] in bad for t in targets)
    }


def test_the_circle_finder_finds_a_circle_between_packages() -> None:
    assert circles({"replays": {"service"}, "service": {"replays", "domain"}, "domain": set()}) == [
        ["replays", "service"]
    ]


def test_relative_imports_resolve_to_our_modules(tmp_path: Path) -> None:
    source = tmp_path / "__init__.py"
    source.write_text("from . import engine\nfrom ..decider import Event\n", encoding="utf-8")
    assert _imported(source, "domain.islands") >= {"domain.islands.engine", "domain.decider.Event"}


def test_no_circle_between_the_top_level_packages() -> None:
    assert circles(top_level_graph()) == []


def test_no_circle_between_sub_packages() -> None:
    assert circles(package_graph()) == []


def test_domain_imports_nothing_of_ours_but_domain() -> None:
    others = [p for p in PACKAGES if p != "domain"]
    assert _users(_module_graph(), "domain", others) == {}


def test_record_imports_only_the_rules() -> None:
    others = [p for p in PACKAGES if p not in ("domain", "record")]
    assert _users(_module_graph(), "record", others) == {}


def test_computer_players_and_replays_do_not_import_the_service() -> None:
    graph = _module_graph()
    assert _users(graph, "ai", ["service", "bench", "deploy"]) == {}
    assert _users(graph, "replays", ["service", "bench", "deploy"]) == {}


def test_no_import_circle_among_the_modules_of_service() -> None:
    """Inside service/ too, modules import one another one way only."""
    graph = _module_graph()
    service = {
        module: {t for t in targets if t.split(".")[0] == "service"}
        for module, targets in graph.items()
        if module.split(".")[0] == "service"
    }
    assert circles(service) == []


def test_no_import_circle_among_any_modules() -> None:
    """No module reaches itself through imports, late ones inside functions included: a game
    module, the undo policy, a notation's grammars and the benches each import one way."""
    assert circles(_module_graph()) == []


def families() -> list[str]:
    """Every game family: a package of domain/ whose module.py declares a GameModule, found here
    so that a new family is covered without a list to edit (pyproject.toml's contracts name the
    families of their day)."""
    declared = [p for p in (ROOT / "domain").glob("*/module.py") if "GameModule(" in p.read_text()]
    return sorted(f"domain.{p.parent.name}" for p in declared)


def _reached(graph: dict[str, set[str]], start: Iterable[str], through: Iterable[str] = ()) -> set[str]:
    """Every module reachable from `start` by imports, not going on from a module of `through`."""
    stops = tuple(through)
    seen, todo = set(), list(start)
    while todo:
        module = todo.pop()
        for target in graph.get(module, ()):
            if target not in seen and not any(_within(target, stop) for stop in stops):
                seen.add(target)
                todo.append(target)
    return seen


def test_every_game_family_is_found_and_reaches_no_other_but_through_the_registry() -> None:
    graph, found = _module_graph(), families()
    assert {"domain.islands", "domain.nanuuk", "domain.paradise"} <= set(found)
    for family in found:
        own = [m for m in graph if _within(m, family)]
        others = {
            m
            for m in _reached(graph, own, through=["domain.games"])
            for f in found
            if f != family and _within(m, f)
        }
        assert others == set(), f"{family} reaches {sorted(others)}"


def test_tournaments_import_no_game_family() -> None:
    graph, found = _module_graph(), families()
    direct = {
        (module, target)
        for module, targets in graph.items()
        if _within(module, "domain.tournament")
        for target in targets
        if any(_within(target, family) for family in found)
    }
    assert direct == set()


LONGEST_FUNCTION = 60
"""Lines a function may span, from its `def` to its last line (P18: rooms none too big)."""
SIZED = ("domain", "record", "service", "replays", "ai")


def _long_functions(source: str, label: str, limit: int = LONGEST_FUNCTION) -> list[str]:
    """`label:line name (lines)` of each function over `limit` lines; a nested function is
    measured apart (and its lines count in the function around it too)."""
    return [
        f"{label}:{node.lineno} {node.name} ({size})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (size := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    ]


def test_the_measure_names_each_long_function_a_nested_one_apart() -> None:
    body = "".join(f"        x{n} = {n}\n" for n in range(61))
    source = f"def outer():\n    async def inner():\n{body}    return inner\n"
    assert _long_functions(source, "m.py") == ["m.py:1 outer (64)", "m.py:2 inner (62)"]
    assert _long_functions(source, "m.py", limit=62) == ["m.py:1 outer (64)"]
    assert _long_functions(source, "m.py", limit=64) == []


def test_no_function_is_over_60_lines() -> None:
    long = [
        found
        for package in SIZED
        for path in sorted((ROOT / package).rglob("*.py"))
        for found in _long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert long == [], "split by what its parts do: " + ", ".join(long)
