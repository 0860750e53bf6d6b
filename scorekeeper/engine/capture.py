"""The capture solver, by its old name: it lives in :mod:`scorekeeper.engine.fishing`."""

from __future__ import annotations

from scorekeeper.engine.fishing import *  # noqa: F403 — the old name re-exports the package as it is
from scorekeeper.engine.fishing import __all__ as __all__
