"""The JSON Schema of components.yaml, generated from the model, for editors.

An editor with the YAML language server (VS Code's YAML extension, and others) reads the schema
named in a spec's first line (`# yaml-language-server: $schema=components.schema.json`, which
`pnp init` writes) and completes field names, lists allowed values, shows each field's
description and bounds, and flags a typo as it is typed. Everything comes from the model
(`pnp.spec.model`: field names, types, allowed values, defaults, descriptions, every bound), so
the schema cannot drift from what `pnp validate` reads; given the rulebooks, each game with a
rules engine also gets its house rules (names, allowed values, ranges, rule IDs). What only the
meaning checks know (an unknown track, a template's placeholder) is left to `pnp validate`.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from pnp.spec.options import MAX_NUMBER, Option, Rulebook

SCHEMA_NAME = "components.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def spec_schema(rulebooks: Mapping[str, Rulebook] | None = None) -> dict[str, Any]:
    """The schema as a JSON-able dict (house rules of every game in `rulebooks`)."""
    from pnp.spec.model import Spec

    schema = Spec.model_json_schema(by_alias=True)
    schema = {"$schema": DRAFT, **schema, "title": "pnp components.yaml"}
    schema["description"] = ("The games of a pnp print-and-play kit and their printed components. "
                             "Run `pnp validate` for what a schema cannot check.")
    deck = schema["$defs"]["Deck"]  # `cards_from` is read into `cards` before validation
    deck["properties"]["cards_from"]["anyOf"].insert(0, {"type": "string", "description": "a .csv or .xlsx file"})
    deck["required"].remove("cards")
    deck["anyOf"] = [{"required": ["cards"]}, {"required": ["cards_from"]}]
    games = schema["properties"]["games"]
    games["properties"] = {game: _with_rules(rulebook) for game, rulebook in sorted((rulebooks or {}).items())}
    return schema


def schema_text(rulebooks: Mapping[str, Rulebook] | None = None) -> str:
    """The schema as the file `pnp schema` writes: indented JSON, keys in the model's order."""
    return json.dumps(spec_schema(rulebooks), ensure_ascii=False, indent=2) + "\n"


def schema_comment(location: str = SCHEMA_NAME) -> str:
    """The first line of a spec that tells the YAML language server where its schema is."""
    return f"# yaml-language-server: $schema={location}\n"


def _with_rules(rulebook: Rulebook) -> dict[str, Any]:
    """A game of `rulebook`'s engine: a Game whose `rules` are that engine's house rules."""
    options = {option.name: _option(option) for option in rulebook.options if not option.set_by}
    rules = {"type": "object", "properties": options, "additionalProperties": False,
             "description": f"house rules of {rulebook.game} (rules/{rulebook.game}.md)"}
    return {"allOf": [{"$ref": "#/$defs/Game"}, {"properties": {"rules": rules}}]}


def _option(option: Option) -> dict[str, Any]:
    described = f"{option.rule}; default {json.dumps(option.default, ensure_ascii=False, default=str)}"
    if option.parse is not None:
        return {"description": described}  # read by the engine's own parser: any shape it may take
    if option.choices is not None:
        return {"enum": list(option.choices), "description": described}
    kind = type(option.default)
    if kind is bool:
        return {"type": "boolean", "description": described}
    if kind in (int, float):
        bounds: dict[str, Any] = {"maximum": MAX_NUMBER if option.maximum is None else option.maximum}
        if option.minimum is not None:
            bounds["minimum"] = option.minimum
        return {"type": "integer" if kind is int else "number", **bounds, "description": described}
    if kind is str:
        return {"type": "string", "description": described}
    return {"description": described}
