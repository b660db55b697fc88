"""Run one pure function in a forked child on the other core while this process goes on (Linux only).

Why: a fresh ``brikscan`` process spends a second importing scipy and trimesh and a second finding the
connections; the two do not depend on each other, and a player's machine has more than one core. The child is a
``fork`` of this process (it shares the loaded model without copying or pickling it), runs ``fn``, sends back the
pickled result through a pipe and exits. Anything unusual (no fork on this platform, another thread running, the
child failing or dying, ``BRIKSCAN_NO_FORK=1``) makes ``result()`` run ``fn`` here instead: the answer never
depends on the child, only the time does.

``fn`` must be pure: it may read the objects it is given and files it opens itself, never write shared state or
read through a file this process has open (the child shares the file offset).
"""
from __future__ import annotations

import os
import pickle
import select
import sys
import threading
from typing import Any, Callable

CHILD_TIMEOUT_S = 120.0  # a child silent this long is killed and the work done here (a 20,000-element graph: ~3 s)


def fork_allowed(idle_pools: tuple[str, ...] = ()) -> bool:
    """Only on Linux, from the main thread, unless switched off; every other Python thread must belong to one of
    the caller's ``idle_pools`` (thread name prefixes of worker pools with no work in flight: the child never
    touches them)."""
    if not (sys.platform.startswith("linux") and hasattr(os, "fork") and os.environ.get("BRIKSCAN_NO_FORK") != "1"
            and threading.current_thread() is threading.main_thread()):
        return False
    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    return all(idle_pools and t.name.startswith(idle_pools) for t in others)


class Forked:
    """``fn(*args)`` started in a child now; ``result()`` waits for it (or computes it here)."""

    def __init__(self, fn: Callable[..., Any], *args: Any, idle_pools: tuple[str, ...] = ()) -> None:
        self.fn, self.args = fn, args
        self.pid = 0
        self.fd = -1
        if not fork_allowed(idle_pools):
            return
        r, w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return
        if pid == 0:  # the child: compute, send, exit without running the parent's cleanup
            os.close(r)
            code = 0
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                import warnings

                warnings.simplefilter("ignore")
                from .progress import no_progress, use

                with use(no_progress):  # the parent draws the progress bar; the child's stderr is closed anyway
                    data = pickle.dumps(("ok", fn(*args)), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - the parent computes it again and reports what it reports
                data, code = pickle.dumps(("failed", None)), 1
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(w, view):]
            finally:
                os._exit(code)
        os.close(w)
        self.pid, self.fd = pid, r

    def cancel(self) -> None:
        """Stop the child (the caller gave up before asking for the result)."""
        if self.pid:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            os.close(self.fd)
            self.pid = 0

    def result(self) -> Any:
        """The child's answer, or ``fn(*args)`` computed here when there is no good answer from a child."""
        if not self.pid:
            return self.fn(*self.args)
        pid, self.pid = self.pid, 0
        chunks = []
        ok = True
        try:
            while True:
                ready, _, _ = select.select([self.fd], [], [], CHILD_TIMEOUT_S)
                if not ready:
                    ok = False
                    os.kill(pid, 9)
                    break
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.fd)
            _, status = os.waitpid(pid, 0)
        if ok and os.waitstatus_to_exitcode(status) == 0:
            try:
                tag, value = pickle.loads(b"".join(chunks))
                if tag == "ok":
                    return value
            except Exception:  # noqa: BLE001 - a truncated or foreign answer: compute it here
                pass
        return self.fn(*self.args)
