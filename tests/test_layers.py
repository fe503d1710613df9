"""The house's layers (issue 21): no import circle among Scorer's modules
(tools/circles.py counts an import deferred inside a function too), and the
layers only look down: cards → games → engine → the fold → the store → the web."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "circles.py"
spec = importlib.util.spec_from_file_location("circles", TOOL)
circles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(circles)

KNOWN = circles.modules()
GRAPH = {name: circles.imports(name, path, KNOWN) for name, path in KNOWN.items()}

# each layer, and the layers above it that it may not import
BELOW = {
    "scorer.i18n": ("scorer.games", "scorer.engine", "scorer.match", "scorer.store", "scorer.web"),
    "scorer.cards": ("scorer.games", "scorer.engine", "scorer.match", "scorer.store", "scorer.web"),
    "scorer.games": ("scorer.engine", "scorer.match", "scorer.store", "scorer.web"),
    "scorer.engine": ("scorer.match", "scorer.autoplay", "scorer.store", "scorer.web"),
    "scorer.match": ("scorer.autoplay", "scorer.store", "scorer.web"),
    "scorer.store": ("scorer.web",),
}


def test_no_module_imports_in_a_circle():
    assert circles.circles(GRAPH) == []


def test_a_circle_is_found_when_there_is_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles.circles(graph) == [["a", "b", "c"]]


def test_each_layer_imports_only_the_layers_below():
    for layer, above in BELOW.items():
        for name, imported in GRAPH.items():
            if name != layer and not name.startswith(layer + "."):
                continue
            for target in imported:
                assert not target.startswith(above), f"{name} imports {target}"


def test_no_module_imports_another_s_private_names():
    """A module's ``_name`` is its own (issue 36): what another module needs is
    public, or stays inside; a library's likewise (flask_compress's
    ``_compress_data`` was imported once). Read from the source of every module
    of Scorer, its benches, tools and tests: every ``from … import``, and every
    ``import a._b``."""
    import ast  # noqa: PLC0415

    root = TOOL.parent.parent
    paths = [
        *KNOWN.values(),
        *(p for d in ("bench", "tools", "tests") for p in (root / d).rglob("*.py")),
    ]
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                dotted = [node.module or ""]
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                dotted, names = [a.name for a in node.names], []
            else:
                continue
            private = [n for n in names if re.match(r"_[a-z]", n)]  # not gettext's _
            private += [d for d in dotted if re.search(r"(^|\.)_[a-z]", d)]
            if private:
                found.append(f"{Path(path).relative_to(root)}: {private}")
    assert found == []


def test_the_games_and_the_fold_load_no_flask():
    """Words below the web (issue 36): the games, the engine and the fold use the
    words of scorer/i18n.py, which knows no Flask; the language switch and
    Flask-Babel are the web layer's (scorer/web/language.py)."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    code = (
        "import sys; import scorer.games, scorer.engine.table, scorer.match, scorer.autoplay; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('flask', 'flask_babel', 'flask_wtf', 'werkzeug')))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=TOOL.parent.parent
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"
