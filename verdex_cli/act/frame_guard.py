"""The other documents of the tab, guarded for the length of a click.

The click guard (guard.js ``arm``) sits in the target's own document; events the browser routes into
another frame's document (a frame the page moved under the click point: an ad, a carousel) never pass
it. So every other document is told to stop every trusted press, release and click until read
(browser/guard_world.py), with the first actionability check (actionability.Ahead) or before the input;
their answers are waited for before any input, and what they stopped is read back with the target's guard.
"""

from __future__ import annotations

from contextlib import suppress
from ..base.errors import CDPError, CDPTimeout, ConnectionLost, VerdexError
from ..browser.frames import Frame
from ..browser import bridge
from ..browser.page import Page

GRACE_S = 5.0  # a guard nobody reads stands down by itself this long after the action's time-out


class Denial:
    """The guards of the documents other than ``target``'s (see the module doc)."""

    def __init__(self, page: Page, target: Frame):
        self.page = page
        self.sent: list[tuple[str, object, int, object]] = []  # (frame id, session, context, pending order)
        self.armed: list[tuple[str, object, int]] = []
        self.reading: list[tuple[str, object]] = []
        ms = int((page.timeout + GRACE_S) * 1000)
        page.frames.enable_new_sessions()  # frames attached since: guarded too
        for fid, session, ctx in page.frames.guards.others(target.frame_id):
            try:
                pending = bridge.start(session, bridge.guard_deny(ms).at(ctx), 5)
            except (CDPError, CDPTimeout, ConnectionLost):
                continue
            self.sent.append((fid, session, ctx, pending))

    def ready(self) -> None:
        """Every guard sent is in place (its answer taken) before any input goes out. A document that
        went away meanwhile is left out: there is nothing to click in."""
        sent, self.sent = self.sent, []
        for fid, session, ctx, pending in sent:
            with suppress(VerdexError):
                if pending.result().get("result", {}).get("value") is True:
                    self.armed.append((fid, session, ctx))

    def start_read(self) -> None:
        """Ask every guard what it stopped (answers taken by :meth:`blocked`, with the target's)."""
        for fid, session, ctx in self.armed:
            with suppress(CDPError, CDPTimeout, ConnectionLost):
                self.reading.append((fid, bridge.start(session, bridge.guard_read().at(ctx), 5)))
        self.armed = []

    def blocked(self) -> list[str]:
        """What the guards stopped: "mousedown on <button id="x"> in frame f2" (the frame's index when
        the tab's registry knows it), in the order read. The guards stand down."""
        out: list[str] = []
        reading, self.reading = self.reading, []
        for fid, pending in reading:
            try:
                seen = pending.result().get("result", {}).get("value")
            except VerdexError:
                continue  # its document went away: nothing of the click can have stayed there
            fr = self.page.frames.by_id.get(fid)
            where = f"frame f{fr.index}" if fr is not None and not fr.detached else "another frame"
            out += [f"{what} in {where}" for what in seen or () if isinstance(what, str)]
        return out

    def end(self) -> None:
        """Take down whatever is still up (the action stopped before its input or its read-back)."""
        self.ready()
        self.start_read()
        self.blocked()


def deny_others(page: Page, target: Frame) -> Denial | None:
    """The tab's other documents guarded (None when there is no other)."""
    denial = Denial(page, target)
    return denial if denial.sent else None
