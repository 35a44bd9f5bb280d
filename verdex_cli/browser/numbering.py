"""The one owner of ref numbers in a tab: which frame index and which number come next.

A ref string is never issued to a second element while the tab lives. Frame indices are handed
out once (a removed frame's index is not reused), and each frame index numbers its refs on across
documents: a new document's bridge starts after the highest number ever issued for that frame
index in the tab, whatever made the bridge (navigation, reload, back/forward, a frame that moved
to another process, a world recreated after a context loss, a new browser after `relaunch`). Only
`reset-refs --restart` restarts the numbers (plain `reset-refs` keeps them).

Because numbers only grow, each (frame index, number) belongs to exactly one document: the one
whose bridge started at or below it. `document_of` answers that, so a ref of an earlier document
is recognised as such for good, with no per-ref memory.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field


@dataclass
class Document:
    first: int        # the first number its bridge could issue
    loader: str       # the frame's loader id (the document)
    main: str         # the main frame's loader id when it was numbered
    url: str = ""
    seq: int = 0      # the order in which the tab's documents were numbered (all frames)


@dataclass
class RefNumbers:
    next_frame: int = 0
    high: dict[int, int] = field(default_factory=dict)  # frame index -> highest number issued
    docs: dict[int, list[Document]] = field(default_factory=dict)  # frame index -> its documents, in order
    seq: int = 0

    def new_frame_index(self) -> int:
        index = self.next_frame
        self.next_frame += 1
        return index

    def start(self, frame: int, loader: str, main: str, url: str = "", again: bool = False) -> tuple[int, bool]:
        """A bridge is being set up for ``loader`` in ``frame``: (the number to continue after,
        whether the document is new to the frame's numbering -- a bridge that already holds refs
        there, a document restored from the back/forward cache, must forget them). ``again``: the
        document is visited anew even if it is the frame's last one (a back/forward cache restore)."""
        high = self.high.get(frame, 0)
        docs = self.docs.setdefault(frame, [])
        if docs and docs[-1].loader == loader and not again:
            return high, False
        self.seq += 1
        docs.append(Document(high + 1, loader, main, url, self.seq))
        return high, True

    def came_back(self, frame: int, loader: str) -> bool:
        """Is ``loader`` an earlier document of the frame, not its last numbered one (a restore)?"""
        docs = self.docs.get(frame, ())
        return bool(docs) and docs[-1].loader != loader and any(d.loader == loader for d in docs)

    def note(self, frame: int, counter: int, url: str = "") -> None:
        """The frame's bridge has issued numbers up to ``counter``."""
        if counter > self.high.get(frame, 0):
            self.high[frame] = counter
        docs = self.docs.get(frame)
        if url and docs:
            docs[-1].url = url

    def document_of(self, frame: int, n: int) -> tuple[Document, bool] | None:
        """(the document that issued number ``n`` of ``frame``, whether it is the frame's latest
        numbered one), or None when no bridge of the tab issued it."""
        docs = self.docs.get(frame)
        if not docs or n > self.high.get(frame, 0):
            return None
        i = bisect_right([d.first for d in docs], n) - 1
        if i < 0:
            return None
        return docs[i], i == len(docs) - 1

    def main_left_since(self, frame: int, n: int) -> bool:
        """Was the main frame numbered for another visit (a new document, or the same one back from the
        back/forward cache) after number ``n`` of child ``frame`` was issued? Its ref is then of an
        earlier visit of the page."""
        found = self.document_of(frame, n) if frame != 0 else None
        return found is not None and any(d.seq > found[0].seq for d in self.docs.get(0, ()))

    def reset(self, keep_counter: bool, current: dict[int, tuple[str, str]]) -> None:
        """reset-refs: every issued number is forgotten (restarting at 1 unless ``keep_counter``);
        ``current``: frame index -> (loader, main loader) of the documents whose bridges were reset."""
        if not keep_counter:
            self.high.clear()
        self.docs = {fi: [Document(self.high.get(fi, 0) + 1, loader, main)] for fi, (loader, main) in current.items()}

    def absorb(self, other: "RefNumbers") -> None:
        """Hand out nothing ``other`` (another registry of the same tab) handed out: its frame
        indices and numbers. Its documents are not taken: their bridges are set up again."""
        self.next_frame = max(self.next_frame, other.next_frame)
        for fi, h in other.high.items():
            self.note(fi, h)
