"""Phase timings of one command (for --trace and `timings`): the core marks phases, nobody prints here.

    with phase("capture f0"):
        ...

A phase outside a command (no trace running) costs one context-variable read.
"""

from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from typing import Iterator

_CURRENT: contextvars.ContextVar["Timings | None"] = contextvars.ContextVar("verdex_timings", default=None)


class Timings:
    def __init__(self) -> None:
        self.phases: list[tuple[str, float]] = []
        self._start = time.perf_counter()

    def add(self, name: str, ms: float) -> None:
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
