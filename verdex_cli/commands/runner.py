"""The error boundary: run one command line and return an Outcome, never raise (start-up failures
come out like any command's: one line, one JSON object, one error kind)."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

from . import network_cmd, session_log
from . import REGISTRY, Result
from ..act import changes, choosers
from ..base.errors import BrowserLost, ErrorKind, ExitStatus, PageCrashed, VerdexError, error_json, exit_status, ok_json
from ..base.timing import Timings, phase, reporting
from ..browser.cdp import user_command
from ..refs import story
from .context import Workspace
from .registry import Parsed, redact_line


@dataclass
class Outcome:
    line: str
    ok: bool
    result: Result | None = None
    kind: str = ""
    message: str = ""
    elapsed_ms: float = 0.0
    trace: str = ""
    command: str = ""
    timings: list | None = None  # the command's phases (shown with --trace; 'timings' repeats the last)
    ran: bool = False  # the line parsed and its handler ran (a failure then exits 1: see exit_status)

    def as_json(self) -> dict:
        if self.ok and self.result is not None:
            out = ok_json(self.line, self.result.as_json(), self.elapsed_ms)
        else:
            out = error_json(self.line, self.kind, self.message, self.elapsed_ms)
        if self.timings is not None:
            out["trace"] = self.timings
        return out

    @property
    def exit_status(self) -> ExitStatus:
        return ExitStatus.OK if self.ok else exit_status(self.kind, self.ran)


def failure(line: str, exc: VerdexError, elapsed_ms: float = 0.0, trace: str = "") -> Outcome:
    return Outcome(line, False, kind=exc.kind, message=exc.message, elapsed_ms=elapsed_ms, trace=trace)


def parse_all(lines: list[str]) -> Outcome | None:
    """Parse every line with the registry; the first usage error as an Outcome, else None."""
    for line in lines:
        try:
            REGISTRY.parse(line)
        except VerdexError as exc:
            return failure(line, exc)
    return None


def execute(ctx: Workspace, line: str) -> Outcome:
    ctx.redact = False
    timings = Timings()
    ctx.step = None
    with timings.running():
        outcome = _execute(ctx, line)
    if ctx.redact:  # a password typed into a field: the line is never echoed (JSON, history)
        outcome.line, ctx.redact = redact_line(line), False
    _end_step(ctx, outcome)
    phases = timings.as_json() + [{"phase": "total", "ms": round(outcome.elapsed_ms, 2)}]
    if outcome.command != "timings":
        ctx.last_timings = {"command": outcome.line, "phases": phases}
    if ctx.trace:
        outcome.timings = phases
    return outcome


def _execute(ctx: Workspace, line: str) -> Outcome:
    start = time.perf_counter()
    name, ran = "", False
    try:
        parsed = REGISTRY.parse(line)
        name = parsed.command.name
        if parsed.command.needs_browser:
            with phase("browser start" if ctx.session is None else "browser check"):
                session = ctx.ensure_session()
                start = time.perf_counter()  # start-up is not the command's time
                if not session.chrome.alive():
                    raise BrowserLost()
        ran = True
        with user_command(), reporting(ctx.progress):  # only the user's own command may interrupt a
            result = _run(ctx, parsed)                  # runaway page script; waits are told to the REPL
        return Outcome(line, True, result, elapsed_ms=_ms(start), command=name)
    except VerdexError as exc:
        exc = _diagnose(ctx, exc)
        return Outcome(line, False, kind=exc.kind, message=exc.message + _stop_navigation(ctx, exc.kind), elapsed_ms=_ms(start),
                       trace=traceback.format_exc(), command=name, ran=ran)
    except KeyboardInterrupt:
        return Outcome(line, False, kind=ErrorKind.CANCELLED, message="Cancelled." + _stop_navigation(ctx, ErrorKind.CANCELLED), elapsed_ms=_ms(start),
                       command=name)
    except Exception as exc:  # the boundary: anything else is our bug, reported in one line
        return Outcome(line, False, kind=ErrorKind.INTERNAL, message=f"Internal error: {type(exc).__name__}: {exc}",
                       elapsed_ms=_ms(start), trace=traceback.format_exc(), command=name)


def _run(ctx: Workspace, parsed: Parsed) -> Result:
    session_log.begin(ctx)
    if parsed.command.needs_browser:
        _begin_step(ctx, parsed)
    ctx.before_command(parsed.command.effect)
    acting = ctx.page if parsed.command.effect == "action" else None
    # an action's changes (unless off): what it finds is read once its target is found (changes.looked)
    look = changes.Look(ctx.page_state(), acting) if acting is not None and ctx.show_changes else None
    mark = acting.netlog.mark() if acting is not None else None  # what the page does from here on
    try:
        result = _handle(ctx, parsed)
        if look is not None and result.kind == "action":
            ours, before, notes = changes.after_action(*look.watch, look.pre, parsed.command.name)
            result.data["changes"], result.data["changes_before"] = ours, before
            result.notes.extend(notes)
        if acting is not None and result.kind == "action":
            result.data["requests"], result.data["console"] = network_cmd.action_report(acting, mark)
    finally:
        if look is not None:
            look.end()
    if parsed.command.needs_browser and ctx.session is not None:  # tabs, dialogs, downloads, file choosers
        notes, extra = ctx.session.after_command()
        page = ctx.session.pages.get(ctx.session.current)
        if page is not None and page.frames.choosers:
            more, extra["file_choosers"] = choosers.report(page, ctx.page_state().store)
            notes += more
        result.notes.extend(notes)
        result.data.update(extra)
    session_log.record(ctx, parsed, result)  # for 'export'
    return result


def _begin_step(ctx: Workspace, parsed: Parsed) -> None:
    """The tab's log (refs/story.py) opens a step for the command, after what the page did by itself."""
    page = ctx.page
    store = ctx.page_state().store
    # (its line, redacted, at the end)
    store.begin_step(parsed.command.name, story.documents(page), parsed.command.effect == "read")
    ctx.step = (page, store)


def _end_step(ctx: Workspace, outcome: Outcome) -> None:
    """Close the command's step: its outcome, and the documents it changed."""
    if ctx.step is None:
        return
    page, store = ctx.step
    ctx.step = None
    step = store.log.current
    if step is not None:
        step.line = outcome.line
        step.message = "" if outcome.ok else outcome.message[:200]
    store.end_step("ok" if outcome.ok else outcome.kind, story.documents(page), page.reloaded_since)


def _handle(ctx: Workspace, parsed: Parsed) -> Result:
    try:
        return parsed.handler(ctx, parsed.args, parsed.flags)
    except BaseException:
        if ctx.session is not None:  # a question sent ahead is not this failure's: the next command asks anew
            ctx.session.drop_targets_asked()
        raise


# Failures that may really mean "the tab crashed" or "the browser is gone".
_SUSPECT = frozenset({ErrorKind.CONNECTION_LOST, ErrorKind.TIMEOUT, ErrorKind.CDP_ERROR})


def _diagnose(ctx: Workspace, exc: VerdexError) -> VerdexError:
    """Name the real cause of a lost connection or a time-out: a crashed tab or a gone browser."""
    session = ctx.session
    if session is None:
        return exc
    if exc.kind == ErrorKind.NAVIGATION_FAILED and "chrome://" in exc.message:
        return _crashed_by_navigation(session, exc)
    if exc.kind not in _SUSPECT:
        return exc
    try:
        if not session.chrome.reachable(timeout=1.0):
            return BrowserLost()
        page = session.pages.get(session.current)
        if page is not None and page.target.crashed:
            return PageCrashed()
    except Exception:  # diagnosis must never hide the original error
        return exc
    return exc


def _crashed_by_navigation(session, exc: VerdexError, wait: float = 1.0) -> VerdexError:
    """chrome://crash and friends abort the navigation; the crash itself is reported a moment later."""
    page = session.pages.get(session.current)
    deadline = time.monotonic() + wait
    while page is not None and time.monotonic() < deadline:
        if page.target.crashed:
            return PageCrashed()
        time.sleep(0.02)
    return exc


def _stop_navigation(ctx: Workspace, kind: str) -> str:
    """A timed-out or cancelled command leaves no navigation running (see Session.after_failure)."""
    try:
        return ctx.session.after_failure(kind) if ctx.session is not None else ""
    except (VerdexError, KeyboardInterrupt):
        return ""


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0
