"""A point in a frame, carried out to the tab through any nesting of frames, and hit-tested on the way.

The bridge measures an element in its own frame's viewport. Mouse events go to the tab in top-level
viewport coordinates, so the point climbs one frame at a time: at each step the frame's iframe element
(its owner, in the parent frame) must be the element the point reaches there, or the owner is covered
(and the cover is named) or the point is outside the parent's viewport.

Coordinates come from DevTools box models, which are measured in the viewport of the *local root* of the
target they are asked through: the frame at the top of that renderer's frame tree (the main frame for
every frame the page's renderer hosts: same-origin, and cross-origin but same-site frames; an
out-of-process frame for the frames inside it). Which frames share a target is the protocol's fact
(``Page.getFrameTree`` per target and ``Target.getTargets``, kept in ``browser/frames.py``): a frame
is a local root when it has no parent or its parent lives in another target. The owner's content quad
(transforms included) maps the child's viewport into local-root coordinates; the parent's own owner
quad maps them back into the parent's viewport (done in the parent, which knows its viewport's size).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base.errors import CDPError, NotActionable
from ..browser.frames import Frame
from ..browser.page import Page


@dataclass
class Point:
    """A point in a frame's viewport, with the viewport's size."""

    x: float
    y: float
    w: float
    h: float


def local_root(page: Page, fr: Frame) -> bool:
    """Is ``fr`` the top of its renderer's frame tree (box models of its target are measured in it)?"""
    if fr.parent is None:
        return True
    parent = page.frames.get(fr.parent)
    return parent is None or parent.target is not fr.target and parent.target.id != fr.target.id


def _parent(page: Page, fr: Frame, label: str) -> Frame:
    parent = page.frames.get(fr.parent) if fr.parent is not None else None
    if parent is None or parent.detached:
        raise NotActionable(f"Element {label} is not actionable: its frame is no longer attached to the page.")
    return parent


def owner(page: Page, fr: Frame, label: str) -> tuple[Frame, int]:
    """(parent frame, backend node id of the iframe element that holds ``fr`` in it)."""
    parent = _parent(page, fr, label)
    try:
        return parent, parent.target.call("DOM.getFrameOwner", frameId=fr.frame_id)["backendNodeId"]
    except CDPError:
        raise NotActionable(f"Element {label} is not actionable: its frame is no longer attached to the page.") \
            from None


def owners(page: Page, fr: Frame, label: str):
    """From the frame up to the top: (parent frame, backend id of the iframe element in it)."""
    while fr.parent is not None:
        parent, backend = owner(page, fr, label)
        yield parent, backend
        fr = parent


def _quad(parent: Frame, backend: int, label: str) -> list[float]:
    """Content quad of an iframe element, in its target's local-root coordinates."""
    try:
        return parent.target.call("DOM.getBoxModel", backendNodeId=backend)["model"]["content"]
    except CDPError:  # no box: the iframe element is not rendered
        raise NotActionable(f"Element {label} is not actionable: its frame is not displayed.") from None


def _forward(quad: list[float], u: float, v: float) -> list[float]:
    """The point at fractions (u, v) of a quad's sides (affine: exact for any 2D transform)."""
    x0, y0, x1, y1, x3, y3 = quad[0], quad[1], quad[2], quad[3], quad[6], quad[7]
    return [x0 + u * (x1 - x0) + v * (x3 - x0), y0 + u * (y1 - y0) + v * (y3 - y0)]


def climb(page: Page, fr: Frame, pt: Point, label: str, check: bool = True) -> tuple[float, float] | str:
    """``pt`` (in ``fr``'s viewport) in top-level viewport coordinates, or, when ``check`` and an iframe
    element on the way does not get the point, the reason (true, naming the cover)."""
    quads: dict[int, list[float]] = {}

    def quad_of(child: Frame) -> tuple[Frame, int, list[float]]:
        parent, backend = owner(page, child, label)
        if child.index not in quads:
            quads[child.index] = _quad(parent, backend, label)
        return parent, backend, quads[child.index]

    while fr.parent is not None:
        parent, backend, quad = quad_of(fr)
        q = _forward(quad, pt.x / pt.w if pt.w else 0.0, pt.y / pt.h if pt.h else 0.0)
        back = None if local_root(page, parent) else quad_of(parent)[2]
        out = _owner_hit(page, parent, backend, q, back)
        if check and not out.get("hit"):
            where = "the page" if parent.parent is None else f"frame {parent.index}"
            if out.get("cover"):
                return f"its frame is covered by {out['cover']} in {where}"
            return f"its frame is out of view: the click point is outside the viewport of {where}"
        pt, fr = Point(out.get("x", q[0]), out.get("y", q[1]), out["w"], out["h"]), parent
    return pt.x, pt.y


def _owner_hit(page: Page, parent: Frame, backend: int, q: list[float], back: list[float] | None) -> dict:
    """The bridge of ``parent`` maps ``q`` into its viewport and hit-tests the iframe element there."""
    ctx = page.frames.world(parent)
    obj = parent.target.call("DOM.resolveNode", backendNodeId=backend, executionContextId=ctx,
                             objectGroup="verdex-hit")["object"]
    try:
        res = parent.target.call("Runtime.callFunctionOn", objectId=obj["objectId"], returnByValue=True,
                                 functionDeclaration="function (q, quad) { return __verdex.bridge.ownerHit(this, q, quad); }",
                                 arguments=[{"value": q}, {"value": back}])
    finally:
        parent.target.call("Runtime.releaseObjectGroup", objectGroup="verdex-hit")
    return res["result"].get("value") or {"outside": True, "w": 0, "h": 0}
