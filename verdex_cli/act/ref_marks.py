"""Where each live ref shows on the tab, in top-level coordinates, for `screenshot PATH --refs`: each
frame measures its refs in its own viewport (marks.js, all at once), a child frame's viewport is carried
out by its corners (frame_points.climb), and only what a viewport shows is kept."""

from __future__ import annotations

from ..base.errors import VerdexError
from ..browser.page import Page
from ..refs.store import RefStore, ref_number
from .frame_points import Point, above, climb


def live_boxes(page: Page, store: RefStore, whole: bool) -> list[tuple[str, list[float]]]:
    """(ref, [x, y, width, height]) in CSS pixels of the tab's viewport (``whole``: of the main
    document, for a full-page screenshot) of every live ref whose element shows, frame by frame."""
    wanted: dict[int, list[int]] = {}
    for rec in store.records.values():
        if rec.status == "live":
            wanted.setdefault(rec.frame, []).append(ref_number(rec.ref))
    for fi in list(wanted):  # the frames above them too: their viewports cut what they show
        for parent in above(page, page.frames.get(fi)):
            wanted.setdefault(parent, [])
    wanted.setdefault(0, [])
    frames = [fr for fi in wanted if (fr := page.frames.get(fi)) is not None and not fr.detached]
    frames.sort(key=lambda fr: len(above(page, fr)))  # a frame after the frames above it
    asks = [(fr, sorted(wanted[fr.index]), whole and fr.parent is None) for fr in frames]
    answers = page.bridge.ref_boxes(asks)
    main = next((a for (fr, _, _), a in zip(asks, answers) if fr.parent is None and a), None)
    if main is None:
        return []
    scroll = (main["sx"], main["sy"]) if whole else (0.0, 0.0)  # the tab's viewport -> its document
    # frame -> the part of the tab's viewport it shows (None: nothing); --full: the main frame all of it
    seen: dict[int, list[float] | None] = {0: [-1e9, -1e9, 2e9, 2e9] if whole else [0.0, 0.0, main["w"], main["h"]]}
    out = []
    for (fr, _, _), answer in zip(asks, answers):
        if fr.parent is None:
            place, shows = (0.0, 0.0, 1.0, 1.0), seen[0]
        else:
            place = _placement(page, fr, answer) if answer else None
            shows = seen[fr.index] = None if place is None else _cut(
                [place[0], place[1], answer["w"] * place[2], answer["h"] * place[3]], seen.get(fr.parent, seen[0]))
        if shows is None:
            continue
        dx, dy, kx, ky = place
        for n, x, y, w, h in answer["boxes"]:
            box = _cut([dx + x * kx, dy + y * ky, w * kx, h * ky], shows)
            if box is not None:
                out.append((f"{store.prefix}f{fr.index}e{n}", [box[0] + scroll[0], box[1] + scroll[1], box[2], box[3]]))
    return out


def _cut(box: list[float], area: list[float] | None) -> list[float] | None:
    """``box`` cut to ``area`` (both [x, y, w, h]); None when less than a pixel is left (or no area)."""
    if area is None:
        return None
    x0, y0 = max(box[0], area[0]), max(box[1], area[1])
    x1, y1 = min(box[0] + box[2], area[0] + area[2]), min(box[1] + box[3], area[1] + area[3])
    return [x0, y0, x1 - x0, y1 - y0] if x1 - x0 >= 1 and y1 - y0 >= 1 else None


def _placement(page: Page, fr, answer: dict) -> tuple[float, float, float, float] | None:
    """(x, y of the frame's viewport origin in the tab's viewport, horizontal and vertical scale),
    or None when the frame does not show (its owner is away)."""
    w, h = answer["w"], answer["h"]
    try:
        top_left = climb(page, fr, Point(0.0, 0.0, w, h), f"frame f{fr.index}", check=False)
        bottom_right = climb(page, fr, Point(w, h, w, h), f"frame f{fr.index}", check=False)
    except VerdexError:
        return None
    if isinstance(top_left, str) or isinstance(bottom_right, str) or not w or not h:
        return None
    return top_left[0], top_left[1], (bottom_right[0] - top_left[0]) / w, (bottom_right[1] - top_left[1]) / h
