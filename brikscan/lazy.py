"""A module imported on first use: ``nx = lazy("networkx")`` at the top of a module costs nothing until a function
touches ``nx.something``. Lets a command that only reads a cached analysis skip the analysis's heavy imports."""
from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """Stands for module ``name``; the first attribute read imports it (later reads go to the module itself)."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str):
        mod = self._module
        if mod is None:
            mod = self._module = importlib.import_module(self._name)
        return getattr(mod, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{' (imported)' if self._module is not None else ''}>"


def lazy(name: str) -> LazyModule:
    """The module ``name`` imported when first used."""
    return LazyModule(name)
