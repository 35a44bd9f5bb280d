"""The REPL's history file: private (mode 0600), and a line is written only after its command ran,
so a line that carried a secret (a password typed into a field) is kept masked instead."""

from __future__ import annotations

import os

from prompt_toolkit.history import FileHistory


class PrivateHistory(FileHistory):
    def __init__(self, filename: str) -> None:
        fd = os.open(filename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.close(fd)
        os.chmod(filename, 0o600)  # an older file may have been created with wider permissions
        super().__init__(filename)
        self._pending: str | None = None

    def store_string(self, string: str) -> None:
        self.settle(None)
        self._pending = string

    def settle(self, shown: str | None) -> None:
        """Write the pending line, as ``shown`` when the command masked it."""
        line, self._pending = self._pending, None
        if line is None:
            return
        if shown is not None and shown != line:
            strings = self._loaded_strings
            if strings and strings[0] == line:
                strings[0] = shown
            line = shown
        super().store_string(line)
