"""The command line's shared options (Typer option objects), used by `verdex`, `verdex run`,
`verdex session start` and `verdex attach` alike."""

from __future__ import annotations

import typer

HEADED = typer.Option(False, "--headed", help="Show a browser window instead of running headless.")
CHROME = typer.Option(None, "--chrome", metavar="PATH", help="Chrome/Chromium executable to launch.")
CONNECT = typer.Option(None, "--connect", metavar="URL",
                       help="Attach to a running browser instead of launching one: http(s)://HOST:PORT or a "
                            "ws(s):// DevTools URL (a hosted service's, token included).")
CONNECT_HEADER = typer.Option(None, "--connect-header", metavar="'NAME: VALUE'",
                              help="HTTP header sent when connecting (repeatable), e.g. an Authorization token.")
TIMEOUT = typer.Option(10.0, "--timeout", metavar="SECONDS", min=0.1, help="Timeout for every browser call.")
JSON = typer.Option(False, "--json", help="Print one JSON object per command (JSON Lines).")
NO_COLOR = typer.Option(False, "--no-color", help="Plain output without colours.")
DEBUG = typer.Option(False, "--debug", help="Show tracebacks for errors.")
TRACE = typer.Option(False, "--trace", help="Print each command's phases with milliseconds (stderr; JSON: \"trace\").")
NO_PAGER = typer.Option(False, "--no-pager", help="REPL: never page long output.")
NO_CHANGES = typer.Option(False, "--no-changes",
                          help="Actions do not capture and report what they changed on the page.")
DOWNLOADS = typer.Option(None, "--downloads", metavar="DIR",
                         help="Save downloads in DIR (default: a private temporary folder removed on exit).")
