"""Command families; importing this package registers every command."""

from . import meta, navigation, page_tools, snapshot_cmd  # noqa: F401
from .registry import REGISTRY, Result  # noqa: F401
