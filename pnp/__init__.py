"""pnp — print-and-play kit for stock-market board games.

One YAML file (`components.yaml`) describes the games; `pnp build` turns it into print-ready
files and `pnp referee` settles disputes with the same rules engines.
"""

__version__ = "0.1.0"
