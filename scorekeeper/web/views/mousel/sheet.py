"""The Mousel sheet: a settlement table per deal, the chart, the token ledger, the end report and settle-up."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from scorekeeper.localize import gettext as _
from scorekeeper.web.views.mousel.words import token_count
from scorekeeper.web.views.tricks import names_of


class _Later(Sequence[dict[str, Any]]):
    """Rows made when first read: a redraw shows the last deal's settlement alone, the earlier
    ones only once they are opened (templates/games/mousel/parts.html)."""

    def __init__(self, rows: Sequence[Any], make: Callable[[Any], dict[str, Any]]) -> None:
        self._rows = rows
        self._make = make
        self._made: dict[int, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = range(len(self))[index]  # IndexError as a list's
        if i not in self._made:
            self._made[i] = self._make(self._rows[i])
        return self._made[i]


def settlements(state: Mapping[str, Any], names: Sequence[str]) -> Sequence[dict[str, Any]]:
    """One small table per deal, newest first: tricks, share, penalty and the balance after it."""
    history = {h["deal"]: h for h in state["history"]}
    return _Later(list(reversed(state["settlements"])), lambda row: _settlement(row, history, names))


def _settlement(row: Mapping[str, Any], history: Mapping[int, Any], names: Sequence[str]) -> dict[str, Any]:
    after = history.get(row["deal"])
    lines = []
    for p in row["seats"]:
        folded = p in row["folded"]
        role = []
        if p == row["taker"]:
            role.append(_("took trumps"))
        if folded:
            role.append(_("folded"))
        if p in row["revokers"]:
            role.append(_("revoke"))
        if p in row["busted"]:
            role.append(_("bust"))
        paid, due = row["penalties"][p], row["penalties_due"][p]
        lines.append({"name": names[p], "role": ", ".join(role), "folded": folded, "taker": p == row["taker"],
                      "tricks": "–" if folded or row["void"] else row["tricks"][p],
                      "share": row["shares"][p], "penalty": paid, "short": due - paid,
                      "balance": after["balances"][p] if after else None})
    penalties = sum(row["penalties"])
    antes = row["next_pot"] - row["leftover"] - penalties
    if row["void"]:
        headline = _("Deal %(n)s: void, nobody took trumps; the pot of %(pot)s carries over.", n=row["deal"],
                     pot=row["pot"])
    else:
        headline = _("Deal %(n)s: %(name)s took trumps; pot %(pot)s, %(per)s a trick.", n=row["deal"],
                     name=names[row["taker"]], pot=row["pot"], per=token_count(row["value_per_trick"]))
    return {"deal": row["deal"], "dealer": names[row["dealer"]], "void": row["void"], "lines": lines,
            "headline": headline, "pot": row["pot"], "per_trick": token_count(row["value_per_trick"]),
            "leftover": row["leftover"], "penalties": penalties, "antes": antes,
            "next_pot": row["next_pot"], "last": row["last"],
            "next_words": _("Next pot: %(leftover)s left over + %(penalties)s in penalties + %(antes)s "
                            "antes = %(total)s", leftover=row["leftover"], penalties=penalties,
                            antes=antes, total=row["next_pot"])}


def chart(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    history = state["history"]
    if len(history) < 2:
        return None
    return {"labels": list(names) + [_("pot")],
            "rows": [list(h["balances"]) + [h["pot"]] for h in history]}


def _kind_labels() -> dict[str, str]:
    return {"ante": _("ante"), "share": _("share"), "penalty": _("penalty"), "carry": _("carried over"),
            "end_split": _("end split"), "end_refund": _("end refund")}


def kind_label(kind: str) -> str:
    return _kind_labels().get(kind, kind)


def ledger(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    # The words looked up once, not per entry: a long evening's ledger has hundreds of entries,
    # and each lookup was seven catalogue searches (a third of the sheet's drawing, bench/README.md).
    labels, pot = _kind_labels(), _("pot")

    def party(x: int | str) -> str:
        return pot if x == "pot" else names[int(x)]

    return [{"deal": e["deal"], "kind": labels.get(e["kind"], e["kind"]), "css": e["kind"], "from": party(e["from"]),
             "to": party(e["to"]), "amount": e["amount"], "rule": e["rule"]} for e in state["ledger"]]


def transfers_words(moves: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for t in moves:
        if t["to"] == "pot":
            text = _("%(from)s leaves %(n)s in the pot (unallocated)", n=t["amount"], **{"from": names[t["from"]]})
        elif t["from"] == "pot":
            text = _("%(to)s takes %(n)s from the pot (unallocated)", n=t["amount"], to=names[t["to"]])
        else:
            text = _("%(from)s pays %(to)s %(n)s", n=t["amount"], to=names[t["to"]], **{"from": names[t["from"]]})
        out.append({"text": text, "amount": t["amount"],
                    "from": _("pot") if t["from"] == "pot" else names[t["from"]],
                    "to": _("pot") if t["to"] == "pot" else names[t["to"]]})
    return out


def end_words(end: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    best = end["standings"][0]["balance"] if end["standings"] else 0
    return {
        "standings": [{"name": names[s["player"]], "balance": s["balance"], "best": s["balance"] == best}
                      for s in end["standings"]],
        "split": [{"name": names[p], "amount": a} for p, a in enumerate(end["split"]) if a],
        "unallocated": end["unallocated"],
        "transfers": transfers_words(end["settle_up"], names),
        "final": False,
    }


def end_report(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    if state["end"] is None:
        return None
    out = end_words(state["end"], names)
    out["final"] = True
    winner = state["winner"]
    tops = winner if isinstance(winner, list) else [winner] if winner is not None else []
    out["headline"] = (_("%(name)s is up the most: %(n)s", name=names[tops[0]], n=state["balances"][tops[0]])
                       if len(tops) == 1 else _("%(names)s are up the most", names=names_of(tops, names)))
    return out
