"""The console entry point (`verdex`, `python -m verdex_cli`).

`verdex run --session NAME ...` (or `run` with $VERDEX_SESSION set) goes straight to the light
session client, before Typer, Rich or the browser layer is imported; everything else goes to the
Typer command line (cli.py).
"""

from __future__ import annotations

import sys

from .argv import light_run


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = light_run(argv)
    if rest is not None:
        from .sessions.client import main as run_in_session

        sys.exit(run_in_session(rest))
    from .cli import main as cli_main

    cli_main(argv)
