"""An editor that knows the spec (issue #29): `pnp schema` writes a JSON Schema generated from
the model and the rulebooks; an independent validator (jsonschema) accepts the bundled spec and
the example with it and rejects the typos `pnp validate` rejects at the schema level; `pnp init`
writes the spec with the yaml-language-server line that names it; docs/spec.md, the reference
generated from the same model, is current."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from pnp.cli import main
from pnp.errors import SpecError
from pnp.rules import loads_spec, rulebooks
from pnp.spec.loader import loads
from pnp.spec.reference import reference_markdown
from pnp.spec.schema import schema_text, spec_schema
from spec_text import BUNDLED, ROOT, edit

EXAMPLE = ROOT / "examples" / "tulips" / "components.yaml"
FACES = ROOT / "examples" / "spice" / "components.yaml"  # free layout, its own font and backs, a hex map


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = spec_schema(rulebooks())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def as_json(text: str) -> object:
    """The YAML as an editor's language server sees it: JSON values, keys as text."""
    return json.loads(json.dumps(yaml.safe_load(text)))


def test_the_schema_accepts_the_bundled_spec_and_the_example(validator):
    assert list(validator.iter_errors(as_json(BUNDLED))) == []
    assert list(validator.iter_errors(as_json(EXAMPLE.read_text(encoding="utf-8")))) == []
    assert list(validator.iter_errors(as_json(FACES.read_text(encoding="utf-8")))) == []


@pytest.mark.parametrize("old, new", [
    ("{shape: rect, at: [-3, -3]", "{shape: rectangle, at: [-3, -3]"),
    ("layout: hex", "layout: hexagons"),
    ("pt: [9, 15]}", "pt: [9, 15], colour: red}"),
])  # fmt: skip
def test_the_schema_rejects_a_typo_in_a_free_layout_or_a_map(validator, old, new):
    text = FACES.read_text(encoding="utf-8").replace(old, new, 1)
    assert list(validator.iter_errors(as_json(text)))
    with pytest.raises(SpecError) as caught:
        loads(text, rulebooks(), folder=FACES.parent)
    assert len(caught.value.issues) == 1


TYPOS = [  # each a mistake a designer types, rejected by the schema as by validate
    ('{id: IBE, name: Iberdrola,  color: "#009e73"', '{id: IBE, name: Iberdrola,  colr: "#009e73"'),
    ("paper: a4 ", "paper: a5 "),
    ("kind: mat", "kind: matt"),
    ('color: "#d55e00", symbol: square', 'color: "#d55e0", symbol: square'),
    ("symbol: triangle}", "symbol: triangel}"),
    ("      rounds: 5\n", "      roundz: 5\n"),  # a house rule of Bolsa's rulebook
    ("      rounds: 5\n", "      rounds: 50\n"),  # beyond its maximum (BOLSA-3.1)
    ("count: 18", "count: -18"),
    ("title: The Stock Exchange Game", "title: " + "J" * 200),
    ("card_mm: [63, 88]", "card_mm: [63, 880]"),
    ("    players: {min: 3, max: 6}", "    players: {min: 3, max: 60}"),
]


@pytest.mark.parametrize("old, new", TYPOS, ids=lambda value: value[:24])
def test_a_typo_is_rejected_by_the_schema_as_by_validate(validator, old, new):
    text = edit(old, new)
    assert list(validator.iter_errors(as_json(text))), "the schema accepts it"
    with pytest.raises(SpecError):
        loads_spec(text)


def test_the_schema_has_the_models_descriptions_and_bounds():
    schema = spec_schema(rulebooks())
    card = schema["$defs"]["Print"]["properties"]["card_mm"]
    assert card["description"].startswith("[width, height] of a card")
    assert [item["maximum"] for item in card["prefixItems"]] == [297, 297]
    assert schema["$defs"]["Game"]["properties"]["title"]["maxLength"] == 120
    rules = schema["properties"]["games"]["properties"]["bolsa"]["allOf"][1]["properties"]["rules"]
    assert rules["properties"]["rounds"] == {"type": "integer", "maximum": 10, "minimum": 1,
                                             "description": "BOLSA-3.1; default 5"}
    assert "start_quote" not in rules["properties"]  # set by the quote track, not under rules


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def test_pnp_schema_prints_or_writes_it(tmp_path):
    code, out = run("schema")
    assert code == 0 and out == schema_text(rulebooks())
    code, _ = run("schema", "--out", str(tmp_path / "components.schema.json"))
    assert code == 0 and json.loads((tmp_path / "components.schema.json").read_text(encoding="utf-8")) == json.loads(out)
    assert run("schema", "--out", str(tmp_path / "no" / "such" / "x.json"))[0] == 2


def test_init_writes_the_spec_with_the_line_that_names_its_schema(tmp_path, validator):
    code, _ = run("init", str(tmp_path))
    spec = (tmp_path / "components.yaml").read_text(encoding="utf-8")
    first = spec.split("\n", 1)[0]
    assert code == 0 and first == "# yaml-language-server: $schema=components.schema.json"
    schema = json.loads((tmp_path / first.split("=", 1)[1]).read_text(encoding="utf-8"))
    assert schema == spec_schema(rulebooks())
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(as_json(spec))) == []
    assert run("validate", str(tmp_path / "components.yaml"))[0] == 0


def test_the_reference_is_generated_from_the_model():
    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert text == reference_markdown(), "docs/spec.md is stale: run python -m pnp.spec.reference"
    for fact in ("| `card_mm` | [2 × number 5–297] | `[63, 88]` |", "| pieces | 3,000 |", "## Deck (`kind: deck`)",
                 "| `title` | text ≤ 120 | *required* |"):
        assert fact in text


def test_every_template_name_is_in_the_reference_with_its_meaning_and_an_example():
    from pnp.spec.faces import TEXT_FIELDS, contexts, game_context, template_names
    from pnp.spec.model import Asset, CardEntry
    from spec_text import spec_of

    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert "pnp/spec/faces.py" not in text  # the names are on the page, not in a pointer to the source
    table = text.split("## Template names", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| `{")]
    assert all(len(row) == 4 and row[2].strip() and "`" in row[3] for row in rows)  # a meaning and an example each
    named = {name for row in rows for name in re.findall(r"`\{(\w+)\}`", row[0])}
    game = spec_of().games["forex"]
    entries = [CardEntry(for_each=for_each, data={"pays": 2}) for for_each in ("asset", "pair", None)]
    seen = {key for entry in entries for context, _ in contexts(game, entry) for key in context}
    assert set(game_context(game)) | {"asset", "index", "a", "b"} | set(Asset.model_fields) | set(TEXT_FIELDS) <= named
    assert seen - {"pays"} <= named and "NAME" in named  # a data key stands as NAME
    assert len(rows) == len(template_names())


def test_every_field_of_the_model_is_described():
    from pnp.spec.model import Spec

    schema = Spec.model_json_schema()
    undescribed = [f"{name}.{field}" for name, node in schema["$defs"].items()
                   for field, spec in node.get("properties", {}).items() if field != "kind" and not spec.get("description")]
    assert undescribed == []
    assert Path(ROOT / "docs" / "spec.md").exists()
