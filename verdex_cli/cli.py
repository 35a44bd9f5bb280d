"""Typer entry point: parse options, build a session, start the REPL or `run`."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import __version__
from .app import AppOptions, run_oneshot, run_repl

GLOBAL_VALUE_OPTIONS = {"--chrome", "--connect", "--timeout", "--script", "--downloads"}

repl_app = typer.Typer(add_completion=False, no_args_is_help=False, pretty_exceptions_enable=False,
                       context_settings={"help_option_names": ["-h", "--help"]})
run_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]})

HEADED = typer.Option(False, "--headed", help="Show a browser window instead of running headless.")
CHROME = typer.Option(None, "--chrome", metavar="PATH", help="Chrome/Chromium executable to launch.")
CONNECT = typer.Option(None, "--connect", metavar="URL",
                       help="Attach to a running Chrome's DevTools endpoint instead of launching one.")
TIMEOUT = typer.Option(10.0, "--timeout", metavar="SECONDS", min=0.1, help="Timeout for every browser call.")
JSON = typer.Option(False, "--json", help="Print one JSON object per command (JSON Lines).")
NO_COLOR = typer.Option(False, "--no-color", help="Plain output without colours.")
DEBUG = typer.Option(False, "--debug", help="Show tracebacks for errors.")
DOWNLOADS = typer.Option(None, "--downloads", metavar="DIR",
                         help="Save downloads in DIR (default: a private temporary folder removed on exit).")


def _version(value: bool):
    if value:
        typer.echo(f"verdex {__version__}")
        raise typer.Exit()


@repl_app.command(help="Explore web pages as accessibility snapshots with element refs.\n\n"
                       "With no URL, opens the bundled demo site. 'verdex run URL COMMAND...' runs commands "
                       "one-shot; 'verdex run --help' explains it.")
def repl_main(
    url: Optional[str] = typer.Argument(None, metavar="URL",
                                        help="URL or local file to open (default: the demo site)."),
    headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
    timeout: float = TIMEOUT, json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG,
    downloads: Optional[str] = DOWNLOADS,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
):
    opts = AppOptions(headed, chrome, connect, timeout, json_mode, no_color, debug, downloads)
    raise typer.Exit(run_repl(opts, url))


@run_app.command(help="Open URL, run each COMMAND (one REPL line each) in order, and exit.\n\n"
                      "Exit status: 0 when every command succeeded, 1 when one failed, 2 for usage errors.")
def run_main(
    url: str = typer.Argument(..., metavar="URL", help="URL or local file to open first."),
    commands: Optional[List[str]] = typer.Argument(None, metavar="COMMAND",
                                                   help="Commands, one REPL line per argument."),
    script: Optional[str] = typer.Option(None, "--script", metavar="FILE",
                                         help="Read commands one per line from FILE ('-' for stdin)."),
    keep_going: bool = typer.Option(False, "--keep-going", help="Run every command even after a failure."),
    headed: bool = HEADED, chrome: Optional[str] = CHROME, connect: Optional[str] = CONNECT,
    timeout: float = TIMEOUT, json_mode: bool = JSON, no_color: bool = NO_COLOR, debug: bool = DEBUG,
    downloads: Optional[str] = DOWNLOADS,
):
    opts = AppOptions(headed, chrome, connect, timeout, json_mode, no_color, debug, downloads)
    lines = list(commands or [])
    if script is not None:
        try:
            text = sys.stdin.read() if script == "-" else Path(script).read_text(encoding="utf-8")
        except OSError as exc:
            typer.echo(f"Cannot read script {script}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2)
        lines += [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    raise typer.Exit(run_oneshot(opts, url, lines, keep_going))


def _split_run(argv: list[str]) -> tuple[bool, list[str]]:
    """Find the word `run` as the first positional; options may stand before it."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return False, argv
        if word.startswith("-"):
            if word in GLOBAL_VALUE_OPTIONS:
                i += 1
            i += 1
            continue
        if word == "run":
            return True, argv[:i] + argv[i + 1:]
        return False, argv
    return False, argv


def _on_terminate(signum, frame):
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_terminate)
    is_run, rest = _split_run(argv)
    app = run_app if is_run else repl_app
    app(args=rest, prog_name="verdex run" if is_run else "verdex")


if __name__ == "__main__":  # pragma: no cover
    main()
