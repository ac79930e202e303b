"""The embedded default's own workers: threads of the web process that run the tasks.

With no broker (``CELERY_BROKER_URL`` unset) Celery runs tasks eagerly, inside whatever
queued them: a run started from the admin or the API would be played before the request
answers, and a bracket's odds solved inside the page. So a web process (``config/wsgi.py``,
``config/asgi.py``: ``make run``'s runserver, gunicorn without a broker) calls
:func:`serve_in_process`, and from then on ``league.tasks`` hands each task to a *lane* of
this module instead: a queue and one thread that runs the task's own code
(``task.apply``) after the request has answered. One lane plays games, another builds VABG's
odds tables, a third the other games' pairings of coach styles, so a field's odds never hold
up a run, nor a VABG table of hundreds of pairs a six-dice pairing.

Nothing is promised here that the database does not keep: a game is still claimed with a
conditional UPDATE and stored in one transaction with its run's count, so a game handed
to a lane twice, or played by a lane and a ``simulate`` command at once, is stored once.
A lane's queue lives in memory and dies with its process (a restart, ``runserver``'s
reload). The games lane starts with the process's first request and sweeps then, and
whenever it has been idle for ``LEAGUE_SWEEP_EVERY`` seconds, as the sweeper of a broker's
workers does: a game a dead process left queued or running is handed out again once its
lease has run out. Commands and the tests keep Celery's eager behaviour unless they call
:func:`serve_in_process` themselves.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.core.signals import request_started
from django.db import connections

logger = logging.getLogger(__name__)

Job = Callable[[], object]

_serving = False
_open = threading.Event()  # cleared while the lanes are held (:func:`held`)
_open.set()


def serve_in_process(enabled: bool = True) -> None:
    """Run this process's tasks in its own lanes (a web process with no broker), or stop
    them (waiting for the job in hand).

    ``LEAGUE_IN_PROCESS_WORKER=false`` keeps Celery's eager behaviour even here: a run
    started from a page is then played inside its request, as before.
    """
    global _serving
    _serving = enabled and settings.LEAGUE_IN_PROCESS_WORKER
    if _serving:
        request_started.connect(_start_lanes, dispatch_uid="league.background.start")
    else:
        _stop_lanes()


def in_process() -> bool:
    """Tell whether tasks go to this process's lanes: no broker, and a serving process."""
    return _serving and bool(current_app.conf.task_always_eager)


def available() -> bool:
    """Tell whether work sent now runs in the background: on a broker's workers or in lanes."""
    return in_process() or not current_app.conf.task_always_eager


def ask_once(key: str, timeout: int) -> bool:
    """Return whether the work ``key`` names is to be sent to the background now: it was
    not sent in the last ``timeout`` seconds. With the cache out of reach (its ``add``
    answers False and nothing reads back) it is sent: a duplicate task costs a moment, a
    request never sent a page waiting for ever."""
    return bool(cache.add(key, True, timeout=timeout)) or cache.get(key) is None


def where() -> str:
    """Say where work sent now runs, for a page that waits on it."""
    return "in the background by this server" if in_process() else "on the workers"


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold every lane: jobs queue up, none starts until the block ends (the tests look at a
    run or a table before its jobs)."""
    _open.clear()
    try:
        yield
    finally:
        _open.set()


class Lane:
    """Queues of jobs and the one thread that runs them.

    Jobs of one ``group`` run in the order queued; the groups take turns, a job each (a
    small field's odds are not held up behind every chunk of a 96-team table queued before
    them: the Winter 2026 table of 613 pairs waited 13 minutes behind March Madness's).
    ``on_idle`` runs when the thread starts and after every ``idle_seconds`` without a job.
    A job that raises is logged and the lane goes on; the thread's database connections are
    closed whenever its queue runs empty, so an idle lane holds none.
    """

    def __init__(self, name: str, *, on_idle: Job | None, idle_seconds: float) -> None:
        self.name = name
        self.on_idle = on_idle
        self.idle_seconds = idle_seconds
        self._groups: OrderedDict[object, deque[Job]] = OrderedDict()
        self._stopping = False
        self._pending = 0
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the lane's thread unless it runs (its first job: ``on_idle``)."""
        with self._changed:
            if self._thread is None or not self._thread.is_alive():
                self._stopping = False
                if self.on_idle is not None:
                    self._pending += 1  # the sweep it starts with is waited for as a job
                self._thread = threading.Thread(
                    target=self._run, name=f"vabg-{self.name}", daemon=True
                )
                self._thread.start()

    def submit(self, job: Job, group: object = None) -> None:
        """Queue a job; the lane's thread runs it after those of its ``group`` queued
        before it, the groups taking turns."""
        with self._changed:
            self._pending += 1
            self._groups.setdefault(group, deque()).append(job)
            self._changed.notify_all()
        self.start()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job is queued or running; return False if ``timeout`` ran out."""
        with self._changed:
            return self._changed.wait_for(lambda: self._pending == 0, timeout=timeout)

    def stop(self, timeout: float) -> None:
        """Stop the thread once the jobs queued before now are done."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            with self._changed:
                self._stopping = True
                self._changed.notify_all()
            thread.join(timeout)

    def _next(self) -> Job | None:
        """Wait up to ``idle_seconds`` for a job: the next group's first; ``None`` when
        none came (or the lane stops with nothing left)."""
        with self._changed:
            self._changed.wait_for(
                lambda: bool(self._groups) or self._stopping, timeout=self.idle_seconds
            )
            if not self._groups:
                return None
            group, jobs = next(iter(self._groups.items()))
            job = jobs.popleft()
            del self._groups[group]
            if jobs:  # its turn is over: the other groups' first jobs come before its next
                self._groups[group] = jobs
            return job

    def _run(self) -> None:
        if self.on_idle is not None:
            self._done(self.on_idle)
        while True:
            job = self._next()
            if job is not None:
                self._done(job)
                continue
            if self._stopping:
                connections.close_all()
                return
            if self.on_idle is not None:
                with self._changed:
                    self._pending += 1
                self._done(self.on_idle)

    def _done(self, job: Job) -> None:
        """Run a counted job once the lanes are open, and count it done."""
        _open.wait()
        self._call(job)
        with self._changed:
            self._pending -= 1
            idle = self._pending == 0
            self._changed.notify_all()
        if idle:
            connections.close_all()

    def _call(self, job: Job) -> None:
        try:
            job()
        except Exception:  # a lane outlives any one task; the task's own reason is logged
            logger.exception("the %s lane's job %r failed", self.name, job)


_idle_jobs: dict[str, Job] = {}
_lanes: dict[str, Lane] = {}
_lanes_lock = threading.Lock()


def on_idle(name: str, job: Job) -> None:
    """Give the lane ``name`` a job to run when it starts and whenever it is idle."""
    _idle_jobs[name] = job


def lane(name: str) -> Lane:
    """Return this process's lane called ``name``, made on first use."""
    with _lanes_lock:
        found = _lanes.get(name)
        if found is None:
            found = _lanes[name] = Lane(
                name, on_idle=_idle_jobs.get(name), idle_seconds=settings.LEAGUE_SWEEP_EVERY
            )
        return found


def wait_idle(timeout: float) -> bool:
    """Wait until every lane of this process is idle; return False if ``timeout`` ran out."""
    with _lanes_lock:
        lanes = list(_lanes.values())
    return all(lane.wait_idle(timeout) for lane in lanes)


def _start_lanes(**kwargs: Any) -> None:
    """On a request: start the lanes that sweep (the games lane) if this process serves."""
    if in_process():
        for name in _idle_jobs:
            lane(name).start()


def _stop_lanes(timeout: float = 30.0) -> None:
    with _lanes_lock:
        lanes = list(_lanes.values())
        _lanes.clear()
    for each in lanes:
        each.stop(timeout)
