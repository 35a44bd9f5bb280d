"""A point in a frame, carried out to the tab through any nesting of frames, hit-tested on the way.

The bridge measures an element in its own frame's viewport; mouse events go to the tab in top-level
viewport coordinates, so the point climbs one frame at a time, and at each step the frame's owner (its
iframe element in the parent) must be what the point reaches there (else: the cover, or out of view).

DevTools box models are measured in the viewport of the *local root* of the target asked: the top of
that renderer's frame tree (a frame with no parent, or whose parent lives in another target:
browser/frames.py). The owner's content quad (transforms included) maps the child's viewport into
local-root coordinates; the parent's own owner quad maps them back into the parent's viewport.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass

from ..base.errors import CDPError, CDPTimeout, ConnectionLost, NotActionable, VerdexError
from ..browser.cdp import finish_all
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


def above(page: Page, fr: Frame | None) -> list[int]:
    """The indices of the frames above ``fr``, nearest first (as far as the registry knows them)."""
    out = []
    while fr is not None and fr.parent is not None:
        out.append(fr.parent)
        fr = page.frames.get(fr.parent)
    return out


def _gone(label: str) -> NotActionable:
    return NotActionable(f"Element {label} is not actionable: its frame is no longer attached to the page.")


def owners(page: Page, fr: Frame, label: str) -> list[tuple[Frame, Frame, int]]:
    """From the frame up to the top: (frame, parent frame, backend id of the frame's iframe element in
    the parent). The registry remembers each while both documents stay; the others are asked at once
    (one round trip)."""
    chain: list[tuple[Frame, Frame]] = []
    while fr.parent is not None:
        parent = page.frames.get(fr.parent)
        if parent is None or parent.detached:
            raise _gone(label)
        chain.append((fr, parent))
        fr = parent
    asked = {}
    for child, parent in chain:
        if page.frames.owner_of(child) is None:
            try:
                asked[child.index] = parent.target.start("DOM.getFrameOwner", frameId=child.frame_id)
            except (CDPError, CDPTimeout, ConnectionLost):
                raise _gone(label) from None
    try:
        for child, parent in chain:
            if child.index in asked:
                try:
                    page.frames.remember_owner(child, asked.pop(child.index).result()["backendNodeId"])
                except CDPError:
                    raise _gone(label) from None
    finally:
        for pending in asked.values():
            pending.drop()
    return [(child, parent, page.frames.owner_of(child)) for child, parent in chain]


def _forward(quad: list[float], u: float, v: float) -> list[float]:
    """The point at fractions (u, v) of a quad's sides (affine: exact for any 2D transform)."""
    x0, y0, x1, y1, x3, y3 = quad[0], quad[1], quad[2], quad[3], quad[6], quad[7]
    return [x0 + u * (x1 - x0) + v * (x3 - x0), y0 + u * (y1 - y0) + v * (y3 - y0)]


def climb(page: Page, fr: Frame, pt: Point, label: str, check: bool = True) -> tuple[float, float] | str:
    """``pt`` (in ``fr``'s viewport) in top-level viewport coordinates, or, when ``check`` and an owner
    on the way does not get the point, the reason (naming the cover). Two round trips however deep:
    every owner measured at once, then hit-tested at once (a frame whose world is not set up: one
    frame per round trip)."""
    levels = owners(page, fr, label)
    return _climb(page, levels, finish_measure(page, start_measure(page, levels), label), pt, check)[0]


def remembered(page: Page, fr: Frame) -> list | None:
    """(frame, parent, backend id of its owner) from ``fr`` up, when all are attached and every owner
    is remembered; None otherwise (nothing is asked)."""
    levels = []
    while fr.parent is not None:
        parent = page.frames.get(fr.parent)
        backend = page.frames.owner_of(fr)
        if parent is None or parent.detached or backend is None:
            return None
        levels.append((fr, parent, backend))
        fr = parent
    return levels


def climb_still(page: Page, levels: list, asked: list, pt: Point, label: str) -> tuple[float, float] | None:
    """``pt`` in top-level coordinates from a measurement started with the element's check, when every
    owner gets the point and no frame on the way moved for two frames' time (so the browser's hit-test
    data, which routes input into frames, is the layout measured); None otherwise."""
    point, still = _climb(page, levels, finish_measure(page, asked, label), pt, True)
    return point if still and not isinstance(point, str) else None


def _climb(page: Page, levels: list, measured: tuple, pt: Point, check: bool) -> tuple[tuple[float, float] | str, bool]:
    """(the point or the reason, whether every frame above was still)."""
    quads, objs, sizes = measured
    still = True
    try:
        if sizes is None:
            return _climb_each(page, levels, quads, objs, pt, check), False
        asked = []
        for child, parent, _backend in levels:
            q, back = _into(page, child, parent, quads, pt)
            asked.append((parent, q, page.bridge.owner_hit(parent.target, objs[child.index], q, back)))
            if parent.parent is None:
                break
            w, h = sizes[parent.index]
            if back is None:
                x, y = q
            else:
                uv = _inverse(back, q[0], q[1])
                x, y = (uv[0] * w, uv[1] * h) if uv is not None else (-1.0, -1.0)
            pt = Point(x, y, w, h)
        answers = finish_all([p for _parent, _q, p in asked])
        for (parent, q, _p), res in zip(asked, answers):
            if isinstance(res, Exception):
                raise res
            out = res["result"].get("value") or {"outside": True, "w": 0, "h": 0}
            if check and not out.get("hit"):
                return _missed(parent, out), False
            still = still and bool(out.get("still"))
            pt = _out(out, q)
        return (pt.x, pt.y), still
    finally:
        for target in {id(p.target): p.target for _c, p, _b in levels}.values():
            with suppress(ConnectionLost):
                target.send("Runtime.releaseObjectGroup", objectGroup="verdex-hit")


def _climb_each(page: Page, levels: list, quads: dict, objs: dict, pt: Point, check: bool) -> tuple[float, float] | str:
    for child, parent, _backend in levels:
        q, back = _into(page, child, parent, quads, pt)
        out = page.bridge.owner_hit(parent.target, objs[child.index], q, back) or {"outside": True, "w": 0, "h": 0}
        if check and not out.get("hit"):
            return _missed(parent, out)
        pt = _out(out, q)
    return pt.x, pt.y


def _into(page: Page, child: Frame, parent: Frame, quads: dict, pt: Point) -> tuple[list[float], list | None]:
    """(``pt`` of ``child`` in its local root's coordinates, the parent's own owner quad when the
    parent is no local root: the hit test maps the point back into its viewport)."""
    q = _forward(quads[child.index], pt.x / pt.w if pt.w else 0.0, pt.y / pt.h if pt.h else 0.0)
    return q, None if local_root(page, parent) else quads.get(parent.index)


def _out(out: dict, q: list[float]) -> Point:
    return Point(out.get("x", q[0]), out.get("y", q[1]), out["w"], out["h"])


def _missed(parent: Frame, out: dict) -> str:
    where = "the page" if parent.parent is None else f"frame {parent.index}"
    if out.get("cover"):
        return f"its frame is covered by {out['cover']} in {where}"
    return f"its frame is out of view: the point aimed at is outside the viewport of {where}"


def _inverse(q: list[float], x: float, y: float) -> tuple[float, float] | None:
    """The point (x, y) as fractions (u, v) of a quad's sides (the inverse of _forward)."""
    ax, ay, bx, by = q[2] - q[0], q[3] - q[1], q[6] - q[0], q[7] - q[1]
    det = ax * by - ay * bx
    if not det:
        return None
    dx, dy = x - q[0], y - q[1]
    return (dx * by - dy * bx) / det, (ax * dy - ay * dx) / det


def start_measure(page: Page, levels: list) -> list:
    """Ask at once each owner's content quad, its element in its frame's isolated world (for the hit
    test) and the viewport size of every frame on the way but the top (:func:`finish_measure`)."""
    asked: list = []
    try:
        for child, parent, backend in levels:
            ctx = page.frames.world(parent)
            asked.append((child, "quad", parent.target.start("DOM.getBoxModel", backendNodeId=backend)))
            asked.append((child, "obj", parent.target.start("DOM.resolveNode", backendNodeId=backend,
                                                            executionContextId=ctx, objectGroup="verdex-hit")))
            if parent.parent is not None:
                asked.append((parent, "size", page.bridge.viewport(parent, later=True)))
    except BaseException:
        drop_measure(asked)
        raise
    return asked


def drop_measure(asked: list) -> None:
    """Let the answers of a measurement nobody reads go."""
    for _f, what, pending in asked:
        if pending is not None:
            pending.drop()


def finish_measure(page: Page, asked: list, label: str) -> tuple[dict[int, list[float]], dict[int, str], dict | None]:
    """(quads, owner object ids, viewport sizes or None) of :func:`start_measure`."""
    sizes: dict | None = {} if all(w != "size" or p.sent is not None for _f, w, p in asked) else None
    try:
        quads, objs = {}, {}
        for fr, what, pending in asked:
            try:
                if what == "size":
                    try:
                        if sizes is not None:
                            sizes[fr.index] = pending.value()
                    except VerdexError:
                        sizes = None  # its document is changing: the point climbs frame by frame
                    continue
                res = pending.result()
            except CDPError:
                if what == "quad":  # no box: the iframe element is not rendered
                    raise NotActionable(f"Element {label} is not actionable: its frame is not displayed.") from None
                raise _gone(label) from None
            if what == "quad":
                quads[fr.index] = res["model"]["content"]
            else:
                objs[fr.index] = res["object"]["objectId"]
        return quads, objs, sizes
    finally:
        drop_measure(asked)
