"""For-Ex — rules engine (rules/forex.md)."""

from pnp.rules.forex.board import marks, tables
from pnp.rules.forex.options import RULEBOOK
from pnp.rules.forex.params import Params, params

__all__ = ["RULEBOOK", "Params", "marks", "params", "tables"]
