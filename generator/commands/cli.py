"""The `sixes` command: build, check, new, schema, simulate.

Thin: each command composes the pipeline in `build.py`. Heavy imports
(WeasyPrint, MkDocs) happen inside the commands that need them, so --help is
instant. Exit status: 0 success, 1 invalid data or a failed build, 2 usage,
130 interrupted; how a command fails is failures.py's business, not theirs.
"""
from __future__ import annotations

import functools
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import cast

import click

from ..core.errors import Problem, visible
from ..core.layout import PDF_FOLDER
from ..core.paper import CHOICES, COVER_LAYOUTS, CoverLayout, Paper
from ..render.options import CARD_SIZE_NAMES
from .failures import BUILD, PACK, SCHEMAS, Failed, Group, InvalidData, converted, print_problems

data_option = click.option(
    "--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The game folder (default: the folder holding sixes.yaml, here or above).")
paper_option = click.option(
    "--paper", type=click.Choice(CHOICES, case_sensitive=False), default=None,
    help="Paper of the PDFs: a4, letter or both (default: the settings' paper, else both).")


def out_option(what: str):
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help=f"{what} (default: the settings' output folder, game/output).")


strict_option = click.option("--strict", is_flag=True, help="Treat warnings as errors.")


def _offset(ctx, param, value):
    from ..render.options import parse_offset
    try:
        return parse_offset(value)
    except ValueError as exc:
        raise click.BadParameter(visible(exc)) from None


def print_options(command):
    """The print-production options shared by `build` and `pack`; they arrive
    at the command as one `options` (a PrintOptions)."""
    from ..render.options import BLEED_MM, CARD_SIZE_NAMES, PrintOptions
    decorators = [
        click.option("--card-size", type=click.Choice(CARD_SIZE_NAMES), default="poker", show_default=True,
                     help="Card size of every card sheet: poker 63x88, bridge 57x89, tarot 70x120 mm."),
        click.option("--bleed", is_flag=True, help=f"Add {BLEED_MM:g} mm of bleed around every card."),
        click.option("--backs", is_flag=True,
                     help="Print card backs on the following pages, mirrored for long-edge duplex "
                          "(also writes a duplex calibration sheet)."),
        click.option("--back-offset", default="0,0", show_default=True, callback=_offset, metavar="X,Y",
                     help="Millimetres to move the backs right and down, as read on the calibration sheet."),
        click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
                     help="saver: no background fills, outlines and black text only."),
        click.option("--large-print", is_flag=True,
                     help="A larger type scale (12 pt minimum) on character sheets and player summaries."),
        click.option("--tagged", is_flag=True, help="Tagged, accessible PDFs (PDF/UA-1)."),
        click.option("--fillable", is_flag=True,
                     help="Form fields in player documents' inputs (default: printed flat)."),
    ]

    def wrapped(card_size, bleed, backs, back_offset, ink, large_print, tagged, fillable, **kwargs):
        options = PrintOptions(card_size=card_size, bleed=BLEED_MM if bleed else 0.0, backs=backs,
                               back_offset=back_offset, ink_saver=ink == "saver", large_print=large_print,
                               tagged=tagged, fillable=fillable)
        return command(options=options, **kwargs)

    functools.update_wrapper(wrapped, command)
    for decorator in reversed(decorators):
        wrapped = decorator(wrapped)
    return wrapped


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C: clean up, then exit."""


def _stop(signum, frame):
    raise Stopped()


def locate(data_dir: Path | None, out_dir: Path | None = None, paper: str | None = None, *, needs_out: bool = True):
    """Where a command works: the game folder (from --data, else found from
    the current folder upwards), its settings, the output folder and papers.
    A problem here ends the command with status 1 before anything is at
    stake, so it says nothing of what was written."""
    from ..game.folder import locate_game
    with converted(None):
        return locate_game(data_dir, out_dir, paper, needs_out=needs_out)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="sixes-press")
def main() -> None:
    """Sixes Press: printable packs and a rules site from YAML game data."""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop)


@main.command(short_help="Check the data and the casting file and list every problem; render nothing.")
@data_option
@click.option("--casting", "casting_file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="A casting file to check (default: casting.yaml in the game folder, if any).")
@click.option("--card-size", type=click.Choice(CARD_SIZE_NAMES), default="poker", show_default=True,
              help="The card size whose cards the text must fit (as build's --card-size).")
@strict_option
def check(data_dir: Path | None, casting_file: Path | None, card_size: str, strict: bool) -> None:
    """Validate the data and print every problem, without rendering anything.

    It reads what `build` and `pack` read first (the same gather): every
    game's data with its portraits and handouts, the site's own pages and
    logo, and a casting file (--casting FILE, or the game folder's
    casting.yaml), checked against the game's characters and the settings'
    paper; every problem is listed in the same run, and so is every text
    too long for its card or box at --card-size (render/bounded.py).
    """
    from ..game.gather import gather
    from ..render.bounded import fit_problems
    from ..render.options import PrintOptions
    game = locate(data_dir, needs_out=False)
    gathered = gather(game.data_dir, game.settings, game.papers, strict=strict, casting=casting_file,
                      out_dir=game.settings.out_dir)
    problems = list(gathered.warnings)
    problems += fit_problems(gathered.loaded, PrintOptions(card_size=card_size))
    if any(p.severity == "error" or strict for p in problems):
        raise InvalidData(sorted(problems, key=Problem.sort_key))
    print_problems(problems)
    names = ", ".join(item.system.title for item in gathered.loaded)
    click.echo(f"OK: {visible(game.shown)} is valid ({visible(names)})"
               + (f"; casting {visible(gathered.casting_shown)} checked." if gathered.casting is not None else "."))


def _shown_path(path: Path) -> str:
    """A path as a user standing in the current folder would type it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


@main.command(short_help="Build every PDF and the rules site.", stakes=BUILD)
@data_option
@out_option("Where PDFs, schemas and the site are written")
@paper_option
@click.option("--no-site", is_flag=True, help="Build the PDFs only.")
@click.option("--jobs", type=click.IntRange(1, 16), default=None,
              help="Processes rendering PDFs (default: one per core, at most 4).")
@click.option("--no-cache", is_flag=True, help="Render every PDF and the site again, ignoring the build cache.")
@click.option("--watch", is_flag=True, help="Keep running: build again whenever the data or templates change.")
@strict_option
@print_options
def build(data_dir: Path | None, out_dir: Path | None, paper: str | None, no_site: bool, jobs: int | None,
          no_cache: bool, watch: bool, strict: bool, options) -> None:
    """Build every PDF and the rules site from the game folder.

    Nothing is written unless all the data is valid; the previous output
    stays in place until the new one is complete.
    """
    game = locate(data_dir, out_dir, paper)
    config = _config(game, site=not no_site, workers=jobs, cache=not no_cache, strict=strict, options=options)
    if not watch:
        _build_once(config)
        return
    _watch(game, lambda: _build_once(config))


def _watch(game, build_once, after=lambda passed: None, first: bool = True) -> None:
    """Build, then build again after every change to the game's data, the
    templates or the site sources, saying what changed and how long the
    rebuild took; any failure is printed and the watch goes on (_survive)."""
    import time

    from ..core.paths import SITE_SOURCES_DIR, TEMPLATES_DIR
    from .watch import watch as run_watch

    def once(changed=()):
        if changed:
            names = [os.path.relpath(c) if c.startswith(os.getcwd()) else c for c in changed]
            click.echo(f"Changed: {visible(', '.join(names[:3]))}"
                       + (f" and {len(names) - 3:d} more" if len(names) > 3 else ""), err=True)
        started = time.monotonic()
        passed = _survive(build_once)
        after(passed)
        click.echo(f"{'Rebuilt' if changed else 'Built'} in {time.monotonic() - started:.1f} s. "
                   f"Watching {visible(game.shown)} and the templates; Ctrl-C to stop.", err=True)
    roots = [*game.watched, TEMPLATES_DIR, SITE_SOURCES_DIR]
    try:
        while True:     # the watch survives anything the file system throws at it
            try:
                run_watch(roots, once, first=first)
                return
            except Exception as exc:
                click.secho(f"error: watching failed ({visible(exc)}); watching again", fg="red", err=True)
                first = False
    except KeyboardInterrupt:
        pass
    finally:
        from ..render.batch import stop_pools
        stop_pools()


def _survive(build_once) -> bool:
    """One build of a long-running command (--watch, serve): whatever goes
    wrong is printed and the command keeps running with the last good
    output; only Ctrl-C (or SIGTERM) ends it. Returns whether the build passed."""
    try:
        with converted(BUILD):
            build_once()
        return True
    except click.ClickException as exc:
        exc.show()
        if exc.exit_code == 130:
            raise KeyboardInterrupt from None
        return False
    except SystemExit as exc:
        if exc.code == 130:
            raise KeyboardInterrupt from None
        return exc.code in (0, None)
    except Exception as exc:    # a bug of ours must not end a watch either
        click.secho(f"error: the build failed unexpectedly ({visible(type(exc).__name__)}: {visible(exc)}); "
                    "the previous output is unchanged", fg="red", err=True)
        return False


def _config(game, **asked):
    """The run a command asks for, as one frozen BuildConfig: the game
    folder's settings and whatever the command line said."""
    from .context import BuildConfig
    return BuildConfig(game.data_dir, game.out_dir, game.papers, settings=game.settings, **asked)


def _build_once(config) -> None:
    from .build import build as run

    with _progress() as progress:
        report = run(config, progress)
    print_problems(report.warnings)
    if report.kept:
        click.echo("Kept your own files in the output: " + visible(", ".join(report.kept)), err=True)
    click.echo(f"Built {len(report.pdfs)} PDFs in {visible(report.out_dir / PDF_FOLDER)}")
    if report.untouched:
        click.echo("Nothing changed since the last build: nothing was loaded or rendered.", err=True)
    else:
        click.echo(f"{len(report.rendered)} rendered, {report.reused:d} unchanged since the last build"
                   + ("" if report.site_built or not config.site else "; the site was unchanged"), err=True)
    tracker = report.out_dir / "gm" / "sixes" / "fight-tracker.html"
    if tracker.is_file():
        click.echo(f"GM's fight tracker (keep it private): {visible(tracker)}")
    if report.site_index:
        click.echo(f"Site: {visible(report.site_index)}")
    click.echo(f"Schemas for editors: {visible(report.out_dir / 'schemas')}")


class SystemSlug(click.ParamType):
    """A registered game system's slug. The registry (slow to import) is read
    only when `pack --help` lists it, so `sixes --help` stays instant; a wrong
    name is refused by `pack` itself with a did-you-mean, exit 1, nothing written."""

    name = "system"

    def get_metavar(self, param, ctx) -> str:
        from ..systems import SLUGS
        return "[" + "|".join(SLUGS) + "]"


@main.command(short_help="Envelopes, a GM pack, a manifest and a zip for one game.", stakes=PACK)
@data_option
@click.option("--system", type=SystemSlug(), default=None,
              help="The game to pack (default: the only game in the data folder).")
@out_option("The pack is written to OUT/pack/GAME/")
@paper_option
@click.option("--casting", "casting_file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="YAML file mapping players to characters, in envelope order.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="For a game without character sheets (d6xd6, sixes-system): how many envelopes (at most 500).")
@click.option("--simplex", is_flag=True,
              help="Printing one-sided: no blank pages (default: two-sided, each part starts on a front).")
@click.option("--labels", is_flag=True,
              help="Also a sheet of envelope labels: 3x7 on A4, 3x10 on US Letter (common label stock).")
@click.option("--name-sheets", is_flag=True,
              help="Print the player's name at the top of their character sheet (the GM pack's copies always have it).")
@click.option("--covers", type=click.Choice(COVER_LAYOUTS), default="full", show_default=True,
              help="full: a cover page at the front of each envelope's file. half: covers two a sheet in "
                   "covers.pdf (A5 on A4, half-letter on Letter), printed one-sided and cut apart: half the paper.")
@click.option("--jobs", type=click.IntRange(1, 16), default=None, help="Processes rendering PDFs.")
@click.option("--no-cache", is_flag=True,
              help="Render every document again instead of reusing what `sixes build` rendered into OUT.")
@print_options
def pack(data_dir: Path | None, system: str | None, out_dir: Path | None, paper: str | None,
         casting_file: Path | None, players: int | None, simplex: bool, labels: bool, name_sheets: bool,
         covers: str, jobs: int | None, no_cache: bool, options) -> None:
    """Envelope-ready PDFs for one game, a GM pack, a stuffing manifest (PDF
    and CSV) and a zip for the print shop, in OUT/pack/GAME/PAPER/. Packing
    one paper or one game leaves the others' packs in place.

    \b
    Each envelope (one per character, in casting order) holds:
      - a cover: the player, the character, the envelope number, what goes in,
      - that character's sheet,
      - the public rules summaries and reference cards,
      - the handouts its character file lists, then any the casting file adds,
      - one set of each public card deck (Sixes: hand-signal cards), cut from
        card-run.pdf, which prints every envelope's sets on full sheets.
    The GM pack holds the GM documents, a roster of who plays whom, a blank
    character sheet to copy if the system has one, and every character sheet,
    all in envelope order. The casting file is --casting FILE, else the game
    folder's casting.yaml when it is for this game.

    A game without character sheets (d6xd6, sixes-system) gets --players N
    identical envelopes of its public cards and summaries, and a GM pack only
    if it has GM documents.

    Files print two-sided as one job each: a part with an odd page count is
    followed by a blank page so the next part starts on a fresh sheet. With
    --covers half the covers leave the envelopes' files for covers.pdf, two a
    sheet, printed one-sided and cut across the middle.
    """
    from ..game.casting import ENVELOPES_CEILING, MAX_ENVELOPES
    from .pack import PackRequest, pack as run_pack

    if players is not None and players > MAX_ENVELOPES:
        raise click.BadParameter(f"{players:d}: {ENVELOPES_CEILING}; pack a bigger event as several games",
                                 param_hint="'--players'")
    game = locate(data_dir, out_dir, paper)
    with _progress() as progress:
        request = PackRequest(game.data_dir, game.out_dir, game.papers, system=system, casting_file=casting_file,
                              players=players, duplex=not simplex, labels=labels, name_sheets=name_sheets,
                              covers=cast(CoverLayout, covers), options=options, workers=jobs, cache=not no_cache,
                              settings=game.settings)
        report = run_pack(request, progress)
    print_problems(report.warnings)
    click.echo(f"{len(report.rendered)} documents rendered, {report.reused:d} reused from the last build", err=True)
    if report.casting_file is not None and casting_file is None:
        click.echo(f"Casting: {visible(_shown_path(report.casting_file))} (found in the game folder)", err=True)
    click.echo(f"Packed {len(report.envelopes)} {visible(report.system.title)} envelopes ("
               + ("one-sided" if simplex else "two-sided") + f") in {visible(report.root)}")
    if report.card_run is not None:
        run = report.card_run
        click.echo(f"Card run: {run.cards:d} cards on {run.sheets:d} sheet{'s' if run.sheets != 1 else ''}, "
                   f"{run.cuts:d} cuts along the marks")
    for paper_name, sheets in report.sheets.items():
        click.echo(f"Paper: {sheets:d} sheets of {visible(Paper.parse(paper_name).label)} in all "
                   "(manifest.pdf lists them)")
    for archive in report.zips:
        click.echo(f"For the print shop: {visible(archive)}")


@main.command(short_help="Serve the site locally, rebuilding on every change.")
@data_option
@out_option("Where the build writes; the site is OUT/site")
@paper_option
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 to serve the site on.")
@strict_option
def serve(data_dir: Path | None, out_dir: Path | None, paper: str | None, port: int, strict: bool) -> None:
    """Serve the rules site on localhost, rebuilding (through the cache) and
    reloading open pages whenever the data or templates change."""
    import threading

    from .serve import BuildCounter, make_server

    game = locate(data_dir, out_dir, paper)
    counter = BuildCounter()
    server = make_server(game.out_dir / "site", counter, port)     # the port first: a taken port costs no build

    def after(passed: bool) -> None:
        if passed:
            counter.bump()
    try:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        click.echo(f"Serving {visible(game.out_dir / 'site')} at http://127.0.0.1:{server.server_address[1]:d}/ "
                   "(Ctrl-C to stop)", err=True)
        config = _config(game, strict=strict, cache=True)
        _watch(game, lambda: _build_once(config), after)
    finally:
        server.shutdown()
        server.server_close()


@main.command(short_help="Serve the GM's fight tracker to a phone on this network, behind a secret address.")
@data_option
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address to listen on (0.0.0.0: every network this machine is on).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="The port to listen on (the same one each time lets the phone find its saved fight).")
@click.option("--qr/--no-qr", default=None, help="Print the address as a QR code (default: on a terminal).")
def tracker(data_dir: Path | None, host: str, port: int, qr: bool | None) -> None:
    """Serve the Sixes fight tracker (GM only) on the local network: made
    from the data, at an address holding a secret made for this run; any
    other address gets nothing. Prints the address and a QR code of it.
    The page needs nothing more once loaded: it keeps working after Ctrl-C."""
    from .tracker import run
    run(locate(data_dir, needs_out=False), host, port, sys.stdout.isatty() if qr is None else qr)


@main.command(short_help="Publish the built site to a git branch or a folder.")
@data_option
@out_option("Where the site was built; OUT/site is published")
@click.option("--message", "-m", default="Publish the rules site", show_default=True,
              help="The commit message on the publishing branch.")
@click.option("--no-push", is_flag=True, help="Commit to the branch but do not push it.")
def deploy(data_dir: Path | None, out_dir: Path | None, message: str, no_push: bool) -> None:
    """Publish the site `sixes build` made, like `mkdocs gh-deploy`: commit it
    to the branch named in the settings (deploy.branch, default gh-pages) of
    the git repository holding the game folder and push it to deploy.remote;
    or, with deploy.folder set, copy it into that folder instead. Build first."""
    game = locate(data_dir, out_dir)
    site = game.out_dir / "site"
    if not (site / "index.html").is_file():
        raise Failed(f"no built site in {site}; run `sixes build` first")
    from .deploy import to_branch, to_folder
    settings = game.settings.file.deploy
    if settings.folder:
        target = to_folder(site, game.data_dir / settings.folder, game.data_dir)
        click.echo(f"Published {visible(site)} to {visible(target)}")
    else:
        to_branch(site, game.data_dir, settings.branch, settings.remote, message,
                  push=settings.push and not no_push)
        click.echo(f"Published {visible(site)} to branch {visible(settings.branch)}"
                   + ("" if no_push or not settings.push else f" and pushed it to {visible(settings.remote)}"))


@main.command(short_help="Make a new game folder with settings and starter data.")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def new(directory: Path) -> None:
    """Make a new game folder DIRECTORY: settings, a small valid game of each system, schemas.

    DIRECTORY must be new or empty, so nothing is ever overwritten.
    """
    from .build import export_schemas
    from ..game.settings import SETTINGS_FILE, STARTER_SETTINGS
    from ..core.text import refused
    from ..systems import SLUGS, SYSTEMS
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise Failed(f"{directory} is not empty; choose a new folder (nothing was changed)")
    directory.mkdir(parents=True, exist_ok=True)
    name = "".join(c for c in directory.resolve().name if not refused(c, "name"))   # the site's name: no controls
    name = name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    (directory / SETTINGS_FILE).write_text(STARTER_SETTINGS.format(name=json_string(name)), encoding="utf-8")
    for system in SYSTEMS:
        shutil.copytree(system.starter, directory / system.slug)
    # The starter files' `yaml-language-server` lines point here.
    export_schemas(directory / "schemas")
    click.echo(f"Wrote a new game folder {visible(directory)}: {SETTINGS_FILE} (the game's settings), one folder "
               f"per game system ({visible(', '.join(SLUGS))}), and schemas/ for your editor.")
    click.echo(f"Next: cd {visible(directory)}, edit the YAML files (remove the systems you do not play), then run "
               "`sixes check`, `sixes build` (into output/) or `sixes serve`.")


def json_string(text: str) -> str:
    """A YAML-safe quoted scalar (JSON strings are YAML)."""
    import json
    return json.dumps(text, ensure_ascii=False)


@main.command(short_help="Forget what earlier builds remembered (the build cache); keep the output.")
@data_option
@out_option("The output folder whose cache to forget")
@click.option("--all", "everything", is_flag=True,
              help="Forget the cache of every output folder, not only this game's.")
def clean(data_dir: Path | None, out_dir: Path | None, everything: bool) -> None:
    """Forget the build cache, so the next build renders and simulates
    everything again (like `sixes build --no-cache`, but for good).

    The output folder itself is left as it is. The cache and what it holds
    are described in generator/render/cache/__init__.py.
    """
    from ..render.cache import cache_base, clear
    if everything:
        removed = clear()
        click.echo(f"Forgot {len(removed)} cached build(s) in {visible(cache_base())}.")
        return
    game = locate(data_dir, out_dir)
    removed = clear(game.out_dir)
    click.echo(("Forgot the cached build" if removed else "Nothing cached")
               + f" for {visible(game.out_dir)}; the next build renders everything again.")


@main.command(short_help="Write JSON Schemas of the data files for editors.", stakes=SCHEMAS)
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), required=False)
def schema(directory: Path | None) -> None:
    """Write the JSON Schemas of every data file kind (for editor completion)
    into DIRECTORY (default: the game folder's schemas/)."""
    from .build import export_schemas
    if directory is None:
        directory = locate(None, needs_out=False).data_dir / "schemas"
    for path in export_schemas(directory):
        click.echo(visible(path))


# `simulate` shows progress from this many fights per policy (about ten seconds).
SIMULATE_PROGRESS_FROM = 10_000


@main.command(short_help="Play many Sixes fights and report how they end.")
@data_option
@click.option("--fighters", help="Comma-separated character names (default: the whole cast); sides follow factions.")
@click.option("--sides", "sides_file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="A YAML file `sides: {Side name: [Character, ...], ...}`.")
@click.option("--rounds", type=click.IntRange(1, 500), default=20, show_default=True,
              help="The most rounds a fight may last; a fight still going then is cut off.")
@click.option("--fights", type=click.IntRange(1, 1_000_000), default=1000, show_default=True,
              help="Fights to play per policy.")
@click.option("--policy", type=click.Choice(["all", "aggressive", "cautious", "random"]), default="all",
              show_default=True, help="How every fighter declares (see the balance report for what each does).")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed gives the same figures.")
def simulate(data_dir: Path | None, fighters: str | None, sides_file: Path | None, rounds: int, fights: int,
             policy: str, seed: int) -> None:
    """Play many Sixes fights and print how long they last, who wins and how fighters end up."""
    from ..game.load import load_all
    from ..render.charts import percent
    from ..systems.sixes.sides import load_sides, pick_fighters
    from ..systems.sixes.simulate import POLICIES, simulate as run

    if fighters and sides_file:
        raise click.UsageError("give --fighters or --sides, not both")
    where = locate(data_dir, needs_out=False)
    loaded, _ = load_all(where.data_dir, systems=["sixes"])
    game = next((item.game for item in loaded if item.system.slug == "sixes"), None)
    if game is None:
        raise Failed(f"{where.shown} holds no Sixes game (a sixes/ folder)")
    names = [n.strip() for n in fighters.split(",") if n.strip()] if fighters else None
    sides, problems = load_sides(sides_file, game) if sides_file else pick_fighters(game, names)
    if problems:
        raise InvalidData(problems)
    click.echo(f"{fights:d} fights per policy, seed {seed:d}, at most {rounds:d} rounds each. Sides: "
               + visible("; ".join(f"{s.name} ({len(s.members)})" for s in sides)))
    for name in POLICIES if policy == "all" else [policy]:
        with _progress() as progress:       # long runs only: a thousand fights take a second
            told = (lambda done, name=name: progress(f"{name}: fights played", done, fights)) \
                if fights >= SIMULATE_PROGRESS_FROM else None
            summary = run(sides, game.library, name, fights=fights, max_rounds=rounds, seed=seed, progress=told)
        click.echo(f"\n{visible(name)}: rounds to settle: median {visible(summary.median_rounds)}, "
                   f"90th percentile {visible(summary.p90_rounds)}")
        wins = [f"{side} {percent(summary.win_rate(k))}" for k, side in enumerate(summary.sides)]
        click.echo(visible(f"  wins: {', '.join(wins)}, no winner {percent(summary.no_winner_rate)} "
                           f"(stand-off {percent(summary.standoff_rate)}, nobody standing "
                           f"{percent(summary.nobody_standing_rate)}); cut off by the round limit "
                           f"{percent(summary.cut_off_rate)}"))
        width = max(len(visible(n)) for n in summary.names)     # names from the data, shown safely
        click.echo(f"  {'fighter':<{width}}  Rattled  Unconscious    Dead  Escaped")
        for fighter in summary.names:
            rates = [percent(summary.status_rate(fighter, word)) for word in ("Rattled", "Unconscious", "Dead",
                                                                             "Escaped")]
            click.echo(visible(f"  {visible(fighter):<{width}}  {rates[0]:>7}  {rates[1]:>11}  {rates[2]:>6}  "
                               f"{rates[3]:>7}"))


class _progress:
    """A progress bar on a terminal, plain lines otherwise (logs, CI)."""

    def __enter__(self):
        self._bar = None
        if sys.stderr.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
            self._bar = Progress(TextColumn("{task.description:<50}", markup=False), BarColumn(), MofNCompleteColumn(),
                                 transient=True)
            self._bar.start()
            self._task = None
        return self

    def __call__(self, label: str, done: int, total: int) -> None:
        label = visible(label)      # a document's title comes from the data
        if self._bar is None:
            click.echo(f"[{done:>3d}/{total:d}] {visible(label)}", err=True)
            return
        if self._task is None or self._bar.tasks[self._task].total != total:
            self._task = self._bar.add_task(label, total=total)
        self._bar.update(self._task, completed=done, description=label)

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()
        return False
