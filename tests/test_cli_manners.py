"""CLI manners (issue 9): bare help, --version, -h everywhere, --quiet / --verbose, and the progress bar only
for a person watching (stderr a terminal, no --quiet, no --json)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from conftest import ROOT

TANK = ROOT / "ldraw_models" / "tank.mpd"
BAR = "reading parts"  # the first phase of every load


def _run(*args, env=None, tty=False, timeout=300):
    """(returncode, stdout, stderr) of ``python -m brikscan ARGS``; with ``tty`` stderr is a pseudo-terminal."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    full_env.pop("BRIKSCAN_NO_PROGRESS", None)
    cmd = [sys.executable, "-m", "brikscan", *map(str, args)]
    if not tty:
        r = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout, cwd=ROOT)
        return r.returncode, r.stdout, r.stderr
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=full_env, cwd=ROOT)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    out = p.stdout.read().decode()
    p.wait(timeout=timeout)
    os.close(master)
    return p.returncode, out, b"".join(chunks).decode(errors="replace")


def test_bare_brikscan_prints_help_and_succeeds():
    rc, out, err = _run()
    assert rc == 0
    assert "Usage" in out and "stats" in out
    assert "error" not in err


def test_version():
    from brikscan import __version__

    rc, out, _ = _run("--version")
    assert rc == 0 and out.strip() == f"brikscan {__version__}"


def test_short_help_on_every_command():
    from brikscan.cli import app

    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert {"info", "stats", "blast", "hit", "los"} <= set(names)
    for args in [["-h"], ["library", "-h"], ["library", "fetch", "-h"]] + [[n, "-h"] for n in names]:
        rc, out, _ = _run(*args)
        assert rc == 0 and "Usage" in out, args


def test_quiet_hides_warnings_and_verbose_adds_timings(tmp_path):
    model = tmp_path / "missing.ldr"
    model.write_text("0 a brick and a part nobody has\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n"
                     "1 4 0 -24 0 1 0 0 0 1 0 0 0 1 no-such-part.dat\n")
    rc, _, err = _run("info", model)
    assert rc == 0 and "warning" in err and "no-such-part" in err
    rc, _, err = _run("--quiet", "info", model)
    assert rc == 0 and err == ""
    rc, _, err = _run("--verbose", "info", model)
    assert rc == 0 and "reading parts:" in err and "done in" in err and "elements" in err


def test_progress_bar_only_on_a_terminal():
    rc, out, err = _run("info", TANK, tty=True)
    assert rc == 0 and BAR in err and "━" in err
    assert "elements" in out
    rc, _, err = _run("info", TANK)  # stderr piped
    assert rc == 0 and BAR not in err
    for args in (["--quiet", "info", TANK], ["info", TANK, "--json"]):
        rc, out, err = _run(*args, tty=True)
        assert rc == 0 and BAR not in err, args


def test_the_bar_runs_no_thread_so_large_work_still_forks():
    """rich's own refresh thread would stop every forked child (forked.fork_allowed): the bar is redrawn on reports."""
    from brikscan.cli.output import RichProgress
    from brikscan.forked import fork_allowed

    cb = RichProgress(True, False)
    try:
        cb("parts", 0, 10)
        assert cb._progress is not None  # the display is up ...
        assert threading.active_count() == 1 and fork_allowed()  # ... and nothing else runs beside it
        cb("parts", 5, 10)
    finally:
        cb("parts", 10, 10)
        cb.close()


def test_progress_callbacks_are_optional_and_ordered():
    from brikscan import progress

    seen = []
    with progress.use(lambda label, done, total=None: seen.append((label, done, total))):
        assert list(progress.steps([1, 2, 3], "x")) == [1, 2, 3]
        with progress.phase("y"):
            pass
    assert seen[0] == ("x", 0, 3) and seen[-1] == ("y", 0, 0)
    assert ("x", 3, 3) in seen
    assert list(progress.steps(range(2), "z")) == [0, 1]  # no listener: the no-op


@pytest.mark.parametrize("layer", ["ldraw", "geometry", "analysis", "battle", "render"])
def test_lower_layers_never_import_rich(layer):
    for f in sorted((ROOT / "brikscan" / layer).glob("*.py")):
        text = f.read_text()
        assert "import rich" not in text and "from rich" not in text, f
