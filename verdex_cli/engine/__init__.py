"""The in-page engine: every script verdex runs in a page, as .js files, and their loader (loader.py)."""
