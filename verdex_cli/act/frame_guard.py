"""The other frames' documents, guarded for the length of a click.

The click guard (act.js ``arm``) sits in the target's own document: events that would reach another
element there are stopped. Events the browser routes into another frame's document -- a frame the page
moved under the click point between the check and the input -- never pass that document, so that guard
cannot stop them, and the frame's element would be clicked instead. So every other frame of the tab whose
isolated world is set up gets a guard too, one that stops every trusted press, release and click (no
element there is the target: ``arm(0)``). The guards go out with the first actionability check (no round
trip of their own: actionability.Ahead), or just before the input when that check was not sent ahead;
their answers are waited for before any input is sent, and read back with the target's guard.

A frame whose world is not set up (never captured, or a new document) is not guarded: setting it up costs
a round trip, and such a frame was not in the snapshot the ref came from. Nothing here prints."""

from __future__ import annotations

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, JSError, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page

DENY = 0  # act.js arm(0): no element of the document is the target


class Denial:
    """The guards of the frames other than ``target``'s (see the module doc)."""

    def __init__(self, page: Page, target: Frame):
        self.page = page
        self.sent: list[tuple[Frame, object]] = []  # (frame, its pending arm)
        self.armed: list[Frame] = []
        self.reading: list[tuple[Frame, object]] = []
        for fr in page.frames.all_frames():
            if fr is target or not page.frames.ready(fr):
                continue
            started = page.bridge.start(fr, "bridge", "arm", DENY, timeout=5)
            if started is not None:
                self.sent.append((fr, started))

    def ready(self) -> None:
        """Every guard sent is in place (its answer taken) before any input goes out. A frame that went
        away meanwhile is left out: there is no document to click in."""
        sent, self.sent = self.sent, []
        for fr, started in sent:
            try:
                if self.page.bridge.finish(fr, started, "bridge", "arm", DENY):
                    self.armed.append(fr)
            except (VerdexError, CDPError, CDPTimeout, JSError, ConnectionLost):
                pass

    def start_read(self) -> None:
        """Ask every guard what it stopped (answers taken by :meth:`blocked`, with the target's)."""
        for fr in self.armed:
            try:
                self.reading.append((fr, self.page.bridge.start_disarm(fr)))
            except (VerdexError, CDPError, CDPTimeout, ConnectionLost):
                pass
        self.armed = []

    def blocked(self) -> list[str]:
        """What the guards stopped: "mousedown on <button id="x"> in frame f2", in frame order. The guards
        are taken down."""
        out: list[str] = []
        reading, self.reading = self.reading, []
        for fr, started in reading:
            try:
                seen = self.page.bridge.disarm(fr, started=started) if started is not None else None
            except (VerdexError, CDPError, CDPTimeout, JSError, ConnectionLost):
                continue  # its document went away: nothing of the click can have stayed there
            for what in (seen or {}).get("blocked") or []:
                out.append(f"{what} in frame f{fr.index}")
        return out

    def end(self) -> None:
        """Take down whatever is still up (the action stopped before its input or its read-back)."""
        self.ready()
        self.start_read()
        self.blocked()


def deny_others(page: Page, target: Frame) -> Denial | None:
    """The other frames guarded (None when the tab has no other frame ready)."""
    denial = Denial(page, target)
    return denial if denial.sent else None
