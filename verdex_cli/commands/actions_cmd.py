"""Actions on refs: click, dblclick, hover, type, fill, press, select, check, uncheck, focus, scroll."""

from __future__ import annotations

from .. import actions
from ..errors import UsageError
from ..resolve import resolve
from .registry import Result, command
from .snapshot_cmd import store_for


def _resolve(ctx, raw):
    return resolve(ctx.page, store_for(ctx), raw)


def _result(out: dict, ctx=None) -> Result:
    return Result("action", out, out.pop("notes", []))


@command("click", usage="click REF", min_args=1, max_args=1, ref_args=(0,),
         help="Click the element with a real mouse event.")
def click_cmd(ctx, args, flags):
    return _result(actions.pointer(ctx.page, _resolve(ctx, args[0]), "click"), ctx)


@command("dblclick", usage="dblclick REF", min_args=1, max_args=1, ref_args=(0,),
         help="Double-click the element.")
def dblclick_cmd(ctx, args, flags):
    return _result(actions.pointer(ctx.page, _resolve(ctx, args[0]), "dblclick"), ctx)


@command("hover", usage="hover REF", min_args=1, max_args=1, ref_args=(0,),
         help="Move the mouse over the element.")
def hover_cmd(ctx, args, flags):
    return _result(actions.pointer(ctx.page, _resolve(ctx, args[0]), "hover"))


@command("type", usage="type REF TEXT", min_args=2, max_args=2, rest="after_first", ref_args=(0,),
         help="Focus the element and type TEXT key by key.")
def type_cmd(ctx, args, flags):
    return _result(actions.type_text(ctx.page, _resolve(ctx, args[0]), args[1]))


@command("fill", usage="fill REF TEXT", min_args=1, max_args=2, rest="after_first", ref_args=(0,),
         help="Replace the field's value with TEXT.")
def fill_cmd(ctx, args, flags):
    return _result(actions.fill(ctx.page, _resolve(ctx, args[0]), args[1] if len(args) > 1 else ""))


@command("press", usage="press KEY", min_args=1, max_args=1,
         help="Press a key in the focused element (Enter, Tab, Escape, ArrowDown, Control+A, ...).")
def press_cmd(ctx, args, flags):
    return _result(actions.press(ctx.page, args[0]), ctx)


@command("select", usage="select REF VALUE...", min_args=2, max_args=None, ref_args=(0,),
         help="Choose options of a select element by value or visible label.")
def select_cmd(ctx, args, flags):
    return _result(actions.select(ctx.page, _resolve(ctx, args[0]), args[1:]))


@command("check", usage="check REF", min_args=1, max_args=1, ref_args=(0,),
         help="Check a checkbox, radio button or switch.")
def check_cmd(ctx, args, flags):
    return _result(actions.set_checked(ctx.page, _resolve(ctx, args[0]), True))


@command("uncheck", usage="uncheck REF", min_args=1, max_args=1, ref_args=(0,),
         help="Uncheck a checkbox or switch.")
def uncheck_cmd(ctx, args, flags):
    return _result(actions.set_checked(ctx.page, _resolve(ctx, args[0]), False))


@command("focus", usage="focus REF", min_args=1, max_args=1, ref_args=(0,),
         help="Give the element keyboard focus.")
def focus_cmd(ctx, args, flags):
    res = _resolve(ctx, args[0])
    actions.focus(ctx.page, res)
    return Result("action", {"action": "focus", "ref": res.text, "role": res.role, "name": res.name}, res.notes)


@command("scroll", usage="scroll REF|up|down", min_args=1, max_args=1, ref_args=(0,),
         help="Scroll the element into view, or the page up or down.")
def scroll_cmd(ctx, args, flags):
    target = args[0]
    if target in ("up", "down"):
        return _result(actions.scroll(ctx.page, None, target))
    if not target.startswith("c"):
        raise UsageError("Usage: scroll REF|up|down")
    return _result(actions.scroll(ctx.page, _resolve(ctx, target), None))
