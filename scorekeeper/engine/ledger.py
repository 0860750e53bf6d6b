"""Kept importable: the token ledger lives in :mod:`scorekeeper.engine.tricks.ledger`."""

from scorekeeper.engine.tricks.ledger import POT, Book, Entry, Transfer, check_invariant, settle_up

__all__ = ["POT", "Book", "Entry", "Transfer", "check_invariant", "settle_up"]
