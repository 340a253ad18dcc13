"""The `pnp` command: validate, build, watch, init, schema, referee, simulate, rules, table.

Imports stay light: each subcommand imports its own machinery on demand, so `pnp referee`
and `pnp validate` never load reportlab. Every user error is printed as readable lines with
the exit status of its kind; no traceback reaches the user (set PNP_DEBUG=1 to see one).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar

from pnp import __version__
from pnp.errors import PnpError, UsageError
from pnp.errors import display_name as shown

if TYPE_CHECKING:
    from pnp.referee.record import Record

T = TypeVar("T")


def _help_of(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """What a command group without its verb runs: its help, and exit 2 (a usage error)."""

    def run(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return run


def _command(words: Sequence[str]) -> str | None:
    """The command a command line asks for: its first word that is neither an option nor the
    value of `--engine FILE.py` (the one global option that takes a value)."""
    after_engine = False
    for word in words:
        if after_engine or word.startswith("--engine="):
            after_engine = False
            continue
        if word == "--engine":
            after_engine = True
        elif not word.startswith("-"):
            return word
    return None


def _register(engines: Sequence[str] | None) -> None:
    """The rules files `--engine` gives, for this run: before anything reads the registry."""
    if engines:
        from pnp.rules import register_file

        for path in engines:
            register_file(path)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(_command(words))
    args = parser.parse_args(words)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        _register(args.engine)
        return run(args)
    except PnpError as error:
        for line in error.lines():
            print(line, file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug in pnp, not in the user's input
        if os.environ.get("PNP_DEBUG"):
            raise
        print(f"pnp: internal error: {type(error).__name__}: {error} (set PNP_DEBUG=1 for details)", file=sys.stderr)
        return 3


@cache
def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's grammar: every command named, with the arguments of `command` (of
    every command when None: the help and its errors), built once a process — parsing never
    changes it, and callers that run many commands in one process (the tests, `benchmarks/`)
    would build it each time. A referee's answer does not wait for the simulator's forty
    options to be built (a sixth of its start-up beyond `import yaml`)."""
    parser = argparse.ArgumentParser(prog="pnp", description="Print-and-play kit for stock-market board games.")
    parser.add_argument("--version", action="version", version=f"pnp {__version__}")
    parser.add_argument("--engine", action="append", metavar="FILE.py",
                        help="play the game whose rules this file holds (a game named by the file's stem), besides the "
                             "installed ones; repeatable. A spec never loads code: its game's engine is installed or "
                             "given here")
    commands = _Commands(parser.add_subparsers(title="commands", metavar="COMMAND"), command)

    validate = commands.add_parser("validate", help="check components.yaml and every kit it prints, in one list")
    validate.add_argument("spec_file", nargs="?", metavar="SPEC", help="spec file, same as --spec")
    _spec_option(validate)
    validate.add_argument("--strict", action="store_true", help="exit 1 on any warning, not only on errors")
    validate.add_argument("--json", action="store_true", help="the findings as JSON (docs/validate.md)")
    validate.add_argument("--lang", action="append", metavar="CODE",
                          help="check the kits in this language (repeatable; all: every language; default: every "
                               "kit each game lists)")
    validate.set_defaults(run=_validate)

    build = commands.add_parser("build", help="write print-ready PDF/SVG/PNG files and output/manifest.json")
    _build_options(build)
    build.add_argument("--component", action="append", metavar="ID",
                       help="build only this component (ID or GAME/ID, repeatable); the combined file is left as it was")
    build.add_argument("--printed", action="store_true",
                       help="mark this build as printed: later change lists and reprint files count from it")
    build.add_argument("--since", metavar="MANIFEST",
                       help="count changes from this earlier build (its manifest.json, or its output folder)")
    build.set_defaults(run=_build)

    watch = commands.add_parser("watch", help="build, then rebuild what changed whenever the spec file is saved")
    _build_options(watch)
    watch.add_argument("--serve", action="store_true",
                       help="serve the gallery on 127.0.0.1 and update the open page at each save")
    watch.add_argument("--port", type=int, default=8765, help="with --serve: the port (default 8765; 0: any free one)")
    watch.set_defaults(run=_watch, component=None)

    init = commands.add_parser("init", help="write an editable copy of the bundled components.yaml")
    init.add_argument("folder", nargs="?", default=".", metavar="DIR", help="where to write it (default: here)")
    init.add_argument("--force", action="store_true", help="replace a components.yaml that is already there")
    init.set_defaults(run=_init)

    schema = commands.add_parser("schema", help="write the JSON Schema of components.yaml, for editors")
    schema.add_argument("-o", "--out", metavar="FILE", help="write it to FILE (default: print it)")
    schema.set_defaults(run=_schema)

    referee = commands.add_parser("referee", help="settle disputes: replay a game record through the rules")
    verbs = referee.add_subparsers(title="referee commands", metavar="VERB")
    check = verbs.add_parser("check", help="replay RECORD; exit 0 legal, 1 violation, 2 unreadable")
    check.add_argument("record")
    check.add_argument("--json", action="store_true", help="answer in JSON (see REFEREE.md)")
    check.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")
    _lang_option(check, "the verdict")
    check.set_defaults(run=_referee, verb="check")
    explain = verbs.add_parser("explain", help="replay RECORD printing every step with its rule ID")
    explain.add_argument("record")
    explain.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")
    _lang_option(explain, "every step and the verdict (rule IDs as they are)")
    explain.set_defaults(run=_referee, verb="explain", json=False)
    new = verbs.add_parser("new", help="print a starter record with the standard setup")
    new.add_argument("game")
    new.add_argument("--players", required=True, help="comma-separated names in seating order, e.g. Ana,Ben,Cris")
    new.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")
    new.add_argument("--seed", type=int, help="the setup's random draw, such as For-Ex's removed certificates "
                     "(FOREX-4.3): the same seed deals the same start (default: a fresh draw)")
    new.set_defaults(run=_referee, verb="new")
    referee.set_defaults(run=_help_of(referee))
    cut = commands.add_parser("cut", help="check a cutting machine's file against the printed sheet it is to cut")
    cut_verbs = cut.add_subparsers(title="cut commands", metavar="VERB")
    cut_check = cut_verbs.add_parser("check", help="exit 0 when CUTFILE cuts a sheet of SHEET.pdf, 1 when its layout "
                                                   "code differs, 2 when a file cannot be read")
    cut_check.add_argument("sheet", metavar="SHEET.pdf", help="the printed sheets (a component's PDF or <game>-all.pdf)")
    cut_check.add_argument("cut_file", metavar="CUTFILE", help="a file of <game>/cut/ (.svg or .dxf)")
    cut_check.set_defaults(run=_cut_check)
    cut.set_defaults(run=_help_of(cut))
    _simulate_parser(commands)
    _add_rules(commands)
    _add_engine(commands)
    _add_table(commands)
    _add_translate(commands)
    return parser


class _Commands:
    """The `pnp` subcommands as the grammar is built: each named with its help, and only the
    one asked for (every one when None) given its arguments; the others' builders get a
    stand-in that takes their calls and builds nothing (`_Unbuilt`)."""

    def __init__(self, commands: Any, wanted: str | None) -> None:
        self.commands, self.wanted = commands, wanted

    def add_parser(self, name: str, **options: Any) -> Any:
        parser = self.commands.add_parser(name, **options)
        return parser if self.wanted in (None, name) else _Unbuilt()


class _Unbuilt:
    """A command not asked for: whatever its builder calls on it (an argument, a default, a
    group of verbs) is not built."""

    def __getattr__(self, _name: str) -> Callable[..., "_Unbuilt"]:
        return lambda *args, **kwargs: self


def _play_options(parser: argparse.ArgumentParser) -> None:
    """The options `simulate` and `tune` share: who plays, from which seed, on which spec."""
    parser.add_argument("--bots", help="comma-separated bots, rotated through the seats (default random)")
    parser.add_argument("--seed", help="the same seed gives the same answer (default 1)")
    parser.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")


def _add_translate(commands: _Commands) -> None:
    translate = commands.add_parser("translate", help="keep the translation catalogs (locale/*/GAME.po) up to date")
    verbs = translate.add_subparsers(title="translate commands", metavar="VERB")
    for verb, about in (("extract", "write each game's template of texts to translate, locale/GAME.pot"),
                        ("update", "extract, then merge into every catalog (a changed source marks its translation fuzzy)"),
                        ("status", "per game and language: texts translated, fuzzy and missing")):
        command = verbs.add_parser(verb, help=about)
        _spec_option(command)
        command.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
        if verb == "update":
            command.add_argument("--lang", action="append", metavar="CODE",
                                 help="only this language's catalog, or a new one (repeatable; default: the spec's languages)")
        command.set_defaults(run=_translate, verb=verb, lang=[])
    translate.set_defaults(run=lambda args: (translate.print_help(), 2)[1])


def _lang_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--lang", metavar="CODE", help=f"{what} in this language (es, ru, …; default English)")


def _simulate_parser(commands: _Commands) -> None:
    sim = commands.add_parser("simulate", help="play thousands of games with bots: balance, length, component pressure")
    sim.add_argument("game", help="the game to play, or merge (then the shards' files)")
    sim.add_argument("files", nargs="*", metavar="SHARD", help="with merge: the JSON files of pnp simulate --shard")
    sim.add_argument("--games", help="games per player count (default 1000)")
    sim.add_argument("--players", help="a count or a range, e.g. 4 or 3-6 (default: 4, or what the game seats)")
    _play_options(sim)
    sim.add_argument("--set", action="append", default=[], metavar="rules.KEY=VALUE", help="a house rule (repeatable)")
    sim.add_argument("--vs", metavar="OTHER.yaml", help="compare with another spec file, same seeds")
    sim.add_argument("--vs-set", action="append", default=[], metavar="rules.KEY=VALUE",
                     help="compare with these house rules changed (repeatable), same seeds")
    sim.add_argument("--ladder", action="store_true",
                     help="a round robin of the bots (--bots, else all the game's): each pair's win rate, skill depth")
    sim.add_argument("--workers", help="processes, at most the cores (default: every core; 1: this one)")
    sim.add_argument("--dask", metavar="ADDRESS", help='run on a Dask scheduler, tcp://HOST:PORT ("local": start a LocalCluster)')
    sim.add_argument("--shard", metavar="I/N", help="play only the I-th of N parts and print its tallies (for pnp simulate merge)")
    sim.add_argument("--json", action="store_true", help="answer in JSON")
    sim.add_argument("--report", metavar="FILE", help="a report with plots: FILE.html or FILE.pdf")
    sim.add_argument("--save-records", metavar="DIR", help="write each game as a record for pnp referee check")
    sim.add_argument("--records", metavar="K", help="with --save-records: only the first K games")
    sim.add_argument("--margin", action="append", default=[], metavar="FAMILY=SIZE",
                     help="a comparison's margin of practical equivalence for a family of metrics, in its unit or in %% "
                          "(repeatable; e.g. length=5%%, seats=0.02)")
    _lang_option(sim, "the verdict, names and glossary")
    sim.set_defaults(run=_simulate)

    tune = commands.add_parser("tune", help="search house-rule values that bring the simulated game to targets")
    tune.add_argument("game")
    tune.add_argument("--vary", action="append", default=[], metavar="rules.KEY=LOW..HIGH",
                      help="a house rule to search, between two values (repeatable)")
    tune.add_argument("--target", action="append", default=[], metavar="METRIC=VALUE±TOLERANCE|METRIC<VALUE",
                      help="what the game should come to, e.g. length=5±0.5 or seat_gap<0.03 (repeatable)")
    tune.add_argument("--games", help="the whole budget of games (default 30000)")
    tune.add_argument("--players", help="a count (default: 4, or what the game seats)")
    _play_options(tune)
    tune.add_argument("--set", action="append", default=[], metavar="rules.KEY=VALUE", help="a house rule kept fixed")
    tune.add_argument("--workers", help="processes, at most the cores (default: every core; 1: this one)")
    tune.add_argument("--json", action="store_true", help="answer in JSON")
    tune.add_argument("--report", metavar="FILE", help="a report of the search: FILE.html or FILE.pdf")
    _lang_option(tune, "the verdict")
    tune.set_defaults(run=_tune)


def _add_table(commands: _Commands) -> None:
    table = commands.add_parser("table", help="serve the game to the phones at the table; every step saved to RECORD")
    table.add_argument("record", help="the game record (YAML); created with --new, else played on from its last step")
    table.add_argument("--new", metavar="GAME", help="start a new game in RECORD (which must not exist)")
    table.add_argument("--players", help="with --new: comma-separated names in seating order, e.g. Ana,Ben,Cris; "
                                         "bot:search (or bot:greedy, bot:search:200) seats a bot")
    table.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")
    table.add_argument("--set", action="append", default=[], metavar="rules.KEY=VALUE",
                       help="with --new: a house rule (repeatable); the record states every rule in effect")
    table.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the phones "
                            "on the local network)")
    table.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    table.set_defaults(run=_table)


def _add_engine(commands: _Commands) -> None:
    engine = commands.add_parser("engine", help="check a rules engine against the contract by playing it")
    verbs = engine.add_subparsers(title="engine commands", metavar="VERB")
    check = verbs.add_parser("check", help="random games from the setup and mid-game: exit 0 all checks pass, 1 a "
                                           "failure (each with its seed), 2 unusable")
    check.add_argument("engine_file", metavar="FILE.py|GAME", help="a rules file (as --engine takes it), or a registered game")
    check.add_argument("--games", default="20", help="games to play (default 20), game g with seed S+g")
    check.add_argument("--seed", default="0", help="the first game's seed (default 0)")
    check.add_argument("--max-actions", default=None, help="a game not over after this many actions never ends "
                                                           "(default 5000)")
    _spec_option(check)
    check.set_defaults(run=_engine_check)
    engine.set_defaults(run=_help_of(engine))


def _engine_check(args: argparse.Namespace) -> int:
    from pnp.referee.conformance import MAX_ACTIONS, check_engine
    from pnp.rules import GAMES, load_spec, register_file
    from pnp.simulate.command import whole

    target = args.engine_file
    game = register_file(target).id if target.endswith(".py") else target
    if game not in GAMES:
        raise UsageError(f'unknown game "{target}" (registered: {", ".join(GAMES)}; or a rules file, FILE.py)')
    spec = load_spec(args.spec)
    if game not in spec.games:
        raise UsageError(f"{target}: the spec has no game {game!r} to play it with (--spec components.yaml)")
    games, seed = whole(args.games, "--games", 1, 100_000), whole(args.seed, "--seed", 0, 2**63)
    report = check_engine(game, spec, games=games, seed=seed,
                          max_actions=whole(args.max_actions, "--max-actions", 1, 10**7, default=MAX_ACTIONS))
    if GAMES[game].about.playout:  # the fast path held to the engine, as the simulator plays both
        from pnp.console import spec_path
        from pnp.simulate.oracle import playout_failures

        seats = spec.games[game].players
        report.failures += playout_failures(game, str(spec_path(args.spec).resolve()),
                                            range(max(2, seats.min), seats.max + 1), seed, games)
    else:
        report.skipped.append("playout")
    print("\n".join(report.lines(target)))
    return 0 if report.ok else 1


def _add_rules(commands: _Commands) -> None:
    rules = commands.add_parser("rules", help="read a rule from its ID, or find rules by words")
    verbs = rules.add_subparsers(title="rules commands", metavar="VERB")
    show = verbs.add_parser("show", help="print a rule (or a section) with its house rules in effect; exit 2 if unknown")
    show.add_argument("id", help="a rule ID as the referee cites it, e.g. BOLSA-3.2.5, or an ambiguity, e.g. BOLSA-A2")
    show.add_argument("--game", help="only this game's rules (an old short ID like A2 exists in several)")
    show.add_argument("--spec", help="spec file for the values in effect (default: ./components.yaml, else the bundled one)")
    _lang_option(show, "the rule's words as the game's booklet prints them")
    show.add_argument("--notes", action="store_true",
                      help="the rules file's own text, with its sources and design notes ([S: …], [D] …)")
    show.set_defaults(run=_rules, verb="show")
    search = verbs.add_parser("search", help="list the rules that mention every word; exit 1 if none")
    search.add_argument("words", nargs="+")
    search.add_argument("--game", help="only this game's rules")
    search.set_defaults(run=_rules, verb="search")
    rules.set_defaults(run=_help_of(rules))


def _spec_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", help="spec file (default: ./components.yaml, else the bundled one)")


def _build_options(parser: argparse.ArgumentParser) -> None:
    _spec_option(parser)
    parser.add_argument("--out", default="output", help="output folder (default: output)")
    parser.add_argument("--game", action="append", help="build only this game (repeatable)")
    parser.add_argument("--paper", help="override print.paper: a4 or letter")
    parser.add_argument("--format", default="pdf",
                        help="comma-separated: pdf,svg,png,tts (default: pdf); png: each distinct face at 300 dpi, "
                             "tts: Tabletop Simulator sheets and <game>-tts.json")
    parser.add_argument("--profile", metavar="NAME",
                        help="also write a print shop's files: tgc, mpc, dtc or pdf-trim (--profile list describes them)")
    parser.add_argument("--duplex", help="override print.duplex: long, short, fold or none")
    parser.add_argument("--back-offset", metavar="X,Y",
                        help="shift every back by X,Y mm (right, down) to correct a printer's duplex misregistration; "
                             "overrides print.back_offset_mm (measure it with the calibration sheet)")
    parser.add_argument("--ink", help="normal or low: low is the ink saver, outlines and patterns instead of colour "
                                      "fills (overrides print.ink_saver)")
    parser.add_argument("--cut", help="silhouette, silhouette4 (the Cameo 5 Alpha's four marks), cricut or dxf: "
                                      "card-stock sheets for a cutting machine, with its registration marks and a cut "
                                      "file per sheet in <game>/cut/ (overrides print.cut; none for hand cutting)")
    parser.add_argument("--inset", metavar="MM", help="the registration marks' distance from the paper's edges, 3 to 10 "
                                                      "(default 10; below 10 for a printer that prints borderless; "
                                                      "overrides print.cut_inset_mm)")
    parser.add_argument("--pdfx", metavar="LEVEL", help="x1a, x3 or x4: the print-shop PDFs as PDF/X of that level, "
                                                        "CMYK for FOGRA39 (with --profile; alone: --profile pdf-trim)")
    parser.add_argument("--calibrate", metavar="MACHINE", help="silhouette or silhouette4: instead of the kit, a "
                                                               "duplex test sheet whose back the machine cuts, to read "
                                                               "--back-offset from")
    parser.add_argument("--gallery", action="store_true",
                        help="picture every face for the gallery, output/index.html, now (each face once: the pictures "
                             "are kept in the user cache; without it the gallery shows the faces pictured before)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    parser.add_argument("--lang", action="append", metavar="CODE",
                        help="build the kits in this language (repeatable; all: every language the game lists; qps: "
                             "the pseudo-locale, accented and 40 %% longer, to see what would not fit); default: "
                             "each game's own language")


def _validate(args: argparse.Namespace) -> int:
    from pnp.console import validate

    return validate(args)


def _build(args: argparse.Namespace) -> int:
    from pnp.console import run_build

    return run_build(args)


def _watch(args: argparse.Namespace) -> int:
    from pnp.console import watch

    return watch(args)


def _init(args: argparse.Namespace) -> int:
    from pnp.disk import checked_name
    from pnp.rules import rulebooks
    from pnp.spec.loader import init
    from pnp.spec.schema import schema_text

    print(init(checked_name(args.folder, "init"), force=args.force, schema=schema_text(rulebooks())))
    return 0


def _schema(args: argparse.Namespace) -> int:
    """The schema an editor reads to complete and check components.yaml as it is typed."""
    from pnp.rules import rulebooks
    from pnp.spec.schema import schema_text

    text = schema_text(rulebooks())
    if args.out is None:
        sys.stdout.write(text)
        return 0
    from pnp.disk import output_file, write_atomically

    target = output_file(args.out, "-o")
    try:
        write_atomically(target, text.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"-o {args.out}: cannot write it ({error.strerror or error})") from None
    print(f"{shown(target)}: the JSON Schema of components.yaml; name it in a spec's first line: "
          f"# yaml-language-server: $schema={target.name}")
    return 0


def _referee(args: argparse.Namespace) -> int:
    """Exit 0 all legal, 1 a violation, 2 unreadable record or spec (REFEREE.md); with --json
    every exit is answered in JSON, an error as `{"error", "where": "file:line:col", …}`."""
    if not getattr(args, "json", False):
        return _referee_answer(args)
    try:
        return _referee_answer(args)
    except PnpError as error:
        print(json.dumps(_error_json(error), ensure_ascii=False, indent=2))
        return error.exit_code
    except Exception as error:  # a bug in pnp: still an answer a tool can read (PNP_DEBUG=1: the traceback)
        if os.environ.get("PNP_DEBUG"):
            raise
        print(json.dumps({"error": f"internal error: {type(error).__name__}: {error}", "where": ""}, ensure_ascii=False))
        return 3


def _error_json(error: PnpError) -> dict[str, object]:
    """An error as `--json` answers it: its sentence, where it is (`file:line:col`, or the file;
    "" for the command line) and the record's path (`at`), each problem of a file in `errors`."""
    from pnp.errors import LocatedError

    if not isinstance(error, LocatedError):
        return {"error": "\n".join(error.lines()), "where": ""}
    from pnp.errors import MAX_SHOWN

    problems = [{"error": issue.message, "where": f"{issue.file}:{issue.line}:{issue.col}" if issue.line else issue.file,
                 "at": issue.path} for issue in error.issues[:MAX_SHOWN]]
    return {**problems[0], "errors": problems, "more": max(0, len(error.issues) - MAX_SHOWN)}


def _referee_answer(args: argparse.Namespace) -> int:
    from pnp import referee

    if args.verb == "new":
        return _referee_new(args)
    record = _record(args)
    try:
        answer = referee.check(record, args.spec)
    except KeyError:
        raise PnpError(f"{args.record}: the spec has no game {record.game!r}") from None
    from pnp.i18n import speaking

    code = getattr(args, "lang", None)
    with speaking(referee.language(code, record.game, args.spec) if code else None):  # the events' texts too
        if args.json:
            print(json.dumps(referee.to_json(answer), ensure_ascii=False, indent=2))
        else:
            if args.verb == "explain":
                print("\n".join(referee.explain(answer)))
            print(referee.verdict(answer, args.record))
    return 0 if answer.ok else 1


def _referee_new(args: argparse.Namespace) -> int:
    """`pnp referee new`: a record to start from, for distinct players of a game with rules."""
    from pnp import referee
    from pnp.rules import GAMES, load_spec

    players = [unicodedata.normalize("NFC", name.strip()) for name in args.players.split(",") if name.strip()]
    if len(set(players)) != len(players) or not players:  # compared as records compare them
        raise UsageError("--players needs distinct names, e.g. --players Ana,Ben,Cris")
    spec = load_spec(args.spec)
    if args.game not in GAMES:
        raise _print_only(args.game, spec.games, "referee new") or UsageError(
            f'unknown game "{args.game}" (known: {", ".join(GAMES)})')
    sys.stdout.write(referee.starter(spec, args.game, players, seed=args.seed))
    return 0


def _record(args: argparse.Namespace) -> Record:
    """The record `pnp referee check` or `explain` reads; a game the spec prints but no engine
    plays is said so."""
    from pnp import referee
    from pnp.referee.record import UnknownGame
    from pnp.rules import load_spec

    try:
        return referee.read_record(args.record)
    except UnknownGame as error:
        print_only = _print_only(error.game, load_spec(args.spec).games, args.record)
        if print_only is None:
            raise
        raise print_only from error


def _print_only(game: object, games: Mapping[str, object], where: str) -> UsageError | None:
    """The answer for a game the spec prints but no rules engine plays (None if it is not one)."""
    from pnp.rules import GAMES

    if not isinstance(game, str) or game not in games:
        return None
    return UsageError(f"{where}: {game} is a print-only game: it has no rules engine, so the referee cannot "
                      f"check it (games with one: {', '.join(GAMES)}; a game's engine is an installed package's or "
                      f"given with pnp --engine FILE.py, never loaded from the spec's folder)")


def _cut_check(args: argparse.Namespace) -> int:
    from pnp.export.cut import check_files

    ok, sentence = check_files(Path(args.sheet), Path(args.cut_file))
    print(sentence, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def _simulate(args: argparse.Namespace) -> int:
    from pnp.simulate.command import Asked, run

    return run(_typed(Asked, args))


def _tune(args: argparse.Namespace) -> int:
    from pnp.simulate.tune import Asked, tune_command

    return tune_command(_typed(Asked, args))


def _typed(kind: type[T], args: argparse.Namespace) -> T:
    """The command line as the command's own typed options (`kind`, a dataclass of the values as
    typed): nothing below the command line reads argparse. Lists become tuples."""
    values = {f.name: getattr(args, f.name) for f in fields(kind)}  # type: ignore[arg-type]  # T: any dataclass, which a TypeVar cannot bound
    return kind(**{name: tuple(value) if isinstance(value, list) else value for name, value in values.items()})


def _rules(args: argparse.Namespace) -> int:
    """`pnp rules show ID` (exit 2 for an unknown ID) and `pnp rules search WORDS` (exit 1 when
    nothing matches)."""
    from pnp.rules import lookup

    if args.verb == "search":
        found = lookup.search(" ".join(args.words), args.game)
        if not found:
            print(f'no rule mentions "{" ".join(args.words)}"', file=sys.stderr)
            return 1
        print("\n".join(found))
        return 0
    print(lookup.show(args.id, args.game, args.spec, args.lang, args.notes))
    return 0


def _translate(args: argparse.Namespace) -> int:
    from pnp.translate import Asked, run

    return run(_typed(Asked, args))


def _table(args: argparse.Namespace) -> int:
    from pnp.table import Asked, run

    return run(_typed(Asked, args))
