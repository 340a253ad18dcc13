"""pnp's bounds on a game record: what a table could ever write, and what one answer can read.

Beside the record's reader (`pnp.referee.record`) and its shape (`pnp.referee.shape`, pydantic,
loaded only to check a record not seen before), so each bound is stated once for both.
"""

MAX_AMOUNT = 1_000_000_000  # of money or of cards: far beyond any table, small enough to be quick
MAX_BYTES = 2_000_000  # a whole game is tens of kilobytes; more could not be answered at once
MAX_NAME = 60  # letters in a player's name
MAX_NODES = 50_000  # values, aliases expanded: a whole game holds a few thousand
