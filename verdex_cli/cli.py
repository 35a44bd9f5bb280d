"""Typer entry point: parse options, build a session, start the REPL or `run`."""

from __future__ import annotations

import os
import sys
from typing import List, Optional

import typer
import typer.rich_utils

from . import __version__
from .app.wiring import AppOptions, run_command_line, run_repl
from .argv import split_word
from .base.errors import ErrorKind, ExitStatus, error_json, exit_on_terminate
from .base.sanitize import json_line
from .app.options import (CHROME, CONNECT, CONNECT_HEADER, CONNECT_HEADER_ENV, DEBUG, DOWNLOADS, HEADED, JSON,
                          NO_CHANGES, NO_COLOR, NO_PAGER, TIMEOUT, TRACE, connect_headers)


repl_app = typer.Typer(add_completion=False, no_args_is_help=False, pretty_exceptions_enable=False,
                       context_settings={"help_option_names": ["-h", "--help"]})
run_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]})

# typer.BadParameter is a UsageError of whichever click this typer uses
CommandLineError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def _version(value: bool):
    if value:
        typer.echo(f"verdex {__version__}")
        raise typer.Exit()


@repl_app.command(help="Explore web pages as accessibility snapshots with element refs.\n\n"
                       "With no URL, opens the bundled demo site.\n\n"
                       "Also: 'verdex run URL COMMAND...' runs commands one-shot; 'verdex run --session NAME "
                       "COMMAND...' runs them in a session; 'verdex session start|list|stop' manages sessions; "
                       "'verdex attach [NAME]' opens the REPL on one. Each has --help.")
def repl_main(
    url: Optional[str] = typer.Argument(None, metavar="URL",
                                        help="URL or local file to open (default: the demo site)."),
    headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
    timeout: float = TIMEOUT, json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG,
    no_pager: bool = NO_PAGER, downloads: Optional[str] = DOWNLOADS, trace: bool = TRACE,
    no_changes: bool = NO_CHANGES, connect_header: Optional[List[str]] = CONNECT_HEADER,
    connect_header_env: Optional[List[str]] = CONNECT_HEADER_ENV,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
):
    opts = AppOptions(headless=not headed, chrome=chrome, connect=connect, timeout=timeout, json_mode=json_mode,
                      no_color=no_color, debug=debug, pager=not no_pager, downloads=downloads,
                      trace=trace, changes=not no_changes,
                      headers=connect_headers(connect_header, connect_header_env))
    raise typer.Exit(int(run_repl(opts, url)))


@run_app.command(help="Open URL, run each COMMAND (one REPL line each) in order, and exit.\n\n"
                      "'verdex run --session NAME COMMAND...' runs them in a running session instead.\n\n"
                      "Exit status: 0 when every command succeeded, 1 when one failed, 2 for usage errors.")
def run_main(
    url: Optional[str] = typer.Argument(None, metavar="URL",
                                        help="URL or local file to open first (not with --session)."),
    commands: Optional[List[str]] = typer.Argument(None, metavar="COMMAND",
                                                   help="Commands, one REPL line per argument."),
    script: Optional[str] = typer.Option(None, "--script", metavar="FILE",
                                         help="Read commands one per line from FILE ('-' for stdin)."),
    keep_going: bool = typer.Option(False, "--keep-going", help="Run every command even after a failure."),
    session: Optional[str] = typer.Option(None, "--session", metavar="NAME",
                                          help="Run the commands in session NAME ('verdex session start'); "
                                               "no URL then. Default, when no URL is given: $VERDEX_SESSION; "
                                               "--session '' runs one-shot whatever it says."),
    headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
    timeout: float = TIMEOUT, json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG,
    no_pager: bool = NO_PAGER, downloads: Optional[str] = DOWNLOADS, trace: bool = TRACE,
    no_changes: bool = NO_CHANGES, connect_header: Optional[List[str]] = CONNECT_HEADER,
    connect_header_env: Optional[List[str]] = CONNECT_HEADER_ENV,
):
    headers = connect_headers(connect_header, connect_header_env)
    if url is None:
        raise CommandLineError("Missing URL: give the URL to open first, or --session NAME to run in a "
                               "session ($VERDEX_SESSION names one when no URL is given).")
    raise typer.Exit(int(run_command_line(dict(
        headed=headed, chrome=chrome, connect=connect, timeout=timeout, json_mode=json_mode, no_color=no_color,
        debug=debug, downloads=downloads, trace=trace, no_changes=no_changes, connect_header=headers, url=url,
        commands=list(commands or []), keep_going=keep_going, script=script))))


def _sub_first(argv: list[str]) -> list[str]:
    """`session`'s words with its sub-command first: options given before it (`verdex --json session
    stop x`, as before `run`) go after it, where the sub-command reads them."""
    sub, rest = split_word(argv)
    return argv if sub is None else [sub, *rest]


def main(argv: list[str]) -> None:
    exit_on_terminate()  # (`run --session NAME` never gets here: entry.py sends it to the light client)
    word, word_rest = split_word(argv)
    if word in ("session", "attach"):
        from .sessions.control import attach_app, session_app

        app, prog, rest = (session_app, "verdex session", _sub_first(word_rest)) if word == "session" else \
            (attach_app, "verdex attach", word_rest)
    elif word == "mcp":
        from .sessions.mcp_server import mcp_app

        app, prog, rest = mcp_app, "verdex mcp", word_rest
    else:  # `run` as the first positional (options may stand before it), else the REPL
        app, prog, rest = (run_app, "verdex run", word_rest) if word == "run" else (repl_app, "verdex", argv)
    if "--no-color" in argv or "NO_COLOR" in os.environ:
        typer.rich_utils.COLOR_SYSTEM = None  # help without escape codes too
    # a usage error of the command line itself is one line (one JSON object with --json), not a box
    try:
        code = app(args=rest, prog_name=prog, standalone_mode=False)
    except CommandLineError as exc:
        if exc.format_message().strip():  # else it was a bare `verdex session`: its help is shown
            _usage_error(getattr(exc.ctx, "command_path", None) or prog, argv, exc.format_message())
        raise SystemExit(int(ExitStatus.USAGE))
    except (typer.Abort, KeyboardInterrupt):
        raise SystemExit(ExitStatus.INTERRUPTED)
    raise SystemExit(code if isinstance(code, int) else 0)


def _usage_error(prog: str, argv: list[str], message: str) -> None:
    message = " ".join(message.split())
    if not message.endswith((".", "!", "?")):
        message += "."
    message = f"{message} Try '{prog} --help'."
    if "--json" in argv:
        sys.stdout.write(json_line(error_json(" ".join(["verdex", *argv]), ErrorKind.USAGE, message)) + "\n")
        sys.stdout.flush()
    else:
        sys.stderr.write(f"{prog}: {message}\n")
