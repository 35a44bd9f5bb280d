"""Wiring: options -> session -> REPL or one-shot run, with clean shutdown.

Every failure, start-up included, goes through the runner's error boundary and
comes out as an Outcome: one line (or one JSON object) and the contract's exit
code (:class:`~verdex_cli.errors.ExitStatus`).
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from .browser.launch import endpoint_host, is_loopback
from .browser.session import Options, Session
from .browser.urls import normalize_url
from .commands.context import Context
from .errors import ExitStatus, UsageError, VerdexError
from .render import Renderer
from .runner import Outcome, execute, failure, parse_all
from .snapshot.capture import bridge_source


@dataclass
class AppOptions:
    headed: bool = False
    chrome: str | None = None
    connect: str | None = None
    timeout: float = 10.0
    json_mode: bool = False
    no_color: bool = False
    debug: bool = False
    pager: bool = True
    downloads: str | None = None
    trace: bool = False


def make_context(opts: AppOptions) -> Context:
    session_opts = Options(headless=not opts.headed, chrome=opts.chrome, connect=opts.connect, timeout=opts.timeout,
                           downloads=opts.downloads)
    ctx = Context(lambda: Session.start(session_opts, init_script=bridge_source()))
    ctx.trace = opts.trace
    return ctx


def make_renderer(opts: AppOptions) -> Renderer:
    return Renderer(json_mode=opts.json_mode, color=not opts.no_color, debug=opts.debug)


def warn_remote_endpoint(opts: AppOptions, renderer: Renderer) -> None:
    """DevTools gives full control of a browser, unencrypted: say so when it is not on this machine."""
    if opts.connect and not is_loopback(opts.connect):
        renderer.warn(f"Warning: {endpoint_host(opts.connect) or opts.connect} is not this machine; the DevTools "
                      "connection is unencrypted and gives full control of that browser.")


def open_first(ctx: Context, url: str) -> Outcome:
    """Start the browser and open the first URL, inside the error boundary."""
    line = "open " + url
    try:
        target = normalize_url(url)  # a missing local file fails before a browser starts
    except VerdexError as exc:
        return failure(line, exc)
    outcome = execute(ctx, "open " + shlex.quote(target))
    outcome.line = line
    return outcome


def read_script(script: str) -> list[str]:
    try:
        text = sys.stdin.read() if script == "-" else Path(script).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageError(f"Cannot read script {script}: {reason}") from exc
    return script_lines(text)


def script_lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def run_oneshot(opts: AppOptions, url: str, lines: list[str], keep_going: bool, script: str | None = None) -> int:
    renderer = make_renderer(opts)
    lines = list(lines)
    if script is not None:
        try:
            lines += read_script(script)
        except VerdexError as exc:
            renderer.show(failure("--script " + script, exc))
            return ExitStatus.USAGE
    bad = parse_all(lines)  # every line is checked before a browser starts
    if bad is not None:
        renderer.show(bad)
        return ExitStatus.USAGE
    warn_remote_endpoint(opts, renderer)
    ctx = make_context(opts)
    try:
        nav = open_first(ctx, url)
        if not nav.ok:
            renderer.show(nav)
            return nav.exit_status
        return run_lines(ctx, renderer, lines, keep_going)
    finally:
        ctx.close()


def run_lines(ctx: Context, renderer: Renderer, lines: list[str], keep_going: bool) -> int:
    failed = False
    for line in lines:
        outcome = execute(ctx, line)
        renderer.show(outcome)
        if not outcome.ok:
            failed = True
            if not keep_going:
                break
        if ctx.quit_requested:
            break
    return ExitStatus.FAILED if failed else ExitStatus.OK


def run_repl(opts: AppOptions, url: str | None) -> int:
    renderer = make_renderer(opts)
    warn_remote_endpoint(opts, renderer)
    ctx = make_context(opts)
    server = None
    try:
        if url is None:
            from .demo_server import serve

            server = serve()
            url = server.url("index.html")
        interactive = sys.stdin.isatty()
        nav = open_first(ctx, url)
        if ctx.session is None or not interactive and not nav.ok:
            renderer.show(nav)  # no browser at all, or a script whose first step failed
            return nav.exit_status
        renderer.show(nav)
        if not interactive:
            return run_lines(ctx, renderer, script_lines(sys.stdin.read()), keep_going=False)
        from .repl.app import Repl

        ctx.interactive = True
        return Repl(ctx, renderer, pager=opts.pager and sys.stdout.isatty()).loop()
    finally:
        ctx.close()
        if server is not None:
            server.stop()
