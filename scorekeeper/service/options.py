"""A table's options as stored: the platform's own keys, and what the engine is handed.

Its own module so that opening a table (tables.py) and replaying one (snapshots.py) share it
without importing each other: facts.py reads tables through tables.py, and snapshots.py reads facts.
"""

from __future__ import annotations

from typing import Any

# Table options the platform keeps for itself, never shown to the engine (which refuses unknown keys):
# ``review_after_deal`` holds the post-deal review of a deal until that deal is over.
PLATFORM_OPTIONS = ("review_after_deal",)


def engine_options(options: Any) -> Any:
    """``options`` without the platform's own keys (anything that is not a dict is the engine's to refuse)."""
    if not isinstance(options, dict) or not any(key in options for key in PLATFORM_OPTIONS):
        return options
    return {k: v for k, v in options.items() if k not in PLATFORM_OPTIONS}
