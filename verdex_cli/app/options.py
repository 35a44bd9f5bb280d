"""The command line's shared options (Typer option objects), used by `verdex`, `verdex run`,
`verdex session start` and `verdex attach` alike."""

from __future__ import annotations

import os

import typer

HEADED = typer.Option(False, "--headed", help="Show a browser window instead of running headless.")
CHROME = typer.Option(None, "--chrome", metavar="PATH", help="Chrome/Chromium executable to launch.")
CONNECT = typer.Option(None, "--connect", metavar="URL",
                       help="Attach to a running browser instead of launching one: http(s)://HOST:PORT or a "
                            "ws(s):// DevTools URL (a hosted service's, token included).")
CONNECT_HEADER = typer.Option(None, "--connect-header", metavar="'NAME: VALUE'",
                              help="HTTP header sent when connecting (repeatable), e.g. an Authorization token.")
CONNECT_HEADER_ENV = typer.Option(None, "--connect-header-env", metavar="NAME:VAR",
                                  help="HTTP header NAME sent when connecting, its value read from the "
                                       "environment variable VAR (not shown by ps; repeatable).")
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


def connect_headers(given: list[str] | None, from_env: list[str] | None) -> tuple[str, ...]:
    """--connect-header values, then one 'NAME: value' per --connect-header-env NAME:VAR (VAR's value)."""
    headers = list(given or ())
    for spec in from_env or ():
        name, _, var = spec.partition(":")
        name, var = name.strip(), var.strip()
        if not name or not var:
            raise typer.BadParameter(f"use NAME:VAR (e.g. Authorization:MY_TOKEN), not {spec!r}",
                                     param_hint="--connect-header-env")
        if var not in os.environ:
            raise typer.BadParameter(f"the environment variable {var} is not set", param_hint="--connect-header-env")
        headers.append(f"{name}: {os.environ[var]}")
    return tuple(headers)
