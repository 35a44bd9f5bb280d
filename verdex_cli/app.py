"""Wiring: options -> session -> REPL or one-shot run, with clean shutdown."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .browser.session import Options, Session
from .browser.urls import normalize_url
from .commands.context import Context
from .errors import BrowserNotFound, VerdexError
from .render import Renderer
from .runner import execute
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
    downloads: str | None = None


def make_context(opts: AppOptions) -> Context:
    session_opts = Options(headless=not opts.headed, chrome=opts.chrome, connect=opts.connect, timeout=opts.timeout,
                           downloads=opts.downloads)
    return Context(lambda: Session.start(session_opts, init_script=bridge_source()))


def _start(ctx: Context, renderer: Renderer) -> int | None:
    """Start the browser; on failure print one line and return the exit code."""
    try:
        ctx.ensure_session()
    except BrowserNotFound as exc:
        renderer.error(exc.message)
        return 2
    except VerdexError as exc:
        renderer.error(exc.message)
        return 1
    return None


def _start_at(ctx: Context, renderer: Renderer, url: str):
    """Check the URL, start the browser and open it: (exit code, None) on failure, else (0, outcome)."""
    try:
        target = normalize_url(url)
    except VerdexError as exc:
        renderer.error(exc.message)
        return 2, None
    code = _start(ctx, renderer)
    if code is not None:
        return code, None
    return 0, execute(ctx, "open " + _quote(target))


def run_oneshot(opts: AppOptions, url: str, lines: list[str], keep_going: bool) -> int:
    renderer = Renderer(json_mode=opts.json_mode, color=not opts.no_color, debug=opts.debug)
    ctx = make_context(opts)
    try:
        code, nav = _start_at(ctx, renderer, url)
        if nav is None:
            return code
        if not nav.ok:
            if opts.json_mode:
                renderer.show(nav)
            else:
                renderer.error(nav.message)
            return 1
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
    return 1 if failed else 0


def run_repl(opts: AppOptions, url: str | None) -> int:
    renderer = Renderer(json_mode=opts.json_mode, color=not opts.no_color, debug=opts.debug)
    ctx = make_context(opts)
    server = None
    try:
        if url is None:
            from .demo_server import serve

            server = serve()
            url = server.url("index.html")
        code, nav = _start_at(ctx, renderer, url)
        if nav is None:
            return code
        renderer.show(nav)
        if not sys.stdin.isatty():
            lines = [ln.strip() for ln in sys.stdin.read().splitlines()
                     if ln.strip() and not ln.strip().startswith("#")]
            return run_lines(ctx, renderer, lines, keep_going=False)
        from .repl.app import Repl

        return Repl(ctx, renderer).loop()
    finally:
        ctx.close()
        if server is not None:
            server.stop()


def _quote(url: str) -> str:
    import shlex

    return shlex.quote(url)
