"""Strings that templates translate at run time (``_(g.name)``, ``_(o.label)``, ``_(s.what)`` …).

Babel cannot see a translation of a variable, so the values are listed here as literals marked with
``N_`` (a no-op that ``pybabel extract`` knows by default): extraction puts them into
``messages.pot`` and the catalogs translate them. Nothing imports these lists at run time.

The lists are generated from the game registry: ``python -m scorekeeper.web.i18n_labels`` prints
this block afresh; ``tests/web/test_translations.py`` fails when a game, a house rule or a scoring
fact is missing here.
"""

from __future__ import annotations


def N_(message: str) -> str:  # the gettext_noop name pybabel knows
    return message


# The name of each game (``RULES[id].name``; index.html, table.html, the dispute desk).
GAME_NAMES = [
    N_("Score pad"),
    N_("Kasino"),
    N_("Muggins"),
    N_("Mulatschak"),
    N_("Mousel"),
    N_("Tomelilla Mulle"),
]

# "Your tables" on the home page shows ``_(t.game|capitalize)``.
GAME_IDS = [
    N_("Scorepad"),
    N_("Kasino"),
    N_("Muggins"),
    N_("Mulatschak"),
    N_("Mousel"),
    N_("Mulle"),
]

# House rules on the "open a table" form (``OptionSpec.label``).
OPTION_LABELS = [
    # scorepad
    N_("Start score"),
    N_("Target"),
    # kasino
    N_("Game: Kasino, Kasino misär or Dragkasino"),
    N_("Storan always 10, lillan always 2"),
    N_("High values from the hand, low on the table"),
    N_("A card that can capture must capture, maximally"),
    N_("+1 for the last capture"),
    N_("Four players in two partnerships"),
    N_("Partnerships compare individual piles"),
    N_("A player may claim 16 during a deal"),
    N_("Tabbes count toward a claim"),
    N_("Claims are made automatically"),
    N_("No tabbe point in the final round"),
    N_("Misär: take the most cards possible"),
    N_("Misär: a missed forced tabbe is taken back"),
    N_("Misär: a short capture costs +5 and stands"),
    N_("Dragkasino with the misär rules"),
    N_("Play a single deal"),
    N_("Aces rank low in the draw for dealer"),
    # muggins
    N_("One card per turn"),
    N_("Only the left neighbour's discard pile"),
    N_("Any opponent's discard pile (nearest to the left first)"),
    N_("A wrongly placed card stays and the turn goes on"),
    N_("Coach: refuse breaches instead of punishing"),
    N_("Play on to rank every player"),
    # mulatschak
    N_("36-card pack (sixes in Herz, Laub, Eichel)"),
    N_("No duty to beat the trick"),
    N_("Failed Muli: only the breaker gains"),
    N_("Staying home costs 1 even when doubled"),
    N_("Staying home costs nothing"),
    N_("All pass: next dealer redeals"),
    N_("Declaring a weak hand is optional"),
    N_("Collapses in a row double only once"),
    N_("No knocking"),
    N_("Most cards one player may exchange (5 = no limit)"),
    N_("Reshuffle the thrown cards when the stock runs out"),
    N_("The dealer may hold a Muli bid in turn"),
    N_("The Weli counts as low for the collapse"),
    # mousel
    N_("Full 52-card pack (needed for 6 or 7 players)"),
    N_("The player who must play is the taker's right-hand neighbour; no deferred turn"),
    N_("Reshuffle the thrown-away cards when the stock runs out during exchanges"),
    N_("The taker may not throw away the turned-up trump card"),
    N_("The dealer must accept the last card of the stock (no void deals)"),
    N_("Uneven shares: remainders by largest fraction instead of carried over"),
    N_("A player who cannot pay in full is out"),
    N_("Tokens each player brings (with the bust rule)"),
    N_("At the end the pot goes back to whoever paid the last penalties"),
    N_("The last deal is announced and played without penalties"),
    # mulle
    N_("Strict value: a single card is taken only by value, never by rank alone"),
    N_("No sweep point for the last play of a deal"),
    N_("A twin may only be taken on its own"),
]

# The text choices of a "choice" house rule (the <select> on the form).
OPTION_CHOICES = [
    N_("standard"),
    N_("misar"),
    N_("drag"),
]

# The value schemes of the dispute desk (``desk.KASINO_VARIANTS``).
DESK_VARIANTS = [
    N_("standard"),
    N_("fixed"),
    N_("handtable"),
]

# What a scoring fact is for (``Scored.what``), shown as ``s.detail or _(s.what)`` when a move
# scores. Kinds the engine builds with numbers in them ("declarer made 3") stay English.
SCORED_KINDS = [
    N_("points"),
    # kasino
    N_("most_cards"),
    N_("most_spades"),
    N_("storan"),
    N_("lillan"),
    N_("aces"),
    N_("tabbes"),
    N_("sistan"),
    N_("claim"),
    N_("penalty"),
    N_("penalty void"),
    # muggins
    N_("muggins"),
    N_("win"),
    N_("placed"),
    # mulatschak
    N_("thrown in"),
    N_("stayed home"),
    N_("revoke: scored as failed"),
    N_("Muli made"),
    N_("Muli failed"),
    N_("against a Muli made"),
    N_("Muli failed, not the breaker"),
    N_("broke the Muli"),
    N_("no trick"),
    # mousel
    N_("ante"),
    N_("end split"),
    N_("share"),
    # mulle
    N_("ace"),
    N_("two_of_spades"),
    N_("ten_of_diamonds"),
    N_("tabbe"),
    N_("mulle"),
    N_("last_capture"),
]

# The heading of the error page (``error.name``) for the errors a page can end in.
HTTP_ERROR_CODES = (400, 403, 404, 405, 413, 429, 500)
HTTP_ERRORS = [
    N_("Bad Request"),
    N_("Forbidden"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Request Entity Too Large"),
    N_("Too Many Requests"),
    N_("Internal Server Error"),
]


def generate() -> str:
    """The lists above, from the registry and werkzeug (the scoring kinds are kept by hand: the
    test finds them in the engine's source)."""
    from werkzeug.exceptions import default_exceptions

    from scorekeeper.engine import RULES
    from scorekeeper.web.desk import KASINO_VARIANTS

    def block(name: str, values: list[str]) -> str:
        seen: list[str] = []
        for v in values:
            if v not in seen:
                seen.append(v)
        return f"{name} = [\n" + "".join(f"    N_({v!r}),\n" for v in seen) + "]\n"

    rules = list(RULES.values())
    return "\n".join([
        block("GAME_NAMES", [r.name for r in rules]),
        block("GAME_IDS", [r.id.capitalize() for r in rules]),
        block("OPTION_LABELS", [o.label for r in rules for o in r.option_specs]),
        block("OPTION_CHOICES", [c for r in rules for o in r.option_specs for c in o.choices if isinstance(c, str)]),
        block("DESK_VARIANTS", list(KASINO_VARIANTS)),
        block("HTTP_ERRORS", [default_exceptions[code]().name for code in HTTP_ERROR_CODES]),
    ])


if __name__ == "__main__":
    print(generate())
