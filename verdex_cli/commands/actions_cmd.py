"""Actions on refs: click, dblclick, hover, type, fill, press, select, check, uncheck, upload, focus, scroll."""

from __future__ import annotations

import os
from contextlib import suppress

from ..act import actions, changes, fields, pointer
from ..act.actionability import Ahead
from ..act.keys import parse_key
from ..act.resolve import resolve
from ..act.targets import parse_target, quote_word, resolve_target
from ..base.errors import CDPError, ConnectionLost, NotActionable, UsageError, VerdexError
from ..base.timing import phase
from ..base.env_text import env_text
from .registry import Result, command, forms
from .session_log import note_target
from .signature import CHECKABLE, CHOOSERS, TEXT_FIELDS


def resolve_arg(ctx, raw, pointer_action: str | None = None):
    """The action's element. ``pointer_action`` (click, dblclick, hover): its first actionability check
    goes with the resolution, in one round trip (actionability.Ahead)."""
    page = ctx.page
    store = ctx.page_state().store
    ahead = Ahead(page, store, raw, arm=pointer_action != "hover") if pointer_action else None
    try:
        with phase("resolve"):
            res = resolve_target(ctx.session, page, store, raw)
        changes.looked(page)  # (a ref's check went with it; a target's search has read it before its ref)
        with phase("stable locator"):
            note_target(ctx, res, raw, ahead.locating_for(res) if ahead is not None else None)  # for 'export'
        if ahead is not None:
            with phase("wait actionable"):
                res.prepared = ahead.take(res)
    finally:
        if ahead is not None:
            ahead.drop()
    drawn = res.prepared is not None and res.prepared.get("status") != "check"  # the tab draws: in front
    if not drawn:
        res.notes[:0] = _front(ctx)
    return res


def _front(ctx) -> list[str]:
    """An action on a tab that is not in front acts as on the front tab: it is brought there first (its
    target found, or it has none: the look before it is read first, changes.looked)."""
    changes.looked(ctx.page)
    note = ctx.page.ensure_front()
    return [note] if note else []


def _act(ctx, fn, res, *args):
    """Run the action on its resolved element; a frame whose connection ends meanwhile, or a protocol
    call that fails because the ref's document went away (a frame above it navigated during the
    action), is reported as the ref's own status, not as a lost connection or a raw protocol error."""
    try:
        return fn(ctx.page, res, *args)
    except (ConnectionLost, CDPError) as exc:
        lost = isinstance(exc, ConnectionLost)
        if lost and (res.frame.parent is None or not ctx.page.target.alive):
            raise
        with suppress(CDPError):
            resolve(ctx.session, ctx.page, ctx.page_state().store, res.text)  # raises navigated or removed when so
        if not lost:
            raise
        raise NotActionable(f"Element {res.label} is not actionable: its frame went away during the "
                            "action.") from None


def _result(out: dict, front: list[str] = ()) -> Result:
    """An action's result; ``front``: the notes said before its own (the tab brought to the front)."""
    return Result("action", out, [*front, *out.pop("notes", [])])


def _text_action(ctx, args, verb, act) -> Result:
    """fill/type with TEXT as given, or with `--env VAR` the value of VAR in the environment of whoever
    asked (a session's client sends its own), masked like a password in the result and in errors."""
    text = args[1] if len(args) > 1 else ""
    var = env_text(text)
    if var is None:
        res = resolve_arg(ctx, args[0])
        _split_guard(verb, args[0], res, text)
        if text and fields.is_password(ctx.page, res):  # a password: the command line is not echoed or kept
            ctx.redact = True
        return _result(_act(ctx, act, res, text, ctx.session))
    environ = os.environ if ctx.environ is None else ctx.environ
    if var not in environ:
        raise UsageError(f"{verb} {args[0]} --env {var}: the environment variable {var} is not set.")
    secret = environ[var]
    try:
        out = _act(ctx, act, resolve_arg(ctx, args[0]), secret, ctx.session)
    except VerdexError as exc:
        exc.message = _masked(exc.message, secret)
        exc.args = (exc.message,)
        raise
    out = _masked(out, secret)
    out.update(value=fields.MASK if out.get("value") else out.get("value"), masked=True, env=var)
    return _result(out)


def _masked(value, secret: str):
    """``value`` (a result's data, or a message) with every occurrence of ``secret`` shown as the mask."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, fields.MASK)
    if isinstance(value, dict):
        return {k: _masked(v, secret) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_masked(v, secret) for v in value)
    return value


def _split_guard(verb: str, raw: str, res, text: str) -> None:
    """`fill label=First name Ada` splits as `label=First` + `name Ada`; when the element found goes on
    with the text's first words ("First name"), that was not meant: refuse, with the quoted line."""
    t = parse_target(raw)
    if t.kind == "ref" or raw.lstrip()[:1] in "'\"" or raw.startswith("role="):
        return
    wanted = " ".join((t.name if t.kind == "role" else t.value or "").split()).lower()
    name = " ".join(res.name.split()).lower()
    at = name.find(wanted) if wanted else -1
    if at < 0 or not name[at + len(wanted):].startswith(" "):
        return
    after, words = name[at + len(wanted):].split(), text.split()
    k = 0
    while k < min(len(after), len(words)) and words[k].lower() == after[k]:
        k += 1
    if k == 0:
        return
    line = f"{verb} {quote_word(raw + ' ' + ' '.join(words[:k]))} {' '.join(words[k:])}".rstrip()
    raise UsageError(f"Target '{raw}' found {res.label}, whose name goes on with the text's first "
                     f"word{'s' if k > 1 else ''}: quote a target with spaces ({line}), or use the ref to "
                     "type this text as given.")


def _pointer_cmd(action: str):
    def run(ctx, args, flags):
        return _result(_act(ctx, pointer.pointer, resolve_arg(ctx, args[0], action), action, ctx.session))
    return run


for _action, _help in (("click", "Click the element with a real mouse event."), ("dblclick", "Double-click the element."),
                       ("hover", "Move the mouse over the element.")):
    command(_action, group="actions", params="REF", help=_help, effect="action")(_pointer_cmd(_action))


@command("type", group="actions", params="REF TEXT", accepts=TEXT_FIELDS,
         help="Focus the field (verified) and type TEXT key by key at the end of its text ('--env VAR': "
              "the value of VAR, masked).", effect="action")
def type_cmd(ctx, args, flags):
    return _text_action(ctx, args, "type", fields.type_text)


@command("fill", group="actions", params="REF TEXT", accepts=TEXT_FIELDS, min_args=1,
         help="Replace the field's value with TEXT (text fields by typing, date/color/range like a picker; "
              "'--env VAR': the value of VAR, masked).",
         effect="action")
def fill_cmd(ctx, args, flags):
    return _text_action(ctx, args, "fill", fields.fill)


@command("press", group="actions", params="[REF] KEY",
         help="Press a key (Enter, Tab, Escape, ArrowDown, Control+A, ...) in the element, or in the focused one.",
         effect="action")
def press_cmd(ctx, args, flags):
    key = args.values["key"]
    parse_key(key)  # a bad key name fails before anything happens
    res = resolve_arg(ctx, args.values["ref"]) if "ref" in args.values else None
    front = [] if res is not None else _front(ctx)
    return _result(fields.press(ctx.page, res, key, ctx.session), front)


@command("select", group="actions", params="REF VALUE...", accepts=CHOOSERS,
         help="Choose options of a select element by value or visible label (values may start with --).",
         effect="action")
def select_cmd(ctx, args, flags):
    return _result(_act(ctx, actions.select, resolve_arg(ctx, args[0]), args[1:], ctx.session))


def _checks(want: bool):
    return lambda ctx, args, flags: _result(_act(ctx, actions.set_checked, resolve_arg(ctx, args[0]), want,
                                                 ctx.session))


command("check", group="actions", params="REF", accepts=CHECKABLE, effect="action",
        help="Check a checkbox, radio button or switch.")(_checks(True))
command("uncheck", group="actions", params="REF", accepts=CHECKABLE, effect="action",
        help="Uncheck a checkbox or switch.")(_checks(False))


@command("upload", group="actions", params="REF PATH...",
         help="Choose files for a file input (several only if it accepts multiple files).", effect="action")
def upload_cmd(ctx, args, flags):
    paths = fields.check_paths(args[1:])  # a bad path fails before anything happens
    return _result(_act(ctx, fields.upload, resolve_arg(ctx, args[0]), paths, ctx.session))


@command("focus", group="actions", params="REF",
         help="Give the element keyboard focus.", effect="action")
def focus_cmd(ctx, args, flags):
    res = resolve_arg(ctx, args[0])
    actions.focus(ctx.page, res, "focused").close()
    return Result("action", {"action": "focus", "ref": res.text, "role": res.role, "name": res.name}, res.notes)


def scroll_to(ctx, args, flags):
    return _result(_act(ctx, actions.scroll, resolve_arg(ctx, args.values["ref"]), None))


def scroll_page(ctx, args, flags):
    front = _front(ctx)
    return _result(actions.scroll(ctx.page, None, args.values["action"]), front)


forms("scroll", {"REF": scroll_to, "up|down": scroll_page}, group="actions", effect="action",
      help="Scroll the element into view, or the page up or down.")
