"""What the user sees: the renderer and its painters, and the REPL."""
