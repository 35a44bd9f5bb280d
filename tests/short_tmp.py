"""The environment for programs verdex did not write (Playwright's Chromium, Browserless, Selenium Grid):
they put Unix sockets under TMPDIR and fail when it is long (108 bytes for a socket path). verdex itself
keeps its profiles and sockets under a short private folder whatever TMPDIR is: the suite runs with a long
one to prove that, and these programs get a short one of their own."""

from __future__ import annotations

import os
import tempfile

LONG = 40


def third_party_env(env: dict | None = None) -> dict:
    env = dict(os.environ if env is None else env)
    if len(env.get("TMPDIR", "")) > LONG:
        env["TMPDIR"] = tempfile.mkdtemp(prefix="vx3p-", dir="/tmp")
    return env
