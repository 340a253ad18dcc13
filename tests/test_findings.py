"""The one shape of a finding (`pnp.findings`): where it points, how it prints, the exit status it earns."""

from pnp.errors import Issue
from pnp.findings import Finding, from_issue, verdict


def test_a_finding_located_in_a_file_prints_file_line_col_then_what_and_how():
    found = Finding("small-text", "warning", "'INICIO' is set at 6 pt, below 7 pt", "set it at 7 pt or more",
                    "components.yaml", 12, 5, "games.bolsa.components[0]", game="bolsa", component="board")
    assert str(found).startswith("components.yaml:12:5: games.bolsa.components[0]: board: warning: ")
    assert str(found).endswith(" — set it at 7 pt or more")
    assert found.as_json()["line"] == 12 and found.as_json()["box"] is None


def test_a_finding_about_a_face_names_the_game_kit_component_and_face():
    found = Finding("bleed", "warning", "the art stops 1 mm short of the bleed", game="forex", kit="es",
                    component="certificates", face="GBP", box=(0.0, 0.0, 63.0, 88.0))
    assert found.where == "forex.es certificates GBP"
    assert found.as_json()["box"] == [0.0, 0.0, 63.0, 88.0]


def test_an_issue_becomes_a_finding_at_the_same_place():
    issue = Issue("components.yaml", 3, 7, "games.bolsa.title", "too long")
    found = from_issue(issue, "spec", game="bolsa")
    assert (found.file, found.line, found.col, found.path, found.severity, found.game) == (
        "components.yaml", 3, 7, "games.bolsa.title", "error", "bolsa")


def test_warnings_fail_only_under_strict_and_errors_always():
    warning = Finding("colour-blind", "warning", "red and green look alike")
    error = Finding("fit", "error", "text does not fit")
    assert (verdict([], strict=True), verdict([warning], strict=False), verdict([warning], strict=True),
            verdict([error], strict=False)) == (0, 0, 1, 1)
