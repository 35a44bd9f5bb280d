"""verdex-cli: explore web pages the way an AI agent sees them."""

__version__ = "0.1.0"
