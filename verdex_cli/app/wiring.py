"""Wiring: options -> session -> REPL or one-shot run, with clean shutdown. Every failure, start-up
included, comes out of the runner's error boundary as an Outcome (one line or JSON object, an exit code)."""

from __future__ import annotations

import itertools
import os
import shlex
import sys
from dataclasses import dataclass
from typing import Iterable

from ..base.errors import ErrorKind, ExitStatus, VerdexError, exit_status
from ..browser.launch import endpoint_host, is_loopback
from ..browser.session import Options, Session
from ..browser.urls import normalize_url
from ..commands.context import Workspace
from ..commands.runner import Outcome, execute, failure, parse_all
from ..ui.render import Renderer
from ..base.script_input import live_lines, read_script


@dataclass
class AppOptions(Options):
    """The browser session's launch/connect options (:class:`~verdex_cli.browser.session.Options`, the one
    owner of those fields) plus what the command line adds around them."""

    json_mode: bool = False
    no_color: bool = False
    debug: bool = False
    pager: bool = True
    trace: bool = False
    changes: bool = True  # actions report what they changed (--no-changes: off)

    def __post_init__(self):
        """$VERDEX_CONNECT stands for --connect when it is not given; $VERDEX_CONNECT_HEADERS adds its
        headers, one 'Name: value' a line (secrets stay out of the command line, where `ps` shows them)."""
        self.connect = self.connect or os.environ.get("VERDEX_CONNECT") or None
        extra = [h.strip() for h in os.environ.get("VERDEX_CONNECT_HEADERS", "").splitlines() if h.strip()]
        self.headers = tuple(dict.fromkeys([*(self.headers or ()), *extra]))  # (once: a session server rebuilds us)


def make_workspace(opts: AppOptions) -> Workspace:
    ctx = Workspace(lambda: Session.start(opts))  # (the session reads the fields of Options only)
    ctx.trace = opts.trace
    ctx.show_changes = opts.changes
    return ctx


def make_renderer(opts: AppOptions) -> Renderer:
    return Renderer(json_mode=opts.json_mode, color=not opts.no_color, debug=opts.debug)


def warn_remote_endpoint(opts: AppOptions, renderer: Renderer) -> None:
    """DevTools gives full control of a browser, unencrypted: say so when it is not on this machine."""
    if opts.connect and not is_loopback(opts.connect):
        encrypted = opts.connect.strip().lower().startswith(("wss://", "https://"))
        renderer.warn(f"Warning: {endpoint_host(opts.connect) or opts.connect} is not this machine; the DevTools "
                      f"connection{'' if encrypted else ' is unencrypted and'} gives full control of that browser.")


def open_first(ctx: Workspace, url: str) -> Outcome:
    """Start the browser and open the first URL, inside the error boundary."""
    line = "open " + url
    try:
        target = normalize_url(url)  # a missing local file fails before a browser starts
    except VerdexError as exc:
        return failure(line, exc)
    outcome = execute(ctx, "open " + shlex.quote(target))
    outcome.line = line
    if outcome.result is not None:
        outcome.result.data["asked"] = url  # as the user gave it (the URL a path became is shown)
    return outcome


def run_command_line(args: dict) -> int:
    """`verdex run URL COMMAND...` from its command line's values (by option keyword: argv.run_args)."""
    opts = AppOptions(headless=not args.get("headed"), chrome=args.get("chrome"), connect=args.get("connect"),
                      timeout=args.get("timeout", 10.0), json_mode=bool(args.get("json_mode")),
                      no_color=bool(args.get("no_color")), debug=bool(args.get("debug")), pager=False,
                      downloads=args.get("downloads"), trace=bool(args.get("trace")),
                      changes=not args.get("no_changes"), headers=tuple(args.get("connect_header") or ()))
    renderer = make_renderer(opts)
    lines, script = list(args["commands"]), args.get("script")
    live = script == "-"  # stdin: run each line as it arrives
    if script is not None and not live:
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
    ctx = make_workspace(opts)
    try:
        nav = open_first(ctx, args["url"])
        if not nav.ok:
            renderer.show(nav)
            return nav.exit_status
        return run_lines(ctx, renderer, itertools.chain(lines, live_lines()) if live else lines,
                         bool(args.get("keep_going")))
    finally:
        ctx.close()


def run_lines(ctx: Workspace, renderer: Renderer, lines: Iterable[str], keep_going: bool) -> int:
    """Run the lines in order, each result written and flushed before the next line is read; the
    exit status of the first failure (0 when none failed)."""
    status = ExitStatus.OK
    try:
        for line in lines:
            outcome = execute(ctx, line)
            renderer.show(outcome)
            renderer.flush()
            if not outcome.ok:
                # stopped by Ctrl-C: 130, as a shell reports a command it interrupted
                stopped = outcome.kind == ErrorKind.CANCELLED
                status = status or (ExitStatus.INTERRUPTED if stopped else outcome.exit_status)
                if not keep_going:
                    break
            if ctx.quit_requested:
                break
    except VerdexError as exc:  # the input itself could not be read
        renderer.show(failure("(stdin)", exc))
        return status or exit_status(exc.kind)
    except BrokenPipeError:  # whoever reads our output went away: end quietly
        return status or ExitStatus.FAILED
    return status


def run_repl(opts: AppOptions, url: str | None) -> int:
    renderer = make_renderer(opts)
    warn_remote_endpoint(opts, renderer)
    ctx = make_workspace(opts)
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
            return run_lines(ctx, renderer, live_lines(), keep_going=False)
        from ..ui.repl.app import Repl

        ctx.interactive = True
        return Repl(ctx, renderer, pager=opts.pager and sys.stdout.isatty()).loop()
    finally:
        ctx.close()
        if server is not None:
            server.stop()
