"""The program's texts to translate read from the syntax tree (`pnp.translate.python_messages`)
are Babel's: the same literals, lines and translator comments, over the whole package and over
the forms a module may mark a literal in."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.extract import extract

from pnp.translate import KEYWORDS, SKIPPED, python_messages

PACKAGE = Path(__file__).resolve().parents[1] / "pnp"
FORMS = '''
import i18n
def f(n, name):
    a = _("plain")
    b = i18n._("as an attribute")
    c = ngettext("{n} card", "{n} cards", n)
    d = _(
        "on the next line"
    )
    e = _("implicit " "concatenation")
    g = _(name)
    h = _("")
    i = _(f"{name} formatted")
    # TRANSLATORS: a note for the translator
    # on two lines
    j = _("with a note")
    # an ordinary comment
    k = _("without a note")
    l = N_("marked only")
    m = [N_plural("{n} bill", "{n} bills"), N_("second on the line")]
    o = print(_("nested in a call"), len(_("twice")))

@decorated(_("in a decorator"))
class C:
    pass
'''


def babel(source: str) -> list[tuple[int, object, list[str]]]:
    found = extract("python", io.BytesIO(source.encode()), KEYWORDS, comment_tags=("TRANSLATORS:",))
    return [(line, tuple(message) if isinstance(message, tuple) else message, comments)
            for line, message, comments, _context in found]


def test_the_forms_of_a_marked_literal_read_as_babel_reads_them(capsys) -> None:
    ours = list(python_messages(FORMS))
    assert ours == babel(FORMS)
    assert (16, "with a note", ["TRANSLATORS: a note for the translator", "on two lines"]) in ours
    assert (23, "in a decorator", []) in ours
    assert not [m for m in ours if m[1] in ("", "{name} formatted")]


def test_every_module_of_the_package_reads_as_babel_reads_it(capsys) -> None:
    modules = [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in SKIPPED]
    marked = 0
    for path in modules:
        source = path.read_text(encoding="utf-8")
        ours = list(python_messages(source))
        assert ours == babel(source), path
        marked += len(ours)
    assert marked > 300  # the package's sheets, instructions and engines mark hundreds
