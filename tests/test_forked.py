"""The forked child (brikscan/forked.py): its answer is the function's answer, and anything unusual falls back to
computing it in this process, so the result never depends on the child."""
from __future__ import annotations

import os
import threading

import pytest

from brikscan import forked
from brikscan.forked import Forked

needs_fork = pytest.mark.skipif(not forked.fork_allowed(), reason="fork is used on Linux only")


def _square_and_pid(x):
    return x * x, os.getpid()


@needs_fork
def test_answer_comes_from_a_child():
    job = Forked(_square_and_pid, 7)
    assert job.pid  # a child was started
    value, pid = job.result()
    assert value == 49 and pid != os.getpid()


def _fails_in_child(parent):
    if os.getpid() != parent:
        raise RuntimeError("only in the child")
    return "computed here"


def _dies_in_child(parent):
    if os.getpid() != parent:
        os._exit(3)
    return "computed here"


def _garbles_in_child(parent):
    if os.getpid() != parent:
        return lambda: None  # cannot be pickled: the child sends a failure
    return "computed here"


@needs_fork
@pytest.mark.parametrize("fn", [_fails_in_child, _dies_in_child, _garbles_in_child])
def test_a_failing_child_means_the_work_is_done_here(fn):
    assert Forked(fn, os.getpid()).result() == "computed here"


def test_an_error_of_the_function_itself_is_raised_here():
    with pytest.raises(ZeroDivisionError):
        Forked(lambda: 1 / 0).result()


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("BRIKSCAN_NO_FORK", "1")
    job = Forked(_square_and_pid, 3)
    assert job.pid == 0 and job.result() == (9, os.getpid())


@needs_fork
def test_no_fork_while_another_thread_runs():
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        job = Forked(_square_and_pid, 2)
        assert job.pid == 0 and job.result() == (4, os.getpid())
    finally:
        stop.set()
        t.join()


@needs_fork
def test_cancel_stops_the_child():
    import time

    job = Forked(time.sleep, 30)
    pid = job.pid
    job.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no such child any more


@needs_fork
def test_graph_from_the_child_equals_the_graph_built_here(loaded):
    """The connections of the bundled tank through a child and here: the same edges with the same attributes."""
    from brikscan.analysis.connectivity import build_graph
    from conftest import EXAMPLES

    tank_model = loaded(EXAMPLES / "tank.mpd")
    here = build_graph(tank_model)
    job = Forked(build_graph, tank_model)
    assert job.pid
    there = job.result()
    assert sorted(here.nodes(data=True)) == sorted(there.nodes(data=True))
    canon = lambda g: sorted((min(a, b), max(a, b), repr(sorted(d.items()))) for a, b, d in g.edges(data=True))  # noqa: E731
    assert canon(here) == canon(there) and here.number_of_edges() > 40


@needs_fork
def test_idle_worker_pools_the_caller_names_do_not_stop_a_fork():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="brikscan-test-pool") as pool:
        pool.submit(int).result()  # its worker thread exists and is idle
        assert Forked(_square_and_pid, 5).pid == 0  # not named: no fork
        job = Forked(_square_and_pid, 5, idle_pools=("brikscan-test-pool",))
        assert job.pid and job.result()[0] == 25


@needs_fork
def test_attack_options_worked_out_in_two_processes_equal_one(tmp_path):
    """Every other attack option comes from a forked child on a large battlefield: the same options, in the same
    order, as one process works out (the bundled castle assault, forced by a low threshold), timings aside."""
    import brikscan.battle.attacks as A
    from brikscan.battle.battlefield import load_battlefield
    from conftest import SCENES

    def run(min_options, env):
        old, A.FORK_MIN_OPTIONS = A.FORK_MIN_OPTIONS, min_options
        saved = os.environ.get("BRIKSCAN_NO_FORK")
        os.environ["BRIKSCAN_NO_FORK"] = env
        try:
            bf = load_battlefield(SCENES / "castle_assault.toml", None)
            out = A.attacks_json(bf, A.attack_options(bf))
            out.pop("timings", None)
            return out
        finally:
            A.FORK_MIN_OPTIONS = old
            if saved is None:
                os.environ.pop("BRIKSCAN_NO_FORK")
            else:
                os.environ["BRIKSCAN_NO_FORK"] = saved

    one = run(10 ** 9, "1")
    two = run(2, "0")
    assert len(one["attacks"]) >= 4 and one == two


@needs_fork
def test_a_large_creations_interior_from_a_child_is_the_one_computed_here(monkeypatch):
    """The interior test of a large creation runs on the other core while the rest is judged: the same answer."""
    from brikscan import load
    from brikscan.analysis import interior
    from conftest import EXAMPLES

    model = load(EXAMPLES / "watch_tower.ldr")
    idx = [e.index for e in model.elements]
    here = interior.enclosure(model, idx)
    monkeypatch.setattr(interior, "FORK_MIN_ELEMENTS", 3)  # the tower is small: start a child for it anyway
    store: dict = {}
    pending = interior.PendingEnclosure(model, idx, store=store)
    assert pending._job is not None and pending._job.pid  # a child was started
    got = pending.result()
    assert got == here and here.volume_ldu3 > 0  # the tower's room: not a trivial answer
    assert interior.enclosure(model, idx, store=store) is got  # kept for the next question
    cancelled = interior.PendingEnclosure(model, idx[:-1])
    cancelled.cancel()
    assert cancelled._job is None
    small = interior.PendingEnclosure(model, idx[:10])  # a small share of its model: not worth a fork
    assert small._job is None and small.result() == interior.enclosure(model, idx[:10])
