"""What the player sees besides the answer: --quiet / --verbose, warnings, the progress bar, table width.

The global options set :data:`OPTIONS` once per command (in the app callback). The progress bar is rich, on
stderr, and only when stderr is a terminal and neither --quiet nor --json was given; lower layers report
through :mod:`brikscan.progress` and never import rich.
"""
from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from typing import Iterator, Optional

OPTIONS = {"quiet": False, "verbose": False, "json": False}
_T0 = time.perf_counter()


def reset_clock() -> None:
    global _T0
    _T0 = time.perf_counter()


def configure(quiet: bool = False, verbose: bool = False, json_out: bool = False) -> None:
    OPTIONS.update(quiet=bool(quiet), verbose=bool(verbose) and not quiet, json=bool(json_out))


def warn(message: str) -> None:
    """A warning on stderr (none with --quiet)."""
    if not OPTIONS["quiet"]:
        print(f"brikscan: warning: {message}", file=sys.stderr)


def detail(message: str) -> None:
    """Extra detail on stderr with --verbose only."""
    if OPTIONS["verbose"]:
        print(f"brikscan: {message}", file=sys.stderr)


def console(**kwargs):
    """A rich console for stdout tables: rich measures the terminal (and reads $COLUMNS when piped)."""
    from rich.console import Console

    return Console(**kwargs)


def show_bar() -> bool:
    """A progress bar only for a person watching: stderr a terminal, no --quiet, no --json."""
    if OPTIONS["quiet"] or OPTIONS["json"] or os.environ.get("BRIKSCAN_NO_PROGRESS"):
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class RichProgress:
    """A :class:`brikscan.progress.ProgressCallback` drawing one rich bar per phase on stderr.

    With --verbose each finished phase also prints its duration. The rich display starts on the first report
    and is transient: it disappears when the command ends. It is redrawn on reports (at most ``REDRAW_S`` apart),
    not by rich's refresh thread: with no other thread running, a large model's work can still be shared with a
    forked child on the other core (``brikscan.forked``), as it is without a bar.
    """

    REDRAW_S = 0.1

    def __init__(self, bar: bool, verbose: bool):
        self.bar = bar
        self.verbose = verbose
        self._started: dict[str, float] = {}
        self._tasks: dict[str, int] = {}
        self._progress = None
        self._drawn = 0.0

    def _ensure(self):
        if self._progress is None:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                                       TimeElapsedColumn)

            self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TimeElapsedColumn(),
                                      console=Console(stderr=True), transient=True, auto_refresh=False)
            self._progress.start()
        return self._progress

    def __call__(self, label: str, done: float, total: Optional[float] = None) -> None:
        now = time.perf_counter()
        self._started.setdefault(label, now)
        ending = total is not None and done >= total
        if self.bar:
            p = self._ensure()
            tid = self._tasks.get(label)
            if tid is None and not ending:
                self._tasks[label] = p.add_task(label, total=total, completed=done)
            elif tid is not None:
                if ending:
                    p.remove_task(tid)
                    del self._tasks[label]
                    if not self._tasks:  # nothing running: clear the display until the next phase
                        self.close()
                else:
                    p.update(tid, completed=done, total=total)
            if self._progress is not None and (tid is None or now - self._drawn >= self.REDRAW_S):
                self._progress.refresh()
                self._drawn = now
        if ending:
            t = now - self._started.pop(label)
            if self.verbose:
                print(f"brikscan: {label}: {t:.2f} s", file=sys.stderr)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


@contextmanager
def progress_scope() -> Iterator[RichProgress]:
    """The current progress callback for one command; the total time with --verbose at the end."""
    from .. import progress

    cb = RichProgress(show_bar(), OPTIONS["verbose"])
    try:
        with progress.use(cb):
            yield cb
    finally:
        cb.close()
        detail(f"done in {time.perf_counter() - _T0:.2f} s")
