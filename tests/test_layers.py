"""Layers import only downwards: ldraw -> geometry -> rules/analysis -> battle -> render -> web -> cli."""
from __future__ import annotations

import ast

import pytest

from conftest import ROOT

ORDER = ["ldraw", "geometry", "rules", "analysis", "battle", "render", "web", "cli"]
# rules is a leaf of pure tables and formulas: it must not lean on geometry either
FORBIDDEN = {layer: set(ORDER[i + 1:]) for i, layer in enumerate(ORDER)}
FORBIDDEN["rules"] |= {"geometry", "ldraw"}


def _imports(path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 2 or mod.startswith("brikscan."):
                name = mod.split(".")[1] if mod.startswith("brikscan.") else mod.split(".")[0]
                found.add(name)
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("brikscan.")}
    return found


@pytest.mark.parametrize("layer", ORDER)
def test_layer_imports_only_downwards(layer):
    files = sorted((ROOT / "brikscan" / layer).glob("*.py"))
    assert files
    for f in files:
        upward = _imports(f) & FORBIDDEN[layer]
        assert not upward, f"{f.relative_to(ROOT)} imports {sorted(upward)}"
