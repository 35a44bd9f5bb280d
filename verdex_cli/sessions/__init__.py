"""Sessions that outlive a command: one session server per name holds the browser and the whole
workspace; clients (`run --session`, `attach`, `session list/stop`) speak to it over a Unix socket.

Light modules (imported by the `run --session` client, which must start fast): ``names``, ``wire``,
``client``. Heavy ones (the browser, Rich, prompt_toolkit, Typer): ``server``, ``attach``, ``control``.
"""
