"""Command families; importing this package registers every command."""

from . import (actions_cmd, browser_cmd, contexts_cmd, dialog_cmd, highlight_cmd, meta, navigation, page_tools,
               refs_cmd, snapshot_cmd, tabs_cmd, wait_cmd)
from . import export_cmd, network_cmd, structure_cmd  # noqa: F401
from .registry import REGISTRY, Result  # noqa: F401
