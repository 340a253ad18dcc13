"""The simulation report: plots and tables in one HTML page or one PDF.

Four plots per player count, each showing both rule sets when two are compared: the win rate
of every seat (and bot) with its 95 % interval against the fair share; the distribution of game
lengths; per currency, the bills the players hold (99th percentile of each game's peak)
against the bills printed; and the track over the first games (median and 10–90 % band per
series, by step). matplotlib is imported here only, when a report is asked for.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any, Sequence

from pnp.simulate.metrics import quantile
from pnp.simulate.runner import context
from pnp.simulate.simulation import Run, heading, table

COLOURS = ("#0072b2", "#d55e00")  # rule set a, rule set b (Okabe–Ito: distinct for colour-blind readers)


def write_report(path: Path, runs: Sequence[tuple[Run, Run | None]]) -> list[str]:
    """Write the report (HTML or PDF by the file's suffix); the titles of the plots drawn. The
    file is written whole or not at all: a failed report leaves the previous one."""
    figures = [(title, figure) for first, second in runs for title, figure in _figures(first, second)]
    part = path.with_name(f".{path.name}.part")
    try:
        (_pdf if path.suffix.lower() == ".pdf" else _html)(part, runs, figures)
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    import matplotlib.pyplot as plt

    for _, figure in figures:
        plt.close(figure)
    return [title for title, _ in figures]


def _figures(first: Run, second: Run | None) -> list[tuple[str, Any]]:
    import matplotlib

    matplotlib.use("Agg")
    runs = [first] if second is None else [first, second]
    where = f"{first.setup.game}, {first.setup.players} players"
    found = [(f"Win rate per seat — {where}", _win_rates(runs)), (f"Game length — {where}", _lengths(runs))]
    if first.summary["components"]["money"]:
        found.append((f"Money in hands against the printed bills — {where}", _money(runs)))
    if first.tracks:
        probe = context(first.setup).probe
        found.append((f"The {probe.series_label or probe.track_name or 'track'} over the first games — {where}",
                      _tracks(runs)))
    return found


def _label(run: Run, runs: Sequence[Run]) -> str:
    return run.label if len(runs) == 1 else f"{'ab'[runs.index(run)]}: {run.label}"


def _win_rates(runs: Sequence[Run]) -> Any:
    import matplotlib.pyplot as plt

    bots = list(runs[0].summary["bot_win_rate"])
    figure, axes = plt.subplots(1, 2 if len(bots) > 1 else 1, figsize=(10, 4), squeeze=False)
    width = 0.8 / len(runs)
    for k, run in enumerate(runs):
        groups = [("seat", [str(s["seat"]) for s in run.summary["seat_win_rate"]],
                   [s["win_rate"] for s in run.summary["seat_win_rate"]])]
        if len(bots) > 1:
            groups.append(("bot", bots, [run.summary["bot_win_rate"][b]["win_rate"] for b in bots]))
        for axis, (what, names, rates) in zip(axes[0], groups):
            xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(names))]
            values = [r.value for r in rates]
            errors = [[r.value - r.low for r in rates], [r.high - r.value for r in rates]]
            axis.bar(xs, values, width, yerr=errors, capsize=4, color=COLOURS[k], label=_label(run, runs))
            axis.set_xticks(range(len(names)), names)
            axis.set_xlabel(what)
            axis.set_ylabel("win rate (95 % interval)")
    fair = 1 / runs[0].setup.players
    for axis in axes[0]:
        axis.axhline(fair, color="#555555", linestyle="--", linewidth=1, label=f"fair share 1/{runs[0].setup.players}")
        axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def _lengths(runs: Sequence[Run]) -> Any:
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(10, 4))
    for k, run in enumerate(runs):
        histogram = run.summary["length"]["histogram"]
        xs, counts = [int(x) for x in histogram], list(histogram.values())
        shares = [c / run.games for c in counts]
        axis.bar([x + (k - (len(runs) - 1) / 2) * 0.8 / len(runs) for x in xs], shares, 0.8 / len(runs),
                 color=COLOURS[k], label=_label(run, runs))
    axis.set_xlabel(f"length ({runs[0].summary['length']['unit']})")
    axis.set_ylabel("share of games")
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def _money(runs: Sequence[Run]) -> Any:
    """Per currency and denomination: the printed bills, and the 99th percentile of the most
    bills of it the players hold at once in a game."""
    currencies = runs[0].summary["components"]["money"]
    figure, axes = _grid(len(currencies), 4, (3.2, 3))
    width = 0.8 / (len(runs) + 1)
    for c, currency in enumerate(currencies):
        axis = axes[c]
        labels = [_value(d["value"]) for d in currency["denominations"]]
        xs = range(len(labels))
        axis.bar([x - len(runs) * width / 2 for x in xs], [d["printed"] for d in currency["denominations"]], width,
                 color="#bbbbbb", label="printed")
        for k, run in enumerate(runs):
            mine = run.summary["components"]["money"][c]
            axis.bar([x + (k + 1 - len(runs) / 2) * width for x in xs], [d["p99_in_hands"] for d in mine["denominations"]],
                     width, color=COLOURS[k], label=f"99th pct in hands{'' if len(runs) == 1 else ' ' + 'ab'[k]}")
        total = currency["printed"]
        held = " / ".join(f"{run.summary['components']['money'][c]['p99_in_hands']:g}" for run in runs)
        axis.set_title(f"{currency['currency']}: {held} of {total:g} in hands", fontsize=9)
        axis.set_xticks(list(xs), labels)
        axis.set_xlabel("denomination")
        axis.set_ylabel("bills")
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def _tracks(runs: Sequence[Run]) -> Any:
    """Per series (a company's quote, a currency's strength), the median and 10–90 % band over
    the kept games at each step, while at least half of them are still running."""
    probe = context(runs[0].setup).probe
    names = probe.series_names
    figure, axes = _grid(len(names), 3, (3.6, 2.8), sharey=True)
    for k, run in enumerate(runs):
        games = run.tracks
        shown = sorted(len(track) for track in games)[len(games) // 2] if games else 0  # half the games still run
        for s, name in enumerate(names):
            axis = axes[s]
            steps, low, middle, high = [], [], [], []
            for step in range(shown):
                values = [track[step][s] for track in games if step < len(track)]
                steps.append(step)
                low.append(quantile(values, 0.1))
                middle.append(quantile(values, 0.5))
                high.append(quantile(values, 0.9))
            axis.fill_between(steps, low, high, color=COLOURS[k], alpha=0.2, linewidth=0)
            axis.plot(steps, middle, color=COLOURS[k], linewidth=1.5, label=_label(run, runs))
            axis.set_title(name, fontsize=9)
            axis.set_xlabel("step")
            axis.set_ylabel(probe.series_label or probe.track_name, fontsize=8)
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return figure


def _grid(count: int, most_columns: int, cell: tuple[float, float], **shared: Any) -> tuple[Any, list[Any]]:
    """A figure of `count` small plots, at most `most_columns` a row (inches per plot: `cell`);
    its axes in reading order, the unused ones of the last row hidden."""
    import matplotlib.pyplot as plt

    columns = min(most_columns, count)
    rows = -(-count // columns)
    figure, grid = plt.subplots(rows, columns, figsize=(cell[0] * columns + 1, cell[1] * rows + 0.5), squeeze=False,
                                **shared)
    axes = [axis for row in grid for axis in row]
    for axis in axes[count:]:
        axis.axis("off")
    return figure, axes[:count]


def _value(value: float) -> str:
    return "½" if value == 0.5 else f"{value:g}"


# --- the two formats -------------------------------------------------------------------------------------


def _html(path: Path, runs: Sequence[tuple[Run, Run | None]], figures: list[tuple[str, Any]]) -> None:
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
             "text-align:right}td:first-child,th:first-child{text-align:left}img{max-width:100%}")
    parts = ["<!doctype html><meta charset='utf-8'><title>pnp simulate</title>", f"<style>{style}</style>",
             "<h1>pnp simulate</h1>"]
    for first, second in runs:
        parts.append(f"<h2>{html.escape(heading(first, second))}</h2>")
        header, rows = table(first, second)
        parts.append("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>")
        parts.append("</table>")
    for title, figure in figures:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100)
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        parts.append(f"<h3>{html.escape(title)}</h3><img alt='{html.escape(title)}' src='data:image/png;base64,{data}'>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def _pdf(path: Path, runs: Sequence[tuple[Run, Run | None]], figures: list[tuple[str, Any]]) -> None:
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": "pnp simulate", "CreationDate": None}) as pdf:
        for first, second in runs:
            header, rows = table(first, second)
            widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
            lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in [header, *rows]]
            for start in range(0, len(lines), 60):
                page = plt.figure(figsize=(8.27, 11.69))
                text = "\n".join([heading(first, second), "", *lines[start:start + 60]])
                page.text(0.05, 0.97, text, family="monospace", fontsize=6.5, va="top")
                pdf.savefig(page)
                plt.close(page)
        for title, figure in figures:
            figure.suptitle(title, fontsize=10)
            figure.tight_layout()
            pdf.savefig(figure)

