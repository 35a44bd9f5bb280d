"""Actionability: the ref's element scrolled into view and waited for (visible, enabled, stable,
receiving pointer events at its click point), in its own frame's isolated world, and the in-page
calls every action makes (``bridge_call``). Nothing here prints."""

from __future__ import annotations

import json
import time

from ..base.errors import CDPError, ErrorKind, NotActionable
from ..base.timing import phase, tell
from ..browser.frames import Frame
from ..browser.page import Page
from .frame_points import Point, climb, owners
from .resolve import Resolved


def bridge_call(page: Page, fr: Frame, call: str, timeout: float | None = None):
    return page.frames.eval(fr, "__verdex.bridge." + call, timeout=timeout)["value"]


SLICE = 0.25  # seconds of in-page waiting per bridge call, so the wait can be reported from here


def prepare(page: Page, res: Resolved, pointer: bool = True, arm: bool = False) -> tuple[float, float]:
    """The click point of the ref's element once it is actionable. ``arm``: an element of the tab's own
    frame gets its guard armed in the same call (see _pointer_events); ``res.armed`` says so."""
    res.armed = False
    with phase("wait actionable"):
        return _prepare(page, res, pointer, arm and res.frame.parent is None)


def _prepare(page: Page, res: Resolved, pointer: bool, arm: bool = False) -> tuple[float, float]:
    for parent, owner in reversed(list(owners(page, res.frame, res.label))):  # outermost frame first
        try:
            parent.target.call("DOM.scrollIntoViewIfNeeded", backendNodeId=owner)
        except CDPError:
            pass
    deadline = time.monotonic() + page.timeout
    told: list = [None]
    while True:
        out = _wait_actionable(page, res, pointer, deadline, told, arm)
        res.armed = bool(out.get("armed"))
        if not pointer:
            return out["x"], out["y"]
        # the point climbs out through each frame; each iframe element on the way must get it
        point = climb(page, res.frame, Point(out["x"], out["y"], out["w"], out["h"]), res.label)
        if not isinstance(point, str):
            return point
        if time.monotonic() >= deadline:
            raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {point}.")
        _tell(page, res, point, told)
        time.sleep(min(SLICE, max(0.0, deadline - time.monotonic())))


def _tell(page: Page, res: Resolved, reason: str, told: list) -> None:
    """Report a new reason for waiting (timing.tell: the REPL shows it)."""
    if reason == told[0]:
        return
    told[0] = reason
    tell(f"waiting for {res.label}: {reason}")


def _wait_actionable(page: Page, res: Resolved, pointer: bool, deadline: float, told: list, arm: bool = False) -> dict:
    """Poll the bridge's `prepare` in short slices until the element is actionable or time is up.

    Each time the reason for waiting is new, the progress listener (timing.tell; the REPL shows it)
    hears "waiting for ...: reason". The box measured in
    one slice goes to the next, so stability is always judged on two measurements.
    """
    last = None
    live = res.live or {}
    seed = {"box": live["box"], "at": live["at"]} if live.get("box") and live.get("at") is not None else None
    while True:
        left = deadline - time.monotonic()
        opts = json.dumps({"pointer": pointer, "timeoutMs": int(max(0.1, min(SLICE, left)) * 1000), "last": last,
                           "arm": arm, "seed": seed})
        seed = None  # only the first call's first measurement
        out = bridge_call(page, res.frame, f"prepare({res.ref.n}, {opts})", timeout=SLICE + 5)
        status = out.get("status")
        if status == "ok":
            return out
        if status == "removed":
            raise NotActionable(f"Element {res.label} was removed while waiting for it.", kind=ErrorKind.REMOVED)
        reason = out.get("reason", status)
        last = out.get("last")
        if time.monotonic() >= deadline:
            raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {reason}.")
        _tell(page, res, reason, told)
