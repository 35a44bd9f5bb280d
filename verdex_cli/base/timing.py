"""Phase timings of one command (for --trace and `timings`): ``with phase("capture f0"): ...``. Outside
a command (no trace running) a phase costs one context-variable read."""

from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager, suppress
from typing import Callable, Iterator

_CURRENT: contextvars.ContextVar["Timings | None"] = contextvars.ContextVar("verdex_timings", default=None)
_PROGRESS: contextvars.ContextVar[Callable[[str], None] | None] = contextvars.ContextVar("verdex_progress", default=None)


@contextmanager
def reporting(callback: Callable[[str], None] | None) -> Iterator[None]:
    """While a command runs: where :func:`tell` sends what a waiting action waits for (the REPL shows
    it; None: nobody listens)."""
    token = _PROGRESS.set(callback)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def tell(text: str) -> None:
    """Report progress of a long wait to whoever listens (never fails the command)."""
    callback = _PROGRESS.get()
    if callback is not None:
        with suppress(Exception):  # a display problem must not break the action
            callback(text)


class Timings:
    def __init__(self) -> None:
        self.phases: list[tuple[str, float]] = []
        self._start = time.perf_counter()

    def add(self, name: str, ms: float) -> None:
        """A phase's time; a phase right after one of the same name adds to it (one line)."""
        if self.phases and self.phases[-1][0] == name:
            self.phases[-1] = (name, self.phases[-1][1] + ms)
        else:
            self.phases.append((name, ms))

    def as_json(self) -> list[dict]:
        return [{"phase": n, "ms": round(ms, 2)} for n, ms in self.phases]

    @contextmanager
    def running(self) -> Iterator["Timings"]:
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


@contextmanager
def phase(name: str) -> Iterator[None]:
    timings = _CURRENT.get()
    if timings is None:
        yield
        return
    t0 = time.perf_counter()
    try:
        yield
    finally:
        timings.add(name, (time.perf_counter() - t0) * 1000.0)
