"""Actionability: the ref's element scrolled into view and waited for (visible, enabled, stable,
receiving pointer events at its click point), in its own frame's isolated world. Nothing here prints."""

from __future__ import annotations

from contextlib import suppress
import time

from ..base.errors import CDPError, ErrorKind, NotActionable, VerdexError
from ..base.timing import phase, tell
from ..browser import timer_watch
from ..browser.page import Page
from .frame_guard import deny_others
from .frame_points import Point, climb, climb_still, drop_measure, owners, remembered, start_measure
from ..refs.store import RefStore, parse_ref
from .resolve import Resolved


SLICE = 0.25  # seconds of in-page waiting per bridge call, so the wait can be reported from here


class Ahead:
    """A pointer action's first actionability check, sent with the ref's resolution (one round trip).
    The page does it only for the element exactly as the snapshot showed it, in a tab that draws (act.js
    ``prepare``'s ``expect``), else answers ``check``; the answer is used only once the ref resolved."""

    def __init__(self, page: Page, store: RefStore, raw: str, arm: bool):
        self.page, self.started, self.fr, self.n = page, None, None, 0
        self.levels: list | None = None  # in a frame: the frames above (frame_points.remembered)
        self.measuring: list | None = None  # ... and their owners' measurement, started
        self.locating = None  # the stable locator's call (bridge.locate, kept), sent first
        self.denial = None  # a click's guards in the tab's other frames (frame_guard), sent with the check
        try:
            ref = parse_ref(raw.strip())
        except VerdexError:
            return  # a target by meaning: found by a search first
        rec = store.get(str(ref))
        fr = page.frames.get(ref.frame)
        if (rec is None or rec.retired or ref.context != page.context or ref.page != page.index or fr is None
                or fr.detached or not page.frames.ready(fr) or fr.world_loader != rec.loader):
            return
        self.fr, self.n = fr, ref.n
        opts = {"pointer": True, "timeoutMs": int(SLICE * 1000), "last": None, "seed": None,
                "arm": arm, "expect": {"role": rec.role, "name": rec.name}, "key": timer_watch.KEY}
        if fr.parent is not None:
            # in a frame: only when nothing needs scrolling (act.js `noScroll`), the owners measured at
            # the same time (frame_points.start_measure); else the frames above scroll first, in order
            self.levels = remembered(page, fr)
            if self.levels is None:
                self.fr = None
                return
            opts.update(noScroll=True)
        try:
            # the stable locator's question first: the input can overtake a call sent with the check
            # (it takes another road in), not one sent before the check whose answer it waits for
            self.locating = page.bridge.locate(fr, ref.n, kept=True)
            self.started = page.bridge.prepare(fr, ref.n, opts, timeout=SLICE + 5, later=True)
            if self.started.sent is None:
                self.started = None
            if self.levels:
                self.measuring = start_measure(page, self.levels)
            if arm and rec.role != "iframe":  # an iframe's click lands in its frame's documents (frame_click)
                self.denial = deny_others(page, fr)
        except VerdexError:
            self.started = None

    def locating_for(self, res: Resolved):
        """The stable locator's call started with the check, when it is about the resolved element
        (session_log.note_target takes it); None otherwise."""
        if self.locating is None or res.frame is not self.fr or res.ref.n != self.n:
            return None
        started, self.locating = self.locating, None
        return started

    def take(self, res: Resolved) -> dict | None:
        """The answer, for the resolved ref (None when it was not sent, or is of no use)."""
        if self.started is None:
            return None
        started, self.started = self.started, None
        try:
            out = started.value()
        except VerdexError:
            return None
        if res.frame is not self.fr or res.ref.n != self.n or not isinstance(out, dict):
            self._disarm(out)
            self._unmeasure()
            return None
        if self.measuring is not None:
            res.above = (self.levels, self.measuring)
            self.measuring = None
        res.denial, self.denial = self.denial, None
        return out

    def drop(self) -> None:
        """The resolution failed: the answer is not used (a guard it armed is taken down)."""
        if self.denial is not None:  # not handed to the action: the other frames' guards taken down
            self.denial.end()
            self.denial = None
        if self.started is None:
            return
        started, self.started = self.started, None
        self._unmeasure()
        with suppress(VerdexError):
            self._disarm(started.value())

    def _unmeasure(self) -> None:
        """Let the answers nobody will read go: the owners' measurement and the locator's call."""
        if self.measuring is not None:
            drop_measure(self.measuring)
            self.measuring = None
        if self.locating is not None:
            self.locating.drop()
            self.locating = None

    def _disarm(self, out) -> None:
        if isinstance(out, dict) and out.get("armed"):
            with suppress(VerdexError):
                self.page.bridge.disarm(self.fr)


def prepare(page: Page, res: Resolved, pointer: bool = True, arm: bool = False) -> tuple[float, float]:
    """The click point of the ref's element once it is actionable. ``arm``: the element's guard is armed
    in the same call (see pointer._pointer_events); ``res.armed`` says so."""
    res.armed = False
    arm = arm and res.frame.parent is None
    with phase("wait actionable"):
        if res.above is not None:
            point = _still_in_frame(page, res, pointer)
            if point is not None:
                return point
        # every owner into view, outermost first, one after the other: a frame's scroll reaches the frames
        # above a moment later, so scrolls sent together can still be moving when the point is measured
        for _frame, parent, owner in reversed(owners(page, res.frame, res.label)):
            with suppress(CDPError):  # an owner that cannot scroll: the hit tests say what is wrong
                parent.target.call("DOM.scrollIntoViewIfNeeded", backendNodeId=owner)
        deadline = time.monotonic() + page.timeout
        told: list = [None]
        while True:
            out = _wait_actionable(page, res, pointer, deadline, told, arm)
            res.armed = bool(out.get("armed"))
            if not pointer:
                return out["x"], out["y"]
            _through_label(res, out)
            # the point climbs out through each frame; each iframe element on the way must get it
            point = climb(page, res.frame, Point(out["x"], out["y"], out["w"], out["h"]), res.label)
            if not isinstance(point, str):
                return point
            if time.monotonic() >= deadline:
                raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {point}.")
            _tell(res, point, told)
            time.sleep(min(SLICE, max(0.0, deadline - time.monotonic())))


def _still_in_frame(page: Page, res: Resolved, pointer: bool) -> tuple[float, float] | None:
    """An element in a frame checked with its resolution (Ahead): its click point when it and every frame
    on the way were still and in view and every owner gets the point; None to check in order instead."""
    (levels, measuring), res.above = res.above, None
    ahead = res.prepared
    if not pointer or ahead is None or ahead.get("status") != "ok" or not ahead.get("still"):
        drop_measure(measuring)
        return None
    res.prepared = None
    try:
        point = climb_still(page, levels, measuring, Point(ahead["x"], ahead["y"], ahead["w"], ahead["h"]), res.label)
    except VerdexError:
        point = None
    if point is None:
        if ahead.get("armed"):
            with suppress(VerdexError):  # its document is gone: the checks in order say so
                page.bridge.disarm(res.frame)
        return None
    res.armed = bool(ahead.get("armed"))
    res.still = True
    _through_label(res, ahead)
    return point


def _through_label(res: Resolved, out: dict) -> None:
    """The note of a control clicked on its label (act.js ``standIn``: it has no size of its own)."""
    note = (f"The pointer went to its label {out['label']}, as a user's would: the {res.role} itself has zero "
            "size (a styled control).") if out.get("label") else None
    if note and note not in res.notes:
        res.notes.append(note)


def _tell(res: Resolved, reason: str, told: list) -> None:
    """Report a new reason for waiting (timing.tell: the REPL shows it)."""
    if reason == told[0]:
        return
    told[0] = reason
    tell(f"waiting for {res.label}: {reason}")


def _wait_actionable(page: Page, res: Resolved, pointer: bool, deadline: float, told: list, arm: bool = False) -> dict:
    """Poll the bridge's `prepare` in short slices until the element is actionable or time is up (a new
    reason for waiting is told: timing.tell); each slice's box goes to the next (stability: two measurements)."""
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
        if out.get("final"):  # a state no waiting changes: refused at once
            raise NotActionable(f"Element {res.label} is not actionable: {reason}.")
        if time.monotonic() >= deadline:
            raise NotActionable(f"Element {res.label} is not actionable after {page.timeout:.1f} s: {reason}.")
        _tell(res, reason, told)
