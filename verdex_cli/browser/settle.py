"""What a tab knows of settling after an input (``Page.settle``): read by act/changes.py, act/pointer.py
and the snapshot cache, written only through these methods."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(slots=True)
class Settle:
    acted_at: float = 0.0  # monotonic time the last action's input was sent
    gave_up_at: float = 0.0  # acted_at of the last input whose settle ran out (changes.settle)
    settled_at: float = 0.0  # acted_at of the last input the page was seen settled after (changes.settle)
    # since the capture before the last action (act/changes.py): the page's own timers changed it; the
    # places (line identities) only they changed (None: not known); places of theirs not told apart
    own_changed: bool = False
    own_places: set | None = None
    own_unsplit: bool = False
    # set by the command loop while an action runs whose changes it shows: the settle after the input
    # captures the frames that changed in the same call (changes.start_settle)
    changes_wanted: bool = False
    hover_probe: tuple | None = None  # (frame index, ref number): a hover's element, asked in the settle's
    hover_late: dict | None = None  # call whether it is under the pointer once settled: {"under": answer}

    def acted(self) -> None:
        """The input is sent: settling counts from here."""
        self.acted_at = time.monotonic()

    def settled(self) -> None:
        self.settled_at = self.acted_at

    def gave_up(self) -> None:
        self.gave_up_at = self.acted_at

    def want_changes(self, wanted: bool) -> None:
        self.changes_wanted = wanted

    def watch_own(self) -> None:
        """From the capture before an action: tell the page's own changes from the action's."""
        self.own_changed, self.own_places, self.own_unsplit = False, set(), False

    def own(self, places, whole: bool) -> None:
        """The page's own timers changed it, ``places`` (line identities) only they did; ``whole``: all
        their places are among them."""
        self.own_changed = True
        if self.own_places is not None:
            self.own_places.update(places)
            self.own_unsplit = self.own_unsplit or not whole

    def own_untold(self) -> None:
        """Whose doing a change was can no longer be told (the watchers were reset)."""
        self.own_places = None

    def mixed(self) -> bool:
        """The page's own timers changed it where the action's changes cannot be told from theirs."""
        return self.own_changed and (self.own_places is None or self.own_unsplit)

    def ask_hover(self, probe: tuple | None) -> None:
        self.hover_probe = probe

    def hover_answer(self, late: dict | None) -> None:
        self.hover_late = late

    def take_hover(self) -> dict | None:
        """The answer to the hover's question asked in the settle's call, once."""
        late, self.hover_late = self.hover_late, None
        return late
