"""fill, type, press and upload: keyboard and file input that only ever reaches the ref's own element.

Text fields get trusted input (select all + ``Input.insertText``, or key events); pickers (range, color,
date, ...) their value set as a picker sets it; file inputs files. Every result carries the value read
back afterwards; a password's value is never echoed (:data:`MASK`).
"""

from __future__ import annotations

from contextlib import suppress
import os
from pathlib import Path

from ..base.errors import CDPError, ErrorKind, JSError, NotActionable, NotApplied, UsageError
from ..browser import timer_watch
from ..browser.page import Page
from ..browser.session import Session
from .actions import focus
from .focus import element_object, label_of, where_focus
from .keys import char_events, parse_key
from .readback import RERENDERED, FieldWatch, after_input, settle_page, still_changing
from .resolve import Resolved
from .targets import quoted

MASK = "••••••"  # shown instead of a password's value, always the same length

FORMATS = {
    "date": "YYYY-MM-DD, e.g. 2024-05-31",
    "time": "HH:MM or HH:MM:SS (24-hour), e.g. 13:45",
    "datetime-local": "YYYY-MM-DDTHH:MM, e.g. 2024-05-31T13:45",
    "month": "YYYY-MM, e.g. 2024-05",
    "week": "YYYY-Www, e.g. 2024-W22",
    "color": "#rrggbb, e.g. #3366ff",
    "range": "a number",
}

HINTS = {  # a field kind the text verbs refuse -> (what it is, when not its input type; the command to use)
    "checkable": ("", "use 'check {ref}' or 'uncheck {ref}'"),
    "select": ("a select element", "use 'select {ref} VALUE'"),
    "button": ("a button", "use 'click {ref}'"),
    "file": ("a file input", "use 'upload {ref} PATH...'"),
}


def field_info(page: Page, res: Resolved) -> dict:
    info, res.field = res.field or page.bridge.field_info(res.frame, res.ref.n), None
    if info.get("status") == "removed":
        raise NotActionable(f"Element {res.label} was removed.", kind=ErrorKind.REMOVED)
    if info.get("status") != "ok":
        raise NotActionable(f"Element {res.label} is no longer known to the page. Take a new snapshot.")
    return info


def is_password(page: Page, res: Resolved) -> bool:
    res.field = field_info(page, res)  # kept for the action's own first look
    return bool(res.field.get("password"))


def _shown(info: dict, value):
    return MASK if info.get("password") and value else value


def _base(action: str, res: Resolved, info: dict, value) -> dict:
    out = {"action": action, "ref": res.text, "role": res.role, "name": res.name, "value": _shown(info, value)}
    if info.get("password"):
        out["masked"] = True
    return out


ROLE_HINTS = {  # custom widgets that take keys or clicks instead of text
    "slider": "; use 'press {ref} ArrowRight' (or ArrowLeft, Home, End) to move it",
    "spinbutton": "; use 'press {ref} ArrowUp' or ArrowDown",
    "combobox": "; use 'click {ref}' to open it, then click an option",
    "listbox": "; click an option",
}


def _refuse_kind(res: Resolved, info: dict, verb: str, done: str) -> None:
    """Refuse fields this verb cannot act on (``done``: its past participle), naming the role and the
    right command."""
    kind = info["kind"]
    if kind in HINTS:
        what, hint = HINTS[kind]
        raise NotActionable(f"Element {res.label} is {what or 'a ' + info['type']}, not a text field; "
                            f"{hint.format(ref=res.text)}.")
    if kind == "none":
        role = info["role"]
        hint = ROLE_HINTS.get(role, "").format(ref=res.text)
        raise NotActionable(f"Element {res.label} is not an editable field ({role}); {verb} works on text inputs, "
                            f"textareas, contenteditable elements and picker inputs{hint}.")
    if info.get("readonly"):
        raise NotActionable(f"Element {res.label} is read-only; nothing was {done}.")
    if info.get("disabled"):
        raise NotActionable(f"Element {res.label} is disabled; nothing was {done}.")


def _value(page: Page, res: Resolved):
    return page.bridge.field_value(res.frame, res.ref.n)


def _read_back(action: str, page: Page, res: Resolved, info: dict, watch: FieldWatch, nav_before: int,
               grace: float | None, wanted: str, session: Session) -> dict:
    """The result of a fill or type: the value once the page settled, compared with the value the
    browser gave at the last input and with ``wanted``."""
    value, browser = _value(page, res), None
    nav = after_input(page, nav_before, grace, session=session)
    back = watch.read()
    if back is None and watch.removed:
        value, nav = None, [GONE] + nav
    elif back is not None:
        if not watch.settled:
            nav = [still_changing(page)] + nav
        if back.get("replaced"):
            nav = [RERENDERED] + nav
        value, browser = back["now"], (back["seen"][-1] if back["seen"] else None)
    out = _base(action, res, info, value)
    out["notes"] = list(res.notes) + _value_notes(info, value, wanted, browser) + nav
    return out


GONE = ("The page removed the field after the input, and no field like it (same name, same place) took its "
        "place: what it holds could not be read back.")


def _value_notes(info: dict, value, wanted: str, browser) -> list[str]:
    """The page changed what the browser entered (read after the page settled), or the field holds
    something else than asked for another reason (maxlength, the input type)."""
    if browser is not None and value is not None and value != browser:
        return [f"The page changed the value to {quoted(_shown(info, value))}."]
    if value is None or value == wanted:
        return []
    if info.get("password"):
        return ["The field holds a different value than the one entered (maxlength, a mask or the page "
                "changed it); not shown, it is a password."]
    return [f"The field now holds {value!r}, not {wanted!r} (maxlength, a mask, the input type or the page "
            "changed what was entered)."]


def fill(page: Page, res: Resolved, text: str, session: Session) -> dict:
    info = field_info(page, res)
    _refuse_kind(res, info, "fill", "filled")
    if info["kind"] == "picker":
        return _fill_picker(page, res, info, text)
    nav_before = page.nav_count
    with FieldWatch(page, res) as watch, focus(page, res, "filled") as f:
        f.arm()
        if not page.bridge.select_all(res.frame, res.ref.n):
            raise NotActionable(f"Element {res.label} is not a text field.")
        if text:
            f.insert(text, "Nothing was filled")
        else:
            f.keys(parse_key("Delete").events(), "Nothing was filled")
    return _read_back("fill", page, res, info, watch, nav_before, 0, text, session)


def _fill_picker(page: Page, res: Resolved, info: dict, text: str) -> dict:
    kind = info["type"]
    check = page.bridge.check_picker(res.frame, res.ref.n, text)
    if not check.get("ok"):
        raise UsageError(_picker_problem(res, info, text, check))
    with focus(page, res, "filled"):
        nav_before = page.nav_count
        loader = res.frame.loader_id
        out = page.bridge.set_picker(res.frame, res.ref.n, check["value"], timer_watch.KEY)
    if out.get("status") != "ok":
        raise NotActionable(f"Element {res.label} was removed.", kind=ErrorKind.REMOVED)
    value, browser = out["value"], out.get("set")
    nav = page.settle_after_action(nav_before, grace=0)
    if not settle_page(page):
        nav = [still_changing(page)] + nav
    if not res.frame.detached and res.frame.loader_id == loader:
        with suppress(CDPError, JSError):
            value = _value(page, res)
    result = _base("fill", res, info, value)
    notes = list(res.notes) + [f"Set like a picker would: the {kind} input's value was set, then input and "
                               "change events fired (no keys were typed)."]
    result["notes"] = notes + _value_notes(info, value, check["value"], browser) + nav
    return result


def _picker_problem(res: Resolved, info: dict, text: str, check: dict) -> str:
    kind, why = info["type"], check.get("reason")
    head = f"Cannot fill {res.label}, a {kind} input, with {text!r}"
    if why == "empty":
        return f"{head}: a {kind} input cannot be empty. Expected {FORMATS[kind]}."
    if kind == "range" or why == "range":
        if why == "format":
            return f"{head}: expected a number from {info.get('min') or 0} to {info.get('max') or 100}."
        return (f"{head}: expected a number from {check.get('min')} to {check.get('max')} "
                f"in steps of {check.get('step')}.")
    if why == "limits":
        return f"{head}: it must be between {check.get('min') or '(no minimum)'} and {check.get('max') or '(no maximum)'}."
    if why == "step":
        return f"{head}: it does not match the input's step ({check.get('step')})."
    return f"{head}: expected {FORMATS.get(kind, 'a valid value')}."


def type_text(page: Page, res: Resolved, text: str, session: Session) -> dict:
    info = field_info(page, res)
    _refuse_kind(res, info, "type", "typed")
    if info["kind"] == "picker":
        raise NotActionable(f"Element {res.label} is a {info['type']} input: typing does not append to it; "
                            f"use 'fill {res.text} VALUE' ({FORMATS[info['type']]}).")
    nav_before = page.nav_count
    with FieldWatch(page, res) as watch, focus(page, res, "typed") as f:
        f.arm()
        before = _value(page, res) or ""
        place = page.bridge.caret_to_end(res.frame, res.ref.n)
        if place == "key":
            f.keys(parse_key("End").events(), "Nothing was typed")
        try:
            for i, ch in enumerate(text):
                f.keys(char_events(ch), "Nothing was typed" if i == 0 else f"Stopped after {i} of {len(text)} characters")
        except NotApplied as exc:  # the page re-rendered or removed the field on the way, and focus left it
            raise NotApplied(f"{exc} {_holds(page, res, info)}") from None
    return _read_back("type", page, res, info, watch, nav_before, None, before + text, session)


def _holds(page: Page, res: Resolved, info: dict) -> str:
    """What the field (or the one the page put in its place) holds now, in words."""
    value = _value(page, res)
    if value is None:
        return "What went in could not be read back."
    return f"The field now holds {quoted(_shown(info, value))}."


def press(page: Page, res: Resolved | None, spec: str, session: Session) -> dict:
    key = parse_key(spec)
    nav_before = page.nav_count
    if res is None:
        who, fr = where_focus(page)
        where = label_of(page, fr, who)
        for ev in key.events():
            page.target.call("Input.dispatchKeyEvent", **ev)
        out = {"action": "press", "key": spec, "ref": f"{page.prefix}f{fr.index}e{who['n']}" if who.get("n") else None,
               "role": who.get("role"), "name": who.get("name")}
        out["notes"] = [f"Sent to {where}."] + after_input(page, nav_before, session=session)
        return out
    with focus(page, res, "pressed") as f:
        f.arm()
        f.keys(key.events(), "Nothing was pressed")
    return {"action": "press", "key": spec, "ref": res.text, "role": res.role, "name": res.name,
            "notes": list(res.notes) + after_input(page, nav_before, session=session)}


def check_paths(paths: list[str]) -> list[Path]:
    """Every path must be a readable regular file; one clear usage error otherwise."""
    out = []
    for raw in paths:
        p = Path(raw).expanduser()
        if not p.exists():
            raise UsageError(f"No such file: {raw}")
        if p.is_dir():
            raise UsageError(f"{raw} is a directory; upload takes files.")
        if not p.is_file() or not os.access(p, os.R_OK):
            raise UsageError(f"Cannot read {raw}.")
        out.append(p.resolve())
    return out


def upload(page: Page, res: Resolved, paths: list[Path], session: Session) -> dict:
    info = field_info(page, res)
    if info["kind"] != "file":
        raise NotActionable(f"Element {res.label} is a {info['role']}, not a file input; upload works on "
                            "<input type=file>.")
    if info.get("disabled"):
        raise NotActionable(f"Element {res.label} is disabled; no file was chosen.")
    if len(paths) > 1 and not info.get("multiple"):
        raise UsageError(f"Element {res.label} takes one file, not {len(paths)} (it has no 'multiple' attribute).")
    nav_before = page.nav_count
    with element_object(page, res, f"Element {res.label} was removed.") as obj:
        try:
            res.frame.target.call("DOM.setFileInputFiles", files=[str(p) for p in paths], objectId=obj)
        except CDPError as exc:
            raise NotActionable(f"Could not set the files of {res.label}: {exc.details.get('detail', exc)}.") from exc
    names = page.bridge.files(res.frame, res.ref.n)
    if names != [p.name for p in paths]:
        raise NotApplied(f"Element {res.label} holds {names or 'no files'} instead of the files given "
                         "(the page replaced or cleared them).")
    return {"action": "upload", "ref": res.text, "role": res.role, "name": res.name, "files": names,
            "notes": list(res.notes) + [f"The input now holds {', '.join(map(repr, names))}."]
            + after_input(page, nav_before, session=session)}

