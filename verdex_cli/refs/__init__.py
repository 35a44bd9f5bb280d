"""Ref state: the ref store, staleness (the one decision about a ref's status), per-tab state."""
