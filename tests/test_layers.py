"""The house's layers (issue 21): no import circle among Scorer's modules
(tools/circles.py counts an import deferred inside a function too), and the
layers only look down: cards → games → engine → the fold → the store → the web."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "circles.py"
spec = importlib.util.spec_from_file_location("circles", TOOL)
circles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(circles)

KNOWN = circles.modules()
GRAPH = {name: circles.imports(name, path, KNOWN) for name, path in KNOWN.items()}

# each layer, and the layers above it that it may not import
BELOW = {
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
