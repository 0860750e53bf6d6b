"""A breach the engine found evidence for, which the table confirms or dismisses.

Kasino's misär, a revoke in Mulatschak or Mousel: the cards prove a rule was broken, but the
penalty is the table's call (rules README §4). Every game keeps its proposals in its state and
decides them with ``confirm``/``dismiss`` naming the proposal's ``id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.cards import Card
from scorekeeper.engine.core.protocol import JSON

__all__ = ["Proposal", "Status"]

Status = Literal["pending", "confirmed", "dismissed", "void"]


@dataclass(frozen=True, slots=True)
class Proposal:
    """``kind`` names the breach (``revoke``, ``trumpcard``, ``misär``…), ``rule`` the rule that
    settles it. A trick game says where: ``trick``, the ``card`` played and the ``evidence`` card
    (``evidence_trick`` where it turned up). ``data`` holds what only one game needs, shown as is."""

    id: int
    player: int
    kind: str
    rule: str
    message: str
    deal: int | None = None
    trick: int | None = None
    card: Card | None = None
    evidence: Card | Mapping[str, Any] | None = None
    evidence_trick: int | None = None
    status: Status = "pending"
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def pending(self) -> bool:
        return self.status == "pending"

    def to_json(self) -> JSON:
        out: JSON = {"id": self.id, "player": self.player, "kind": self.kind, "rule": self.rule,
                     "message": self.message, "status": self.status}
        if self.deal is not None:
            out["deal"] = self.deal
        if self.trick is not None:
            out["trick"] = self.trick
            out["card"] = None if self.card is None else str(self.card)
            out["evidence_trick"] = self.evidence_trick
        evidence = self.evidence
        out["evidence"] = (None if evidence is None else str(evidence) if isinstance(evidence, Card)
                           else dict(evidence))
        out.update(self.data)
        return out
