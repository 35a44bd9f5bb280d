"""Keyboard focus, verified deep (shadow roots and frames), and key input that never lands elsewhere.

Key events go to whatever has focus, so before every batch :class:`Focus` checks that the target is
the deep active element of its document and every ancestor document's active element is the iframe
leading to it; while keys are sent, a guard in those documents stops any that would reach another element.
"""

from __future__ import annotations

from contextlib import contextmanager, suppress

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, ErrorKind, JSError, NotActionable, NotApplied, VerdexError
from ..browser.frames import Frame
from ..browser.page import Page
from ..refs.store import describe
from .frame_points import owners
from .readback import settle_page
from .resolve import Resolved

MAX_DEPTH = 12


def label_of(page: Page, fr: Frame | None, who: dict) -> str:
    """`textbox "Name" (c0p0f0e1)` for a bridge `who` description."""
    if not who or who.get("none"):
        return "the page itself (no element has focus)"
    text = describe(who.get("role") or "generic", who.get("name") or "")
    if who.get("role") in (None, "", "generic", "none", "presentation") and not who.get("name"):
        text = who.get("tag") or "an element"
    if who.get("n") and fr is not None:
        text += f" ({page.prefix}f{fr.index}e{who['n']})"
    return text


def where_focus(page: Page) -> tuple[dict, Frame]:
    """The deep focused element of the tab: through shadow roots and into frames."""
    fr = page.frames.main
    for _ in range(MAX_DEPTH):
        who = page.bridge.focused(fr)
        if not who.get("frame"):
            return who, fr
        child = _focused_child(page, fr)
        if child is None:
            return who, fr
        fr = child
    return who, fr


def _focused_child(page: Page, fr: Frame) -> Frame | None:
    obj = page.bridge.focused_element(fr)
    if "objectId" not in obj:
        return None
    try:
        node = fr.target.call("DOM.describeNode", objectId=obj["objectId"])["node"]
    finally:
        release_object(fr, obj["objectId"])
    child = page.frames.by_id.get(node.get("frameId", ""))
    if child is None or child.detached:
        return None
    return child


def release_object(fr: Frame, object_id: str) -> None:
    with suppress(VerdexError):
        fr.target.call("Runtime.releaseObject", objectId=object_id, timeout=2)


@contextmanager
def element_object(page: Page, res: Resolved, missing: str):
    """The element's object id for a protocol call, let go of afterwards (``missing``: the error if none)."""
    obj = page.bridge.element(res.frame, res.ref.n)
    if "objectId" not in obj:
        raise VerdexError(missing, kind=ErrorKind.REMOVED)
    try:
        yield obj["objectId"]
    finally:
        release_object(res.frame, obj["objectId"])


class Focus:
    """The verified focus on one ref's element, for the length of one action."""

    def __init__(self, page: Page, res: Resolved):
        self.page, self.res = page, res
        self.owners: list[tuple[Frame, str]] = []  # (parent frame, objectId of the iframe in its world)
        for _frame, parent, backend in owners(page, res.frame, res.label):  # a frame gone: one true line
            obj = parent.target.call("DOM.resolveNode", backendNodeId=backend, objectGroup="verdex-focus",
                                     executionContextId=page.frames.world(parent))["object"]
            self.owners.append((parent, obj["objectId"]))
        self.armed, self.arming = False, []  # arming: the guard's calls, answered before the first key
        self.prefix = "Nothing was sent"  # how much got through, for a refusal during the current batch
        self.replaced = False  # the page re-rendered the field; the keys go on into the new one (it has focus)

    def problem(self, prefix: str = "Nothing was sent") -> str | None:
        """None when the target holds focus; else where focus is (checked from the top down, so it names
        what really has focus). A field the page re-rendered counts when the new one has focus once the
        page settled; else the keys stop there (``prefix``: how many went in)."""
        for parent, obj in reversed(self.owners):
            got = self.page.bridge.holds_focus(parent.target, obj)
            if got is not True:
                return self._elsewhere(got or {}, parent)
        st = self.page.bridge.focus_state(self.res.frame, self.res.ref.n)
        if st.get("replaced") and st.get("status") != "ok":  # the page may give focus back a moment later
            settle_page(self.page)
            st = self.page.bridge.focus_state(self.res.frame, self.res.ref.n)
        if st.get("status") == "removed":
            if prefix.startswith("Nothing"):
                raise NotActionable(f"Element {self.res.label} was removed.", kind=ErrorKind.REMOVED)
            raise NotApplied(f"{prefix}: then the page removed {self.res.label}, and no field like it took "
                             "its place.")
        self.replaced = self.replaced or bool(st.get("replaced"))
        if st.get("status") != "ok":
            where = self._elsewhere(st.get("on") or {}, self.res.frame)
            if st.get("replaced"):
                raise NotApplied(f"{prefix}: then the page re-rendered {self.res.label} and did not give the new "
                                 f"field focus (it is on {where}), so the rest was not sent.")
            return where
        return None

    def _elsewhere(self, who: dict, fr: Frame) -> str:
        if who.get("frame"):  # focus is inside some other frame: follow it down
            try:
                who, fr = where_focus(self.page)
            except (CDPError, CDPTimeout, JSError):
                return "another element"
        return label_of(self.page, fr, who)

    def refuse(self, where: str, prefix: str) -> NotActionable:
        return NotActionable(f"{prefix}: could not focus {self.res.label}: focus is on {where}.")

    def take(self, verb: str) -> None:
        """Focus the element and verify it (deep), or refuse before any key is sent."""
        out = self.page.bridge.focus(self.res.frame, self.res.ref.n)
        if out.get("status") == "removed":
            raise NotActionable(f"Element {self.res.label} was removed.", kind=ErrorKind.REMOVED)
        where = self.problem(f"Nothing was {verb}")
        if where is not None:
            raise self.refuse(where, f"Nothing was {verb}")

    def arm(self) -> None:
        """Guard the documents; sent with the next call, answered (a failure raised) before any key goes."""
        self.arming = [self.page.bridge.arm_keys(fr, n, later=True)
                       for fr, n in [(self.res.frame, self.res.ref.n)] + [(p, 0) for p, _ in self.owners]]
        self.armed = True

    def disarm(self) -> list[str]:
        """Stop guarding; the labels of elements whose key events were stopped."""
        while self.arming:  # no key went: the guard's answers are not needed
            self.arming.pop().drop()
        if not self.armed:
            return []
        self.armed = False
        blocked: list[str] = []
        for fr in [self.res.frame] + [p for p, _ in self.owners]:
            try:
                got = self.page.bridge.disarm_keys(fr)
            except (CDPError, CDPTimeout, JSError, ConnectionLost):
                continue  # the document went away (a navigation): nothing to stop there any more
            blocked += [label_of(self.page, fr, w) for w in got]
        return blocked

    def close(self) -> list[str]:
        blocked = self.disarm()
        for parent, _ in self.owners:
            with suppress(CDPError, CDPTimeout, ConnectionLost):
                parent.target.call("Runtime.releaseObjectGroup", objectGroup="verdex-focus", timeout=2)
        return blocked

    def _stop(self, where: str, prefix: str) -> NotActionable:
        blocked = self.disarm()
        if blocked:  # the previous batch already met the moved focus: the guard stopped it there
            where, prefix = blocked[0], self.prefix
        return self.refuse(where, prefix)

    def keys(self, events: list[dict], prefix: str, method: str = "Input.dispatchKeyEvent") -> None:
        """One batch of key events, sent only once the guard is up and the target holds focus right now."""
        while self.arming:
            self.arming.pop(0).value()
        where = self.problem(prefix)
        if where is not None:
            raise self._stop(where, prefix)
        self.prefix = prefix
        self.page.target.call_many([(method, ev) for ev in events])

    def insert(self, text: str, prefix: str) -> None:
        self.keys([{"text": text}], prefix, "Input.insertText")

    def __enter__(self) -> "Focus":
        return self

    def __exit__(self, *exc) -> None:
        blocked = self.close()
        if blocked and exc[0] is None:  # focus moved during a batch: the guard stopped the keys there
            raise self.refuse(blocked[0], self.prefix)
