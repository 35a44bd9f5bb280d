"""Actionability: the ref's element scrolled into view and waited for (visible, enabled, stable,
receiving pointer events at its click point), in its own frame's isolated world. Nothing here prints."""

from __future__ import annotations

import time

from ..base.errors import CDPError, ErrorKind, NotActionable, VerdexError
from ..base.timing import phase, tell
from ..browser import timer_watch
from ..browser.page import Page
from .frame_points import Point, climb, owners
from ..refs.store import parse_ref
from .resolve import Resolved


SLICE = 0.25  # seconds of in-page waiting per bridge call, so the wait can be reported from here


class Ahead:
    """A pointer action's first actionability check, sent with the ref's resolution (one round trip
    for both). The page does it only for the element exactly as the ref's snapshot showed it (role,
    name, identity), in a tab that draws (act.js ``prepare``'s ``expect``); otherwise it answers
    ``check`` having done nothing, and the action runs its checks in order as usual. Its answer is
    used only once the resolution said the ref is good (:meth:`take`)."""

    def __init__(self, page: Page, store, raw: str, arm: bool):
        self.page, self.started, self.fr, self.n, self.opts = page, None, None, 0, {}
        try:
            ref = parse_ref(raw.strip())
        except VerdexError:
            return  # a target by meaning: found by a search first
        rec = store.get(str(ref)) if store is not None else None
        fr = page.frames.get(ref.frame)
        if (rec is None or rec.retired or ref.context != page.context or ref.page != page.index or fr is None
                or fr.detached or not page.frames.ready(fr) or fr.world_loader != rec.loader):
            return
        if fr.parent is not None:
            # in a frame, the frames above are scrolled into view first and the check's animation
            # frames give that scrolling time to reach every process before the point is measured
            return
        self.fr, self.n = fr, ref.n
        self.opts = {"pointer": True, "timeoutMs": int(SLICE * 1000), "last": None, "seed": None,
                     "arm": arm, "expect": {"role": rec.role, "name": rec.name}, "key": timer_watch.KEY}
        try:
            self.started = page.bridge.start_prepare(fr, ref.n, self.opts, timeout=SLICE + 5)
        except VerdexError:
            self.started = None

    def take(self, res: Resolved) -> dict | None:
        """The answer, for the resolved ref (None when it was not sent, or is of no use)."""
        if self.started is None:
            return None
        started, self.started = self.started, None
        try:
            out = self.page.bridge.finish_prepare(self.fr, started, self.n, self.opts)
        except VerdexError:
            return None
        if res.frame is not self.fr or res.ref.n != self.n or not isinstance(out, dict):
            self._disarm(out)
            return None
        return out

    def drop(self) -> None:
        """The resolution failed: the answer is not used (a guard it armed is taken down)."""
        if self.started is None:
            return
        started, self.started = self.started, None
        try:
            self._disarm(self.page.bridge.finish_prepare(self.fr, started, self.n, self.opts))
        except VerdexError:
            pass

    def _disarm(self, out) -> None:
        if isinstance(out, dict) and out.get("armed"):
            try:
                self.page.bridge.disarm(self.fr)
            except VerdexError:
                pass


def prepare(page: Page, res: Resolved, pointer: bool = True, arm: bool = False) -> tuple[float, float]:
    """The click point of the ref's element once it is actionable. ``arm``: the element's guard is armed
    in the same call (see pointer._pointer_events); ``res.armed`` says so."""
    res.armed = False
    with phase("wait actionable"):
        return _prepare(page, res, pointer, arm and res.frame.parent is None)


def _prepare(page: Page, res: Resolved, pointer: bool, arm: bool = False) -> tuple[float, float]:
    # every frame's owner into view, outermost first, one after the other: a frame's scroll reaches
    # the frames above it a moment later (another process), so scrolls sent together can still be
    # moving the page when the point is measured (the press then lands elsewhere)
    for parent, owner in reversed(owners(page, res.frame, res.label)):
        try:
            parent.target.call("DOM.scrollIntoViewIfNeeded", backendNodeId=owner)
        except CDPError:
            pass  # an owner that cannot scroll: the hit tests say what is wrong
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
    ahead, res.prepared = res.prepared, None
    if ahead is not None and (ahead.get("status") == "check" or not pointer
                              or ahead.get("status") == "ok" and bool(ahead.get("armed")) != arm):
        if ahead.get("armed"):
            page.bridge.disarm(res.frame)
        ahead = None
    while True:
        left = deadline - time.monotonic()
        opts = {"pointer": pointer, "timeoutMs": int(max(0.1, min(SLICE, left)) * 1000), "last": last,
                "arm": arm, "seed": seed, "still": res.frame.parent is None, "key": timer_watch.KEY}
        seed = None  # only the first call's first measurement
        if ahead is not None:  # the first check was sent with the resolution
            out, ahead = ahead, None
        else:
            out = page.bridge.prepare(res.frame, res.ref.n, opts, timeout=SLICE + 5)
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
