"""Sessions that outlive a command: one server per name holds the browser and the workspace; clients
(`run --session`, `attach`, `session list/stop`, `mcp`) speak to it over a Unix socket. Light modules
(the `run --session` client must start fast): ``names``, ``wire``, ``client``, ``listing``."""
