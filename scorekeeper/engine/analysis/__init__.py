"""Analysis beside the games: the dispute desk (a position entered by hand, judged by a game's
rules) and the post-deal review (a table's own log, replayed for better moves). It reads the
games; no game reads it."""
