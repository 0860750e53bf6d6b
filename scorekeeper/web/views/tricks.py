"""What the trick games' screens (Mousel, Mulatschak) share: names in a sentence and the revoke
proposals the shared partial ``templates/games/tricks/revoke.html`` shows. Each game words its own
proposals (which rule, which penalty) and passes that function in."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.localize import gettext as _

ProposalWords = Callable[[Mapping[str, Any], Mapping[str, Any] | None, Sequence[str]], Mapping[str, Any]]


def names_of(seats: Sequence[int], names: Sequence[str]) -> str:
    """"Anna, Bo and Cilla": the players in those seats, as a sentence lists them."""
    listed = [names[s] for s in seats]
    if len(listed) <= 1:
        return "".join(listed)
    return _("%(first)s and %(last)s", first=", ".join(listed[:-1]), last=listed[-1])


def proposals(state: Mapping[str, Any], names: Sequence[str], words: ProposalWords,
              book: str | None = None) -> list[dict[str, Any]]:
    """The revokes still open or confirmed (a dismissed one is gone), each with the game's words
    and the card evidence; ``book`` adds a link to the rule."""
    deal = state.get("deal")
    out = []
    for prop in state["proposals"]:
        if prop["status"] == "dismissed":
            continue
        row = {**words(prop, deal, names), "id": prop["id"], "status": prop["status"],
               "pending": prop["status"] == "pending", "rule": prop["rule"], "card": prop["card"],
               "evidence": prop["evidence"]}
        if book is not None:
            row["rule_url"] = f"{book}#{prop['rule']}"
        out.append(row)
    return out
