"""Import circles among Scorer's modules (issue 21): prints each circle of
imports, and exits 1 if there is one. An import deferred inside a function
counts as well (deferring one hides a circle, it does not cut it); ``from
package import module`` counts as importing the module alone.

    .venv/bin/python tools/circles.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "scorer"


def modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of Scorer that ``name`` imports, wherever in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            target = (
                ".".join(base + [node.module] if node.module else base)
                if node.level
                else node.module
            )
            # ``from package import module`` imports the module; any other name
            # comes from the package itself
            for alias in node.names:
                module = f"{target}.{alias.name}"
                candidate = module if module in known else target
                if candidate in known and candidate != name:
                    found.add(candidate)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = circles(graph)
    for group in found:
        print("circle:", " → ".join(group))
    print(f"{len(known)} modules, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
