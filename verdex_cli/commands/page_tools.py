"""eval and screenshot."""

from __future__ import annotations

from .registry import Result, command


@command("eval", usage="eval JS", min_args=1, max_args=1, rest="line",
         help="Evaluate JavaScript in the page and show the result.")
def eval_cmd(ctx, args, flags):
    page = ctx.page
    value = page.evaluate(args[0])
    return Result("value", {"value": value}, page.take_notes())


@command("screenshot", usage="screenshot PATH [--full]", min_args=1, max_args=1, flags=("--full",),
         help="Save a PNG/JPEG/WebP screenshot of the page to PATH.")
def screenshot_cmd(ctx, args, flags):
    data = ctx.page.screenshot(args[0], full_page="--full" in flags)
    return Result("screenshot", data, data.pop("notes", []))
