"""Every shell example of the README runs as written.

Each ```sh block of README.md runs in bash (`set -e`, so every line must succeed) in a fresh
directory that holds the checkout's `dev`, `pyproject.toml`, `.venv` and `demo_pages` (linked), with
the virtualenv's `bin` on PATH and a private, short XDG_RUNTIME_DIR for sessions; a block that sets up
(`./dev ...`) runs in the checkout itself, so it never installs the package from elsewhere. Blocks fenced
```text are transcripts and output, not run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M)


def test_readme_is_a_manual_not_a_diary():
    assert len(README.splitlines()) <= 520
    assert BLOCKS, "the README has shell examples"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:40] for b in BLOCKS])
def test_shell_example_runs(block):
    venv = ROOT / ".venv" if (ROOT / ".venv" / "bin" / "verdex").exists() else Path(sys.prefix)
    with tempfile.TemporaryDirectory(prefix="vx", dir="/tmp") as work, \
            tempfile.TemporaryDirectory(prefix="vr", dir="/tmp") as runtime:
        for name in ("dev", "pyproject.toml", "demo_pages"):
            os.symlink(ROOT / name, Path(work) / name)
        os.symlink(venv, Path(work) / ".venv")
        env = dict(os.environ, PATH=f"{venv / 'bin'}:{os.environ['PATH']}", XDG_RUNTIME_DIR=runtime,
                   NO_COLOR="1")
        env.pop("VERDEX_SESSION", None)
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block],
                              cwd=ROOT if block.startswith("./dev") else work, env=env,
                              capture_output=True, text=True, timeout=180)
        subprocess.run([str(venv / "bin" / "verdex"), "session", "stop", "--all"], env=env,
                       capture_output=True, timeout=60)
    assert done.returncode == 0, f"exit {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
