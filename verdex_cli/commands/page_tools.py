"""eval and screenshot."""

from __future__ import annotations

from ..base.errors import ConnectionLost
from .registry import Result, command


@command("eval", params="JS",
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


@command("screenshot", params="PATH", options=("--full: the whole page, not only the viewport",),
         help="Save a PNG/JPEG/WebP screenshot of the page to PATH.", effect="read")
def screenshot_cmd(ctx, args, flags):
    data = ctx.page.screenshot(args[0], full_page="--full" in flags)
    return Result("screenshot", data, data.pop("notes", []))
