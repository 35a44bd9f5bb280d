"""The console entry point (`verdex`, `python -m verdex_cli`).

The client paths start before Typer, Rich or the browser layer is imported: `verdex run --session
NAME ...` (or `run` without a URL and $VERDEX_SESSION set) goes to the light session client,
`verdex session list` to the light listing, `verdex --version` prints; everything else goes to the
Typer command line (cli.py).
"""

from __future__ import annotations

import sys

from .argv import light_run, split_word


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
    from .cli import main as cli_main

    cli_main(argv)
