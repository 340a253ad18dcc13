"""docs/spec.md, the reference of components.yaml, generated from the model so it cannot drift.

Every object of the spec with its fields — type, bounds, allowed values, default, what it is for
— is rendered from the JSON Schema that `pnp.spec.schema` makes of the model, followed by the
limits no single field carries (the whole spec's pieces, a template's format specs, the YAML
itself). `python -m pnp.spec.reference` rewrites the file; a test checks it is current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

ORDER = ("Spec", "Print", "Game", "Players", "Asset", "FontFile", "Track", "Deck", "CardEntry", "CardBack", "Face",
         "Element", "Back", "Picture", "CardLayout", "CardList", "Tokens", "TokenEntry", "Money", "Bill", "Board",
         "BoardSection", "MapCell", "Mat", "Zone", "Aid", "AidSection", "Booklet", "BookletSection", "Form", "FormColumn")


def reference_markdown() -> str:
    """The text of docs/spec.md."""
    from pnp.spec.schema import spec_schema

    schema = spec_schema()
    definitions = {"Spec": {key: value for key, value in schema.items() if key != "$defs"}, **schema["$defs"]}
    missing = sorted(set(definitions) - set(ORDER))
    parts = [_HEAD]
    for name in (*ORDER, *missing):
        parts.append(_object(name, definitions[name]))
    parts.append(_template_names())
    parts.append(_limits())
    return "\n".join(parts)


def _template_names() -> str:
    """Every name a text template may use (`pnp.spec.faces.template_names`), by where."""
    from pnp.spec.faces import template_names

    lines = ["## Template names", "",
             "Every text of a spec is a template: `{name}` prints a value of the spec, `{name.field}` or",
             "`{name[key]}` walks into a group, `{name[2]}` into a list. These are the names, and where",
             "each may be used. A card's or token's names hold on each of its faces, in its free layout's",
             "elements and in a card's own back; `for_each: asset` also gives a money's `currency` and a",
             "form column's title the asset's names.", "",
             "| name | where | what it is | example |", "|---|---|---|---|"]
    lines += [f"| {name} | {_cell(where)} | {_cell(meaning)} | {_cell(example)} |"
              for name, where, meaning, example in template_names()]
    return "\n".join(lines) + "\n"


_HEAD = """# components.yaml reference

Generated from the model (`pnp/spec/model.py`) by `python -m pnp.spec.reference`; do not edit by hand.
`pnp schema` writes the same facts as a JSON Schema for editors, and `pnp validate` checks them all,
each problem at its `file:line:col`. Text fields marked *template* may name values (`{id}`,
`{name}`, `{tracks[quote].last}`, `{rules[start_cash]}`, `{counts[shares]}`, …): the
[template names](#template-names) and the [format specs](#format-specs-in-templates) they may
use are listed at the end of this page.

Lengths are in characters, sizes in millimetres. Every bound is far above any real game and far
below what would make `pnp validate` slow: any file is answered in seconds.
"""


def _object(name: str, node: dict[str, Any]) -> str:
    kind = node.get("properties", {}).get("kind", {}).get("const")
    title = f"## {name}" + (f" (`kind: {kind}`)" if kind else "")
    lines = [title, "", node.get("description", ""), "", "| field | type | default | |", "|---|---|---|---|"]
    required = set(node.get("required", ()))
    for field, spec in node.get("properties", {}).items():
        if field == "kind":
            continue
        default = "*required*" if field in required else _default(spec.get("default"))
        lines.append(f"| `{field}` | {_type(spec)} | {default} | {_cell(spec.get('description', ''))} |")
    return "\n".join(lines) + "\n"


def _default(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, dict):
        return "its defaults" if value else "`{}`"
    text = json.dumps(value, ensure_ascii=False)
    return f"`{text}`" if len(text) <= 30 else "its defaults"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _type(spec: dict[str, Any]) -> str:
    """A field's type and bounds in a few words: "text ≤ 120", "number 5–297", "one of a4, letter"."""
    if "oneOf" in spec:
        kinds = ", ".join(_type(option) for option in spec["oneOf"])
        return f"one of {kinds}, told apart by `kind`"
    if "anyOf" in spec:
        options = [_type(option) for option in spec["anyOf"] if option.get("type") != "null"]
        return " or ".join(dict.fromkeys(options))
    if "$ref" in spec:
        target = spec["$ref"].rsplit("/", 1)[-1]
        return f"[{target}](#{target.lower()})"
    if "const" in spec:
        return f"`{spec['const']}`"
    if "enum" in spec:
        return "one of " + ", ".join(f"`{value}`" for value in spec["enum"])
    return _scalar_type(spec)


def _scalar_type(spec: dict[str, Any]) -> str:
    """A JSON type in words with its bounds, or "any value" where the field names no type."""
    kind = spec.get("type")
    described = _BY_JSON_TYPE.get(kind) if isinstance(kind, str) else None
    return described(spec) if described is not None else "any value"


def _text_type(spec: dict[str, Any]) -> str:
    text = "text"
    if "pattern" in spec:
        text += f" matching `{spec['pattern']}`"
    if "minLength" in spec and spec["minLength"] > 0:
        text += f" of {spec['minLength']}–{spec.get('maxLength', '…')}"
    elif "maxLength" in spec:
        text += f" ≤ {spec['maxLength']:,}"
    return text


def _number_type(spec: dict[str, Any]) -> str:
    return ("whole number" if spec["type"] == "integer" else "number") + _range(spec)


def _list_type(spec: dict[str, Any]) -> str:
    """A list of one kind of item, or a tuple of fixed places ("[2 × number]")."""
    if "prefixItems" in spec:
        items = [_type(item) for item in spec["prefixItems"]]
        same = len(set(items)) == 1
        return f"[{len(items)} × {items[0]}]" if same else "[" + ", ".join(items) + "]"
    text = "list of " + _type(spec.get("items", {}))
    return text + _count(spec, "minItems", "maxItems")


def _mapping_type(spec: dict[str, Any]) -> str:
    values = spec.get("additionalProperties")
    if isinstance(values, dict):
        return "mapping of name → " + _type(values) + _count(spec, "minProperties", "maxProperties")
    return "mapping" + _count(spec, "minProperties", "maxProperties")


_BY_JSON_TYPE: dict[str, Callable[[dict[str, Any]], str]] = {
    "string": _text_type, "number": _number_type, "integer": _number_type,
    "boolean": lambda spec: "true or false", "array": _list_type, "object": _mapping_type,
}


def _range(spec: dict[str, Any]) -> str:
    low = spec.get("minimum", spec.get("exclusiveMinimum"))
    high = spec.get("maximum", spec.get("exclusiveMaximum"))
    above = "exclusiveMinimum" in spec
    if low is None:
        return "" if high is None else f" ≤ {_number(high)}"
    if high is None:
        return f" {'>' if above else '≥'} {_number(low)}"
    dash = " to " if low < 0 else "–"
    return f" {'above ' if above else ''}{_number(low)}{dash}{_number(high)}"


def _number(value: float) -> str:
    text = f"{int(value):,}" if float(value).is_integer() else f"{value:g}"
    return text.replace("-", "−")


def _count(spec: dict[str, Any], low_key: str, high_key: str) -> str:
    low, high = spec.get(low_key, 0), spec.get(high_key)
    if high is None:
        return f" (at least {low})" if low else ""
    return f" ({low}–{high:,})" if low else f" (≤ {high:,})"


def _limits() -> str:
    from pnp.spec.model import LIMITS

    lines = ["## Limits of the whole spec", "", "Bounds no single field carries, each a located error when passed:", "",
             "| limit | at most | |", "|---|---|---|"]
    lines += [f"| {name} | {_number(value)} | {_cell(text)} |" for name, value, text in LIMITS]
    return "\n".join(lines) + "\n" + _FORMATS


_FORMATS = """
## Format specs in templates

A placeholder may end in a format spec, as in Python, limited to what a card needs: a fill and
an alignment (`<`, `>`, `^`, `=`), a sign (`+`, `-`, space), a width, a thousands separator (`,` or
`_`), a precision (`.2`) and a type (`d`, `f`, `g`, `s` or `%`): `{price:>4}`, `{rate:.1f}`, `{cash:,}`.
A list of values (`{components[dividends].pays}`) takes its separator instead: `{…pays: / }`.
Placeholders walk only into the spec's values — `.name` or `[name]` into a group, `[2]` into a
list —, never into a name starting with `_`; no conversion (`!r`) and no placeholder inside a
format spec. Write `{{` and `}}` for braces printed as they are.
"""


def main(argv: list[str] | None = None) -> int:
    """Rewrite docs/spec.md under the folder given (default: the working folder)."""
    folder = Path((argv or sys.argv[1:] or ["."])[0])
    (folder / "docs" / "spec.md").write_text(reference_markdown(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
