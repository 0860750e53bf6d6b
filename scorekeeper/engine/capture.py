"""The capture solver, by its old name: it lives in :mod:`scorekeeper.engine.fishing`."""

from __future__ import annotations

from scorekeeper.engine.fishing import (
    KASINO_SCHEME,
    MULLE_SCHEME,
    Grouping,
    ValueScheme,
    can_capture,
    can_sweep,
    card_sort_key,
    count_captures,
    explain_failure,
    face_value,
    find_grouping,
    is_sweep_value,
    kasino_scheme,
    legal_captures,
    legal_with_mixed_values,
    maximal_captures,
    mulle_scheme,
    sweep_values,
)

__all__ = [
    "KASINO_SCHEME",
    "MULLE_SCHEME",
    "Grouping",
    "ValueScheme",
    "can_capture",
    "can_sweep",
    "card_sort_key",
    "count_captures",
    "explain_failure",
    "face_value",
    "find_grouping",
    "is_sweep_value",
    "kasino_scheme",
    "legal_captures",
    "legal_with_mixed_values",
    "maximal_captures",
    "mulle_scheme",
    "sweep_values",
]
