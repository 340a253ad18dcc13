"""Every kit in the players' language: catalogs, the nine bundled kits, plural forms, the
pseudo-locale, fuzzy translations after an edit, and the same geometry in every language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.build import build
from pnp.checks.layout import lay_out_game, layout_issues
from pnp.cli import main
from pnp.components.booklet import RULE_ID
from pnp.display import Group, Text
from pnp.errors import SpecError
from pnp.i18n import Language, pseudo, speaking
from pnp.i18n.catalogs import catalog_path, language, read, status
from pnp.rules import load_spec
from pnp.spec.faces import fill
from pnp.spec.loader import loads
from pnp.spec.source import bundled_spec_path
from pnp.spec.translation import translatable, translated
from pnp.translate import problems

ROOT = Path(__file__).resolve().parents[1]
KITS = [(g, code) for g in ("bolsa", "aktsioner", "forex") for code in ("en", "es", "ru")]


@pytest.fixture(scope="module")
def spec():
    return load_spec(bundled_spec_path())


class Kits(dict):
    """The nine bundled kits, each game's three built once, when a test first asks for one of
    them: {(game, language): its folder}. The fast lane reads Акционер's three only."""

    def __init__(self, spec, out: Path):
        super().__init__()
        self.spec, self.out = spec, out

    def __missing__(self, key: tuple[str, str]) -> Path:
        game = key[0]
        summary = build(self.spec, self.out / game, [game], languages=["all"])
        assert summary.findings == ()  # no fuzzy or missing translation printed, nor any other finding
        for code in ("en", "es", "ru"):
            name = game if self.spec.games[game].language == code else f"{game}.{code}"
            self[(game, code)] = self.out / game / name
        return self[key]


@pytest.fixture(scope="module")
def kits(spec, tmp_path_factory):
    return Kits(spec, tmp_path_factory.mktemp("kits"))


SLOW = pytest.mark.slow  # the game's kits built in the full lane only: the fast lane reads Акционер's
GAMES = [pytest.param("bolsa", marks=SLOW), "aktsioner", pytest.param("forex", marks=SLOW)]


def _text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_the_bundled_games_are_printed_in_three_languages_each(spec):
    assert {g: spec.games[g].kit_languages for g in spec.games} == {
        "bolsa": ("es", "en", "ru"), "aktsioner": ("ru", "en", "es"), "forex": ("en", "es", "ru")}


@pytest.mark.parametrize("game, code", [k for k in KITS if k[1] != "en"])
def test_every_printed_text_of_the_bundled_kits_is_translated(spec, game, code):
    catalog = read(catalog_path(spec.folder, game, code), code)
    assert status(catalog).fuzzy == ()
    assert problems(spec, game, (code,), printed_only=True) == []


@pytest.mark.parametrize("game, code", [k for k in KITS if k[1] != "en"])
def test_every_text_the_referee_and_the_table_say_is_translated_too(spec, game, code):
    """Not only what a kit prints: the referee's sentences and the table's page (its templates
    included), none missing, none fuzzy, their placeholders kept."""
    catalog = read(catalog_path(spec.folder, game, code), code)
    assert status(catalog).missing == () and status(catalog).fuzzy == ()
    assert problems(spec, game, (code,)) == []
    assert any(path.startswith("pnp/table/templates/") for message in catalog for path, _ in message.locations)


@pytest.mark.parametrize("game", GAMES)
def test_no_english_sentence_of_the_english_kit_is_in_the_spanish_or_russian_one(kits, game):
    english = _text(kits[(game, "en")] / f"{kits[(game, 'en')].name}-all.pdf")
    sentences = {" ".join(line.split()) for chunk in re.split(r"\s{3,}|\n", english) for line in [chunk]
                 if len(re.findall(r"\b[a-z]{3,}\b", line)) >= 4}
    assert len(sentences) > 50  # the English kit's sentences: the booklet, the aids, the instructions
    for code in ("es", "ru"):
        folder = kits[(game, code)]
        other = " ".join(_text(folder / f"{folder.name}-all.pdf").split())
        found = sorted(s for s in sentences if s in other)
        assert found == [], f"{game} {code}: English left in the kit: {found[:5]}"


@pytest.mark.parametrize("game", GAMES)
def test_the_gallery_of_each_bundled_kit_shows_no_finding(kits, game):
    """The build found nothing (`Kits` asserts its summary lists none): its manifest records no
    finding and its gallery says 0 for each kit and each face (`pnp.checks`, docs/validate.md)."""
    out = kits[(game, "en")].parent
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["findings"] == []
    page = (out / "index.html").read_text(encoding="utf-8")
    counts = re.findall(r'data-findings="(\d+)"', page)
    assert len(counts) > 3 * 30 and set(counts) == {"0"}  # three kits, every face and every kit


@pytest.mark.parametrize("game, code", [k if k[0] == "aktsioner" else pytest.param(*k, marks=SLOW) for k in KITS])
def test_each_booklet_carries_every_rule_id(spec, kits, game, code):
    booklet = spec.games[game].component("rules_booklet")
    ids = {match for section in booklet.sections for line in section.lines for match in RULE_ID.findall(line)}
    assert len(ids) > 40
    printed = set(RULE_ID.findall(_text(kits[(game, code)] / "rules_booklet.pdf")))
    assert ids - printed == set()


@pytest.mark.parametrize("game", GAMES)
def test_the_kits_speak_their_language(kits, game):
    if game == "bolsa":
        assert "Reglamento" in _text(kits[("bolsa", "es")] / "rules_booklet.pdf")
    elif game == "aktsioner":
        assert "Правила игры" in _text(kits[("aktsioner", "ru")] / "rules_booklet.pdf")
        assert "лист 1" in _text(kits[("aktsioner", "ru")] / "aktsioner-all.pdf")  # pnp's own words
    else:
        russian = _text(kits[("forex", "ru")] / "forex.ru-all.pdf")
        assert "Валютное поле" in russian and "лист 1" in russian  # the spec's words and pnp's own


def test_a_russian_number_takes_the_form_its_rule_picks(spec):
    russian = language(spec.folder, "bolsa", "ru")
    template = russian.gettext("BOLSA-3.1 A game has **{rules[rounds]:plural:# round|# rounds}**. Each round: "
                               "declaration, trade (company by company, each followed by provisioning), end of round.")
    with speaking(russian):
        said = {n: fill(template, {"rules": {"rounds": n}}, "lines") for n in (1, 2, 5, 11, 21, 22)}
    assert [re.search(r"\*\*(\d+ \w+)\*\*", said[n]).group(1) for n in said] == [
        "1 раунд", "2 раунда", "5 раундов", "11 раундов", "21 раунд", "22 раунда"]
    with speaking(Language("en")):
        assert fill("{n:plural:# round|# rounds}", {"n": 1}, "x") == "1 round"


def test_the_pseudo_locale_is_longer_accented_and_bracketed():
    text = "BOLSA-1.7 {counts[shares]} share cards :IBE:"
    fake = pseudo(text)
    assert fake.startswith("[") and fake.endswith("]")
    assert "BOLSA-1.7" in fake and "{counts[shares]}" in fake and ":IBE:" in fake
    assert "šĥåřé" in fake and len(pseudo("share cards")) >= len("share cards") * 1.4
    assert not translatable("{id}") and not translatable("+{tracks[quote].size}") and translatable("R")


def test_the_pseudo_locale_kit_builds(tmp_path):
    spec = loads(SMALL, folder=tmp_path)
    summary = build(spec, tmp_path / "out", ["small"], languages=["qps"])
    assert summary.games == ("small.qps",)
    text = _text(tmp_path / "out" / "small.qps" / "deck.pdf")
    assert "[Çåřð" in text  # "Card", accented and bracketed


def test_the_pseudo_locale_finds_what_would_not_fit_at_its_place(spec):
    issues = layout_issues(spec, "aktsioner", ["qps"])
    start = next(i for i in issues if i.path.endswith("sections[0].start_label"))
    lines = bundled_spec_path().read_text(encoding="utf-8").splitlines()
    written = next(n for n, row in enumerate(lines, 1) if "{title: Share prices, track: price" in row)
    assert start.file.endswith("components.yaml") and start.line == written and start.col > 1
    assert "(in the qps kit)" in start.message and "does not fit" in start.message
    assert layout_issues(spec, "aktsioner", ["ru", "en", "es"]) == []  # the real languages fit


def test_editing_a_source_sentence_marks_exactly_its_translations_fuzzy(tmp_path, capsys):
    """`pnp translate update` in a process of its own (its one command-line test); init and
    validate in this one (test_cli and test_spec_templates start validate as a command)."""
    assert main(["init", str(tmp_path)]) == 0
    spec_file = tmp_path / "components.yaml"
    old = "BOLSA-2.2 Each player receives **{rules[start_cash]}** in money."
    new = "BOLSA-2.2 Each player receives **{rules[start_cash]}** in cash."
    spec_file.write_text(spec_file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pnp", "translate", "update", "--spec", str(spec_file)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for code in ("es", "ru"):
        catalog = read(tmp_path / "locale" / code / "bolsa.po", code)
        fuzzy = status(catalog).fuzzy
        assert [msgid for msgid, _ in fuzzy] == [new]
        assert catalog[new].previous_id == [old] and catalog[new].string  # the old translation, kept
        assert status(read(tmp_path / "locale" / code / "forex.po", code)).fuzzy == ()
    line = status(read(tmp_path / "locale" / "es" / "bolsa.po", "es")).fuzzy[0][1]
    assert (tmp_path / "locale" / "es" / "bolsa.po").read_text(encoding="utf-8").splitlines()[line - 1].startswith("msgid")
    capsys.readouterr()
    assert main(["validate", str(spec_file)]) == 0
    assert f"bolsa.po:{line}:1: warning: es: fuzzy translation" in capsys.readouterr().err
    assert main(["validate", "--strict", str(spec_file)]) == 1  # a warning fails --strict
    strict = capsys.readouterr().err
    assert f"locale/es/bolsa.po:{line}:1: warning: es: fuzzy translation" in strict
    assert "Traceback" not in strict


def test_a_text_the_catalog_has_never_seen_is_reported_at_its_spec_line(tmp_path):
    shutil.copytree(bundled_spec_path().parent / "locale", tmp_path / "locale")
    text = bundled_spec_path().read_text(encoding="utf-8").replace("title: Share quotes", "title: Quotes of the shares")
    spec = loads(text, folder=tmp_path, file="components.yaml")
    issues = problems(spec, "bolsa", ("es",))
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "Quotes of the shares" in row)
    assert [(i.file, i.line) for i in issues if "Quotes of the shares" in i.message] == [("components.yaml", line)]


@pytest.mark.parametrize("g", GAMES)
def test_the_same_geometry_in_every_language(spec, g):
    """Every piece, line and page where the default kit has it: the display lists without
    their text are equal (a booklet's text flows, so its pages are compared by count)."""
    base = _shapes(lay_out_game(spec, g))
    for code in spec.games[g].kit_languages[1:]:
        other = _shapes(lay_out_game(spec, g, code))
        for component, pages in base.items():
            if spec.games[g].component(component).kind == "booklet":
                assert len(other[component]) == len(pages), (g, code, component)
            else:
                assert other[component] == pages, (g, code, component)


def _shapes(game_layout) -> dict[str, list]:
    return {laid.component.id: [(p.width, p.height, _without_text(p.items)) for p in laid.layout.pages]
            for laid in game_layout.laid}


def _without_text(items) -> tuple:
    kept = []
    for item in items:
        if isinstance(item, Text):
            continue
        if isinstance(item, Group):
            inner = _without_text(item.items)
            if inner:
                kept.append(Group(inner, tuple(round(v, 4) for v in item.transform), item.clip))
            continue
        kept.append(item)
    return tuple(kept)


def test_a_translated_game_keeps_its_numbers_and_codes(spec):
    game = spec.games["bolsa"]
    russian = translated(game, language(spec.folder, "bolsa", "ru"))
    assert russian.component("quote_board").name == "Табло котировок"
    assert [a.id for a in russian.assets] == [a.id for a in game.assets]
    assert russian.tracks == game.tracks and russian.rules == game.rules


def test_a_language_the_spec_lists_twice_or_the_pseudo_locale_is_refused():
    for languages in ("[en, en]", "[en, qps]", "[es]"):
        with pytest.raises(SpecError):
            loads(SMALL.replace("languages: [en]", f"languages: {languages}"))


SMALL = """
version: 1
games:
  small:
    title: Small
    language: en
    languages: [en]
    players: {min: 2, max: 4}
    companies:
      - {id: AA, name: Alpha, color: "#112233", symbol: circle}
    components:
      - id: deck
        kind: deck
        name: Cards
        cards:
          - {for_each: asset, count: 2, value: "{id}", title: Card}
"""


# --- the referee in the players' language ---------------------------------------------------------

RECORDS = ROOT / "tests" / "records"
SPOKEN_RECORDS = sorted(p for game in ("bolsa", "aktsioner", "forex") for p in (RECORDS / game).glob("*.yaml"))
EVENT_LINE = re.compile(r"^((?:[A-Z]+-[\dX.]+|A\d+))  (.*)$")


def _explained(record: Path, code: str | None = None) -> list[str]:
    from pnp import referee

    read = referee.read_record(record)
    answer = referee.check(read)
    with speaking(referee.language(code, read.game) if code else None):
        return [*referee.explain(answer), referee.verdict(answer, record.name)]


SAME_WORDS = {"es": {"total"}, "ru": set()}  # English words the language writes alike


@pytest.mark.parametrize("record", SPOKEN_RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_referee_explains_in_spanish_and_russian_with_the_same_rules_and_numbers(spec, record):
    english = _explained(record)
    said = [EVENT_LINE.match(line).groups() for line in english if EVENT_LINE.match(line)]
    ids = {asset.id for asset in spec.games[record.parent.name].assets}  # the record's names of colours and companies
    for code, letters in (("es", "[a-záéíóúñ]"), ("ru", "[а-яё]")):
        spoken = _explained(record, code)
        worded = [EVENT_LINE.match(line).groups() for line in spoken if EVENT_LINE.match(line)]
        assert [rule for rule, _ in worded] == [rule for rule, _ in said]  # every step, its rule ID as it is
        for (rule, there), (_, here) in zip(said, worded, strict=True):
            assert sorted(re.findall(r"\d+", here)) == sorted(re.findall(r"\d+", there)), (rule, there, here)
            if set(re.findall(r"\b[a-z]{3,}\b", there)) - ids - SAME_WORDS[code]:  # an event with words to translate
                assert here != there and re.search(letters, here), (code, rule, here)
        assert spoken[0].startswith({"es": "reglas: ", "ru": "правила: "}[code])
        assert sorted(re.findall(r"\d+", spoken[-1])) == sorted(re.findall(r"\d+", english[-1]))  # the verdict


@pytest.mark.parametrize("code", ["es", "ru"])
def test_aktsioners_colours_are_named_in_the_kits_language_where_english_says_their_ids(spec, kits, code):
    colours = [asset.id for asset in spec.games["aktsioner"].assets]
    named = [language(spec.folder, "aktsioner", code).gettext(colour) for colour in colours]
    assert len(set(named)) == len(colours) and set(named).isdisjoint(colours)
    an_id = re.compile(rf"\b(?:{'|'.join(colours)})\b")
    english = _text(kits[("aktsioner", "en")] / "rules_booklet.pdf")
    booklet = _text(kits[("aktsioner", code)] / "rules_booklet.pdf")
    assert len(an_id.findall(english)) > 30  # the worked examples and {assets} name the colours
    assert an_id.findall(booklet) == [] and all(booklet.count(word) >= 5 for word in named)
    spoken = "\n".join(_explained(RECORDS / "aktsioner" / "x15_two_zeroings.yaml", code))
    assert an_id.findall(spoken) == [] and sum(spoken.count(word) for word in named) >= 5


def test_the_referee_asked_in_english_loads_no_catalog_and_another_language_is_a_usage_error(capsys):
    """What English loads is a fresh process's question (a subprocess); the Russian answer and
    the German usage error are the command line's own code path, run in this process."""
    record = RECORDS / "aktsioner" / "x15_two_zeroings.yaml"
    probe = ("import sys\nfrom pnp.cli import main\n"
             f"main(['referee', 'explain', {str(record)!r}])\n"
             "print('babel' in sys.modules, file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr.strip().splitlines()[-1] == "False", run.stderr
    assert main(["referee", "explain", str(record), "--lang", "ru"]) == 0
    assert "AKT-6.2  синие: 240 +100 = 340 → 250 (переполнение 90 на акцию)" in capsys.readouterr().out
    assert main(["referee", "explain", str(record), "--lang", "de"]) == 2
    german = capsys.readouterr()
    assert "--lang de" in german.err and "en, es, ru" in german.err
    assert "Traceback" not in german.err and german.out == ""
