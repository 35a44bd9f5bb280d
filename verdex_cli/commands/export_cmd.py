"""export FILE: the session's successful actions as a verdex script (or, for FILE.py, a Playwright test)."""

from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

from ..act.targets import quote_word, quoted
from ..base.errors import UsageError
from ..refs.store import describe
from .network_cmd import write_file
from .registry import REGISTRY, Result, command
from .session_log import settle


def _missing(step: dict) -> str:
    return (f"no stable target was found for {describe(step.get('role', ''), step.get('name', ''))} "
            f"({step.get('ref')})")


def to_script(steps: list[dict], path: str = "FILE") -> tuple[str, int]:
    lines, missing = [], 0
    for step in steps:
        words = [shlex.quote(a) for a in step["args"]]
        if "target" in step:
            if not step["target"]:
                missing += 1
                lines.append(f"# {_missing(step)}: this line only works in the same session")
            words[step["at"]] = quote_word(step["target"]) if step["target"] else step["ref"]
        if step["secret"] and not step.get("env"):
            lines.append("# The password is not exported: replace PASSWORD with the real value.")
        lines.append(" ".join([step["command"], *step["flags"], *words]))
    start = next((s["args"][0] for s in steps if s["command"] == "open"), "URL")
    head = [f"# verdex script: {len(steps)} steps exported {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
            f"# Replay: verdex run {shlex.quote(start)} --script {shlex.quote(path)}"]
    return "\n".join(head + lines) + "\n", missing


NAVIGATION = {"open": "page.goto({url})", "back": "page.go_back()", "forward": "page.go_forward()",
              "reload": "page.reload()"}
WAITS = {"MS": "page.wait_for_timeout({ms})", "text TEXT": "wait_for_text(page, {text})",
         "url TEXT": "page.wait_for_url(re.compile(re.escape({text})))", "REF": "{loc}.wait_for()",
         "gone REF": '{loc}.wait_for(state="hidden")'}


def _py_step(step: dict) -> list[str]:
    """A step as Playwright code (what it is: its command's declared forms, and the form its words fill)."""
    cmd, args, loc = step["command"], step["args"], step.get("playwright")
    if "target" in step and not loc:
        return [f"# not exported: {_missing(step)}: {cmd} {' '.join(args[1:])}".rstrip()]
    if cmd in NAVIGATION:
        return [NAVIGATION[cmd].format(url=quoted(args[0]) if args else "")]
    if REGISTRY.get(cmd).signature.forms == ("REF",):  # click, dblclick, hover, focus, check, uncheck
        return [f"{loc}.{cmd}()"]
    verb = {"fill": "fill", "type": "press_sequentially"}.get(cmd)
    if verb and step.get("env"):
        return [f"{loc}.{verb}(os.environ[{quoted(step['env'])}])"]
    if verb:
        text = ("os.environ.get(\"VERDEX_PASSWORD\", \"PASSWORD\")" if step["secret"]
                else quoted(args[1] if len(args) > 1 else ""))
        out = ["# The password is not exported: set VERDEX_PASSWORD to the real value."] if step["secret"] else []
        return out + [f"{loc}.{verb}({text})"]
    if cmd == "press":
        return [f"{loc}.press({quoted(args[-1])})" if loc else f"page.keyboard.press({quoted(args[-1])})"]
    if cmd == "select":
        return [f"{loc}.select_option([{', '.join(quoted(v) for v in args[1:])}])"]
    if cmd == "upload":  # the files as the session found them (the test may run elsewhere)
        return [f"{loc}.set_input_files([{', '.join(quoted(os.path.abspath(v)) for v in args[1:])}])"]
    if cmd == "scroll":
        return [f"{loc}.scroll_into_view_if_needed()" if loc else
                f"page.mouse.wheel(0, {'-' if args[0] == 'up' else ''}600)"]
    fit = REGISTRY.get("wait").signature.match(args) if cmd == "wait" else None
    if fit is not None and (loc or "REF" not in fit.form):
        return [WAITS[fit.form].format(loc=loc, ms=fit.values.get("ms"), text=quoted(fit.values.get("text", "")))]
    return [f"# not exported: {cmd} {' '.join(args)}"]


PY_HEAD = '''"""Playwright test exported by verdex: {n} steps of a session ({when}).

Run it with pytest (Playwright for Python installed). VERDEX_CHROME may name the browser to use.
"""

import os
import re
import shutil
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api")


def wait_for_text(page, text, timeout=30.0):
    """verdex's `wait text`: the text shown in any frame of the page (cross-origin frames too)."""
    deadline = time.monotonic() + timeout
    while not any(f.get_by_text(text).nth(i).is_visible() for f in page.frames
                  for i in range(f.get_by_text(text).count())):
        assert time.monotonic() < deadline, f"{{text!r}} did not appear in {{timeout}} s"
        page.wait_for_timeout(100)


def _browser_path():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def test_session():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("VERDEX_CHROME") or _browser_path())
        page = browser.new_page()
        try:
'''


def to_python(steps: list[dict]) -> tuple[str, int]:
    body = []
    missing = 0
    for step in steps:
        lines = _py_step(step)
        missing += any(ln.startswith("# not exported") for ln in lines)
        body += lines
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = PY_HEAD.format(n=len(steps), when=when) + "".join(f"            {ln}\n" for ln in body)
    return text + "        finally:\n            browser.close()\n", missing


@command("export", params="FILE", needs_browser=False,
         help="Write the session's successful actions as a verdex script with stable targets (FILE.py: a "
              "Playwright test).", effect="read")
def export_cmd(ctx, args, flags):
    settle(ctx.log)  # choices left for export (tabs with several frames)
    steps = list(ctx.log)
    if not steps:
        raise UsageError("Nothing to export yet: no action of this session has succeeded.")
    path = Path(args[0]).expanduser()
    python = path.suffix == ".py"
    text, missing = to_python(steps) if python else to_script(steps, str(path))
    write_file(str(path), text.encode("utf-8"), parents=False)
    notes = [f"{missing} steps have no stable target (see the comments in the file)."] if missing else []
    if any(s["secret"] and not s.get("env") for s in steps):
        notes.append("Password values were not written (a placeholder and a comment instead).")
    return Result("export", {"path": str(path), "format": "playwright" if python else "script", "steps": len(steps),
                             "without_target": missing}, notes)
