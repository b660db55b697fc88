"""Progress reporting that lower layers can call without knowing who listens (and without importing rich).

The protocol is one callable, ``progress(label, done, total)``: ``label`` names a phase ("parts", "Monte
Carlo", "GIF frames"), ``done`` how much of it is finished, ``total`` its size (None when unknown). A phase
ends when ``done >= total``; a phase without a size ends with :func:`finish` (``total=0``). The default is
:func:`no_progress`.

Functions that can take more than a second take an optional ``progress`` argument; when it is None they
report to the *current* callback (:func:`current`), which the command line sets for the duration of a
command with :func:`use`. So a layer in between (a battle helper calling Monte Carlo) needs no new
argument for the player to see a bar.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Optional, Protocol, TypeVar

T = TypeVar("T")


class ProgressCallback(Protocol):
    def __call__(self, label: str, done: float, total: Optional[float] = None) -> None: ...


def no_progress(label: str, done: float, total: Optional[float] = None) -> None:
    """The default listener: does nothing."""


_CURRENT: ContextVar[ProgressCallback] = ContextVar("brikscan_progress", default=no_progress)


def current(progress: Optional[ProgressCallback] = None) -> ProgressCallback:
    """``progress`` itself when given, else the callback set by :func:`use` (no-op by default)."""
    return progress if progress is not None else _CURRENT.get()


@contextmanager
def use(progress: ProgressCallback) -> Iterator[ProgressCallback]:
    """Make ``progress`` the current callback inside the ``with`` block."""
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)


def finish(progress: ProgressCallback, label: str) -> None:
    """End a phase reported without a size."""
    progress(label, 0, 0)


@contextmanager
def phase(label: str, progress: Optional[ProgressCallback] = None) -> Iterator[None]:
    """A phase with no natural count (one render, one analysis step): shown as a spinner while it runs."""
    cb = current(progress)
    cb(label, 0, None)
    try:
        yield
    finally:
        finish(cb, label)


def steps(items: Iterable[T], label: str, total: Optional[int] = None,
          progress: Optional[ProgressCallback] = None, every: int = 1) -> Iterator[T]:
    """Iterate over ``items`` reporting ``label`` every ``every`` items (and at the end)."""
    cb = current(progress)
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    cb(label, 0, total)
    k = 0
    for k, item in enumerate(items, 1):
        yield item
        if k % every == 0:
            cb(label, k, total)
    end = k if total is None else max(total, k)
    cb(label, end, end)  # the phase ends, even when the loop stopped early
