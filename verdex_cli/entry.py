"""The console entry point (`verdex`, `python -m verdex_cli`).

The client paths start before Typer, Rich or the browser layer is imported: `verdex run --session
NAME ...` (or `run` without a URL and $VERDEX_SESSION set) goes to the light session client,
`verdex session list` to the light listing, `verdex --version` prints; a plain one-shot `run URL
COMMAND...` starts its browser first and imports the rest of verdex while it starts (no Typer);
everything else goes to the Typer command line (cli.py).
"""

from __future__ import annotations

import os
import sys

from .argv import light_run, run_args, split_word


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:
        from . import __version__

        print(f"verdex {__version__}")
        return
    rest = light_run(argv)
    if rest is not None:
        from .sessions.client import main as run_in_session

        sys.exit(run_in_session(rest))
    word, rest = split_word(argv)
    if word == "session" and split_word(rest)[0] == "list" and set(split_word(rest)[1]) <= {"--json", "--no-color"}:
        from .sessions.listing import main as list_sessions

        sys.exit(list_sessions(rest))
    args = run_args(argv)
    if args is not None and not args["connect_header_env"]:
        sys.exit(run_oneshot(args))
    from .cli import main as cli_main

    cli_main(argv)


def run_oneshot(args: dict) -> int:
    """A one-shot run read by ``run_args``: a launched browser starts now (unless the first URL or the
    script file is wrong: then none starts), the rest of verdex is imported meanwhile."""
    from .base.errors import ExitStatus, VerdexError, exit_on_terminate
    from .base.script_input import read_script

    exit_on_terminate()
    if not args.get("connect") and not os.environ.get("VERDEX_CONNECT"):
        from .browser.launch import launch_early
        from .browser.urls import normalize_url

        try:
            normalize_url(args["url"])
            if args.get("script") not in (None, "-"):
                read_script(args["script"])
        except VerdexError:
            pass  # said by the run, with no browser
        else:
            launch_early(args.get("chrome"), not args.get("headed"))
    try:
        from .app.wiring import run_command_line

        return run_command_line(args)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
