"""Benchmark-side JavaScript in verdex's isolated world of a frame (the engine loaded there): verdex
itself sends the page no source (its bridge client passes values); benchmarks may probe freely."""

from __future__ import annotations


def world_value(page, fr, expression: str, timeout: float | None = None) -> dict:
    """The raw CDP result of ``expression`` in frame ``fr``'s verdex world (``value`` by value)."""
    res = fr.target.call("Runtime.evaluate", timeout=timeout, expression=expression, contextId=page.frames.world(fr),
                         returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in res:
        raise RuntimeError(res["exceptionDetails"].get("text", "exception"))
    return res["result"]
