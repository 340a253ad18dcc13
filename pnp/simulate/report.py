"""The simulation report: the verdict, plots and tables in one HTML page or one PDF.

The page opens with the verdict (`words`), the seats' rotation where several bots play, then
the plots, then the table of every estimate and the glossary. Each plot shows both rule sets
when two are compared: the win rate of every seat (and bot) with its 95 % interval against
the fair share; the distribution of game lengths; the winner's lead and, per currency, the
most money in players' hands as distributions (ECDFs: the share of games at or below each
value); per currency the bills players hold against the bills printed; and the track over
the first games (median and 10–90 % band per series, by step).

A plot is a list of panels, each drawn on one axis by a function: the HTML page gives each
panel its own image in a grid that folds to one column on a phone (the page has a viewport),
the PDF gives each plot a page with its panels side by side. matplotlib is imported here
only, when a report is asked for.
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pnp.simulate import judge, words
from pnp.simulate.runner import context
from pnp.simulate.simulation import Run, glossary_lines, heading, table, verdict_lines
from pnp.simulate.tally import Distribution

COLOURS = ("#0072b2", "#d55e00")  # rule set a, rule set b (Okabe–Ito: distinct for colour-blind readers)
STYLES = ("-", "--")  # and a second cue than colour: solid a, dashed b
PANEL_INCHES = (5.0, 3.3)  # one panel: 500 × 330 px at 100 dpi, legible at a phone's 390 px
DPI = 100


@dataclass(frozen=True)
class Panel:
    """One small plot: its title and the function that draws it on a matplotlib axis."""

    title: str
    draw: Callable[[Any], None]


@dataclass(frozen=True)
class Plot:
    """A titled group of panels (one heading on the page, one page in the PDF)."""

    title: str
    panels: tuple[Panel, ...]


def write_report(path: Path, runs: Sequence[tuple[Run, Run | None]],
                 margins: Mapping[str, judge.Margin] | None = None) -> list[str]:
    """Write the report (HTML or PDF by the file's suffix); the titles of the plots drawn. The
    file is written whole or not at all: a failed report leaves the previous one."""
    import matplotlib

    matplotlib.use("Agg")
    plots = [plot for first, second in runs for plot in plots_of(first, second)]
    part = path.with_name(f".{path.name}.part")
    try:
        (_pdf if path.suffix.lower() == ".pdf" else _html)(part, runs, plots, margins)
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    return [plot.title for plot in plots]


def plots_of(first: Run, second: Run | None) -> list[Plot]:
    runs = [first] if second is None else [first, second]
    where = f"{first.setup.game}, {first.setup.players} players"
    found = [Plot(f"Win rate per seat — {where}", _win_rates(runs)),
             Plot(f"Game length and the winner's lead — {where}", (_length(runs), _ecdf_panel(
                 "winner's lead over the runner-up", runs, lambda run: run.tally.margin)))]
    if first.summary["components"]["money"]:
        found.append(Plot(f"Money in hands, and the bills to add — {where}", _money(runs)))
    if first.tracks:
        probe = context(first.setup).probe
        found.append(Plot(f"The {probe.series_label or probe.track_name or 'track'} over the first games — {where}",
                          _tracks(runs)))
    return found


def _label(run: Run, runs: Sequence[Run]) -> str:
    return run.label if len(runs) == 1 else f"{'ab'[runs.index(run)]}: {run.label}"


def _bars(axis: Any, runs: Sequence[Run], names: Sequence[str], rates_of: Callable[[Run], Sequence[Any]],
          what: str, fair: float) -> None:
    width = 0.8 / len(runs)
    for k, run in enumerate(runs):
        rates = rates_of(run)
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(names))]
        errors = [[r.value - r.low for r in rates], [r.high - r.value for r in rates]]
        axis.bar(xs, [r.value for r in rates], width, yerr=errors, capsize=4, color=COLOURS[k],
                 hatch="" if k == 0 else "//", edgecolor="white", label=_label(run, runs))
    axis.set_xticks(range(len(names)), names)
    axis.set_xlabel(what)
    axis.set_ylabel("win rate (95 % interval)")
    axis.axhline(fair, color="#555555", linestyle="--", linewidth=1, label=f"fair share {fair:.3g}")
    axis.legend(fontsize=8)


def _win_rates(runs: Sequence[Run]) -> tuple[Panel, ...]:
    first = runs[0]
    fair = 1 / first.setup.players
    seats = [str(s["seat"]) for s in first.summary["seat_win_rate"]]
    panels = [Panel("per seat", lambda axis: _bars(axis, runs, seats, lambda run: [
        s["win_rate"] for s in run.summary["seat_win_rate"]], "seat", fair))]
    bots = list(first.summary["bot_win_rate"])
    if len(bots) > 1:
        panels.append(Panel("per bot (wins per seat played)", lambda axis: _bars(axis, runs, bots, lambda run: [
            run.summary["bot_win_rate"][b]["win_rate"] for b in bots], "bot", fair)))
    return tuple(panels)


HISTOGRAM_MOST = 15  # lengths of more values than this are drawn as an ECDF: side-by-side bars turn to noise


def _length(runs: Sequence[Run]) -> Panel:
    if any(len(run.tally.length.counts) > HISTOGRAM_MOST for run in runs):
        return _ecdf_panel(f"game length ({runs[0].unit})", runs, lambda run: run.tally.length)

    def draw(axis: Any) -> None:
        for k, run in enumerate(runs):
            counts = run.tally.length.ordered()
            xs, shares = [float(x) for x, _ in counts], [c / max(run.tally.games, 1) for _, c in counts]
            axis.bar([x + (k - (len(runs) - 1) / 2) * 0.8 / len(runs) for x in xs], shares, 0.8 / len(runs),
                     color=COLOURS[k], hatch="" if k == 0 else "//", edgecolor="white", label=_label(run, runs))
        from matplotlib.ticker import MaxNLocator

        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_xlabel(f"length ({runs[0].unit})")
        axis.set_ylabel("share of games")
        axis.legend(fontsize=8)

    return Panel(f"game length ({runs[0].unit})", draw)


def _ecdf_panel(what: str, runs: Sequence[Run], values: Callable[[Run], Distribution],
                printed: float | None = None) -> Panel:
    """The share of games at or below each value, a step per value met."""

    def draw(axis: Any) -> None:
        for k, run in enumerate(runs):
            distribution = values(run)
            xs, ys, seen = [], [], 0
            for value, count in distribution.ordered():
                seen += count
                xs.append(float(value))
                ys.append(seen / max(distribution.n, 1))
            if xs:
                axis.step([xs[0]] + xs, [0.0] + ys, where="post", color=COLOURS[k], linestyle=STYLES[k], linewidth=1.6,
                          label=_label(run, runs))
        if printed is not None:
            axis.axvline(printed, color="#555555", linestyle=":", linewidth=1.2, label=f"printed {printed:g}")
        axis.set_xlabel(what)
        axis.set_ylabel("share of games at or below")
        axis.set_ylim(0, 1.02)
        axis.legend(fontsize=8)

    return Panel(what, draw)


def _money(runs: Sequence[Run]) -> tuple[Panel, ...]:
    """Per currency: the most money in hands at once per game (ECDF, with the printed total),
    and per denomination the bills printed and the bills to add so that the printed money pays
    every game but the hardest 1 % (`pressure`: none where it already does)."""
    panels = []
    for c, currency in enumerate(runs[0].summary["components"]["money"]):
        name = words.money_name(currency["currency"])
        panels.append(_ecdf_panel(f"most {name} in hands at once", runs, _money_in_hands(c), float(currency["printed"])))
        panels.append(Panel(f"{name}: bills printed, and to add (99th percentile)", _bills_drawer(runs, c)))
    return tuple(panels)


def _money_in_hands(c: int) -> Callable[[Run], Distribution]:
    return lambda run: run.tally.money[c].total


def _bills_drawer(runs: Sequence[Run], c: int) -> Callable[[Any], None]:
    def draw(axis: Any) -> None:
        currency = runs[0].summary["components"]["money"][c]
        labels = [_value(d["value"]) for d in currency["denominations"]]
        xs = range(len(labels))
        width = 0.8 / (len(runs) + 1)
        axis.bar([x - len(runs) * width / 2 for x in xs], [d["printed"] for d in currency["denominations"]], width,
                 color="#bbbbbb", label="printed")
        for k, run in enumerate(runs):
            mine = run.summary["components"]["money"][c]
            axis.bar([x + (k + 1 - len(runs) / 2) * width for x in xs], [d["add_p99"] or 0 for d in mine["denominations"]],
                     width, color=COLOURS[k], hatch="" if k == 0 else "//", edgecolor="white",
                     label=f"to add, 99th pct{'' if len(runs) == 1 else ' ' + 'ab'[k]}")
        axis.set_xticks(list(xs), labels)
        axis.set_xlabel("denomination")
        axis.set_ylabel("bills")
        axis.legend(fontsize=8)

    return draw


def _tracks(runs: Sequence[Run]) -> tuple[Panel, ...]:
    """Per series (a company's quote, a currency's strength), the median and 10–90 % band over
    the kept games at each step, while at least half of them are still running."""
    probe = context(runs[0].setup).probe

    def drawer(s: int) -> Callable[[Any], None]:
        def draw(axis: Any) -> None:
            for k, run in enumerate(runs):
                games = run.tracks
                shown = sorted(len(track) for track in games)[len(games) // 2] if games else 0  # half still run
                import numpy

                steps = list(range(shown))
                bands = [numpy.quantile([track[step][s] for track in games if step < len(track)], (0.1, 0.5, 0.9))
                         for step in steps]
                low, middle, high = (list(band) for band in zip(*bands, strict=True)) if bands else ([], [], [])
                axis.fill_between(steps, low, high, color=COLOURS[k], alpha=0.2, linewidth=0)
                axis.plot(steps, middle, color=COLOURS[k], linestyle=STYLES[k], linewidth=1.5, label=_label(run, runs))
            axis.set_xlabel("step")
            axis.set_ylabel(probe.series_label or probe.track_name)
            axis.legend(fontsize=8)

        return draw

    return tuple(Panel(name, drawer(s)) for s, name in enumerate(probe.series_names))


def _value(value: float) -> str:
    return "½" if value == 0.5 else f"{value:g}"


def _figure(panels: Sequence[Panel], columns: int) -> Any:
    """One figure with the panels in a grid of at most `columns` columns."""
    import matplotlib.pyplot as plt

    columns = min(columns, len(panels))
    rows = -(-len(panels) // columns)
    figure, grid = plt.subplots(rows, columns, figsize=(PANEL_INCHES[0] * columns, PANEL_INCHES[1] * rows + 0.4),
                                squeeze=False)
    axes = [axis for row in grid for axis in row]
    for axis, panel in zip(axes, panels, strict=False):
        panel.draw(axis)
        axis.set_title(panel.title, fontsize=10)
    for axis in axes[len(panels):]:
        axis.axis("off")
    figure.tight_layout()
    return figure


# --- the two formats -------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:0 auto;padding:12px;color:#222;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1.05em}
.verdict{font-size:1.05em;padding-left:1.2em}.verdict li{margin:.3em 0}
.note{background:#fff6e0;border-left:4px solid #e69f00;padding:6px 10px}
.plots{display:flex;flex-wrap:wrap;gap:12px}
.plots figure{flex:0 1 PANELpx;max-width:100%;margin:0}
.plots img{width:100%;height:auto;display:block}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:13px}
td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left;white-space:normal;min-width:12em}
dt{font-weight:600}dd{margin:0 0 .6em 0}
""".strip().replace("PANEL", str(round(PANEL_INCHES[0] * DPI)))  # a panel shown at its drawn width, never blown up


def _png(panel: Panel) -> str:
    import matplotlib.pyplot as plt

    figure = _figure([panel], 1)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _head(title: str) -> list[str]:
    return ["<!doctype html><html lang='en'><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<title>{html.escape(title)}</title>", f"<style>{STYLE}</style>", f"<h1>{html.escape(title)}</h1>"]


def _verdict_html(lines: Sequence[str]) -> str:
    return "<ul class='verdict'>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>"


def _plots_html(plots: Sequence[Plot]) -> list[str]:
    parts = []
    for plot in plots:
        parts.append(f"<h3>{html.escape(plot.title)}</h3><div class='plots'>")
        parts += [f"<figure><img alt='{html.escape(panel.title)}' src='data:image/png;base64,{_png(panel)}'></figure>"
                  for panel in plot.panels]
        parts.append("</div>")
    return parts


def _table_html(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [f"<h3>{html.escape(title)}</h3><div class='scroll'><table><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>",
            *("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows),
            "</table></div>"]


def _glossary_html(entries: Sequence[str]) -> list[str]:
    parts = ["<h3>Glossary</h3><dl>"]
    for entry in entries:
        term, _, meaning = entry.partition(": ")
        parts.append(f"<dt>{html.escape(term)}</dt><dd>{html.escape(meaning)}</dd>")
    return parts + ["</dl>"]


def _html(path: Path, runs: Sequence[tuple[Run, Run | None]], plots: Sequence[Plot],
          margins: Mapping[str, judge.Margin] | None = None) -> None:
    first = runs[0][0]
    parts = _head(f"pnp simulate — {first.setup.game}")
    for a, b in runs:
        parts.append(f"<h2>{html.escape(heading(a, b))}</h2>")
        parts.append(_verdict_html(verdict_lines(a, b, margins)))
        note = words.rotation(a.setup.players, a.setup.bots)
        if note:
            parts.append(f"<p class='note'>{html.escape(note)}</p>")
    parts += _plots_html(plots)
    for a, b in runs:
        parts += _table_html(f"Every estimate — {heading(a, b)}", *table(a, b, margins))
    parts += _glossary_html(glossary_lines(first, compared=runs[0][1] is not None))
    path.write_text("\n".join(parts + ["</html>"]) + "\n", encoding="utf-8")


def _pdf(path: Path, runs: Sequence[tuple[Run, Run | None]], plots: Sequence[Plot],
         margins: Mapping[str, judge.Margin] | None = None) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": "pnp simulate", "CreationDate": None}) as pdf:
        for first, second in runs:
            verdict = [f"• {line}" for line in verdict_lines(first, second, margins)]
            note = words.rotation(first.setup.players, first.setup.bots)
            _text_pages(pdf, [heading(first, second), "", *verdict, *([note] if note else []), "",
                              *_text_table(*table(first, second, margins)), "",
                              *glossary_lines(first, compared=second is not None)])
        _plot_pages(pdf, plots)


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The table as lines of monospaced text, each column as wide as its widest cell."""
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in [header, *rows]]


def _text_pages(pdf: Any, lines: Sequence[str]) -> None:
    """`lines`, wrapped, on A4 pages of 80 lines of monospaced text."""
    import matplotlib.pyplot as plt

    body = _wrapped(lines)
    for start in range(0, len(body), 80):
        page = plt.figure(figsize=(8.27, 11.69))
        page.text(0.05, 0.97, "\n".join(body[start:start + 80]), family="monospace", fontsize=6.5, va="top")
        pdf.savefig(page)
        plt.close(page)


def _plot_pages(pdf: Any, plots: Sequence[Plot]) -> None:
    """A page per plot, its panels two across."""
    import matplotlib.pyplot as plt

    for plot in plots:
        figure = _figure(plot.panels, 2)
        figure.suptitle(plot.title, fontsize=10)
        figure.tight_layout()
        pdf.savefig(figure)
        plt.close(figure)


def _wrapped(lines: Sequence[str], width: int = 130) -> list[str]:
    import textwrap

    return [part for line in lines for part in (textwrap.wrap(line, width) or [""])]


# --- the report of a search (pnp tune) ---------------------------------------------------------------


def write_tune_report(path: Path, answer: dict[str, Any], arms: Sequence[Any], targets: Sequence[Any]) -> list[str]:
    """The report of `pnp tune`: the verdict, each target's measured value per candidate
    against the target's band, the candidates' table; HTML or PDF, written whole or not at all."""
    import matplotlib

    matplotlib.use("Agg")
    plots = [Plot("Each target, per candidate (95 % intervals; the band is the target)",
                  tuple(_target_panel(arms, target) for target in targets))]
    part = path.with_name(f".{path.name}.part")
    header = ("rules", "games", *(str(t) for t in targets), "distance")
    rows = [(", ".join(f"{k}={v}" for k, v in arm["rules"].items()), f"{arm['games']:,}",
             *(f"{m['value']:.4g} [{m['ci95'][0]:.4g}, {m['ci95'][1]:.4g}]" for m in arm["targets"].values()),
             f"{arm['miss']:.3g}") for arm in answer["candidates"]]
    lines = [item["text"] for item in answer["verdict"]]
    title = f"pnp tune — {answer['game']}, {answer['players']} players"
    try:
        if path.suffix.lower() == ".pdf":
            _tune_pdf(part, title, lines, plots, header, rows)
        else:
            parts = [*_head(title), _verdict_html(lines), *_plots_html(plots),
                     *_table_html("Candidates, closest first", header, rows)]
            part.write_text("\n".join(parts + ["</html>"]) + "\n", encoding="utf-8")
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    return [plot.title for plot in plots]


def _target_panel(arms: Sequence[Any], target: Any) -> Panel:
    def draw(axis: Any) -> None:
        shown = [arm for arm in arms if arm.run is not None]
        labels = [", ".join(f"{value}" for value in arm.values.values()) for arm in shown]
        estimates = [target.measure(arm.run.summary) for arm in shown]
        xs = range(len(shown))
        colours = [COLOURS[0] if arm.out_in_round is None else "#999999" for arm in shown]
        for x, estimate, colour in zip(xs, estimates, colours, strict=True):
            axis.errorbar([x], [estimate.value], yerr=[[estimate.value - estimate.low], [estimate.high - estimate.value]],
                          fmt="o", color=colour, capsize=3)
        if target.op == "=":
            axis.axhspan(target.value - target.tolerance, target.value + target.tolerance, color=COLOURS[1], alpha=0.15)
        else:
            axis.axhline(target.value, color=COLOURS[1], linestyle="--", linewidth=1)
        axis.set_xticks(list(xs), labels, rotation=45 if len(shown) > 8 else 0, fontsize=8)
        axis.set_xlabel(", ".join(shown[0].values) if shown else "")
        axis.set_ylabel(target.metric)

    return Panel(str(target), draw)


def _tune_pdf(path: Path, title: str, lines: Sequence[str], plots: Sequence[Plot], header: Sequence[str],
              rows: Sequence[Sequence[str]]) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": title, "CreationDate": None}) as pdf:
        _text_pages(pdf, [title, "", *(f"• {line}" for line in lines), "", *_text_table(header, rows)])
        _plot_pages(pdf, plots)
