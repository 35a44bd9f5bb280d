"""eval and screenshot."""

from __future__ import annotations

from ..act import ref_marks
from ..base.errors import ConnectionLost
from .registry import Result, command


@command("eval", group="snapshot", params="JS",
         help="Evaluate JavaScript in the page like the DevTools console and show the result and console output.")
def eval_cmd(ctx, args, flags):
    page = ctx.page
    nav_before = page.nav_count
    data = page.evaluate_data(args[0], console=True)
    try:
        notes = page.settle_after_action(nav_before, grace=0)
    except ConnectionLost:  # the script closed its own tab; the session reports which tab is current
        notes = []
    if data.get("truncated"):
        notes.append(f"The result was {data['length']:,} characters; it was cut.")
    return Result("value", data, notes)


MAX_SIDE = 2000  # a screenshot's long side, in pixels, unless --full (a model's image limit)


@command("screenshot", group="snapshot", params="PATH",
         options=("--full: the whole page (no 2,000 px cap)", "--refs: outline and label each visible ref"),
         help="Save a PNG/JPEG/WebP screenshot of the viewport to PATH (--full: the whole page); --refs outlines "
              "and labels each visible ref on the image. The long side is at most 2,000 px unless --full.",
         effect="read")
def screenshot_cmd(ctx, args, flags):
    page, full = ctx.page, "--full" in flags
    cap = None if full else MAX_SIDE
    if "--refs" not in flags:
        data = page.screenshot(args[0], full_page=full, cap=cap)
        data.pop("scale")
        return Result("screenshot", data, data.pop("notes", []))
    boxes = ref_marks.live_boxes(page, ctx.page_state().store, full)
    page.bridge.draw_marks(page.frames.main, [[ref, *box] for ref, box in boxes], full)
    try:
        data = page.screenshot(args[0], full_page=full, cap=cap)
    finally:  # the page is left as it was
        page.bridge.erase_marks(page.frames.main)
    k = data.pop("scale")
    data["refs"] = [{"ref": ref, "box": [round(v * k, 1) for v in box]} for ref, box in boxes]
    notes = data.pop("notes", [])
    if not boxes:
        notes.append("No live ref shows in the viewport: take a 'snapshot' first." if not
                     ctx.page_state().store.records else "No live ref shows in the viewport.")
    return Result("screenshot", data, notes)
