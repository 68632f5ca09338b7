"""The `sixes` command: its options, arguments and help, and nothing else.

Commands floor. Each command here declares what the command line takes and
hands it to its own module (check.py, build.py through reports.py, pack.py, cast.py,
serve.py, tracker.py, deploy.py, new.py, clean.py, schema.py, simulate.py),
imported inside the command, so --help imports no WeasyPrint nor MkDocs and
stays instant. Exit status: 0 success, 1 invalid data or a failed build,
2 usage, 130 interrupted; how a command fails is failures.py's business.
"""
from __future__ import annotations

import functools
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, NoReturn

import click

from ..core.errors import visible
from ..core.paper import CHOICES, COVER_LAYOUTS
from .failures import BUILD, CAST, PACK, SCHEMAS, Group
from .locate import config_for, locate

if TYPE_CHECKING:
    from ..render.options import PrintOptions

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

data_option = click.option(
    "--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The game folder (default: the folder holding sixes.yaml, here or above).")
paper_option = click.option(
    "--paper", type=click.Choice(CHOICES, case_sensitive=False), default=None,
    help="Paper of the PDFs: a4, letter or both (default: the settings' paper, else both).")


def out_option(what: str) -> Decorator:
    return click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help=f"{what} (default: the settings' output folder, game/output).")


strict_option = click.option("--strict", is_flag=True, help="Treat warnings as errors.")


def _offset(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    from ..render.options import parse_offset
    try:
        return parse_offset(value)
    except ValueError as exc:
        raise click.BadParameter(visible(exc)) from None


def _host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from .network import host_problem
    problem = host_problem(value)
    if problem:
        raise click.BadParameter(f"{visible(value)}: {visible(problem)}")
    return value


def print_options(command: Callable[..., Any]) -> Callable[..., Any]:
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
        click.option("--tagged/--untagged", default=True, show_default=True,
                     help="Tagged, accessible PDFs (PDF/UA-1): language, title, headings, table headers "
                          "and alternative text a screen reader follows."),
        click.option("--fillable", is_flag=True,
                     help="Form fields in player documents' inputs (default: printed flat)."),
    ]

    def wrapped(card_size: str, bleed: bool, backs: bool, back_offset: tuple[float, float], ink: str,
                large_print: bool, tagged: bool, fillable: bool, **kwargs: Any) -> Any:
        options = PrintOptions(card_size=card_size, bleed=BLEED_MM if bleed else 0.0, backs=backs,
                               back_offset=back_offset, ink_saver=ink == "saver", large_print=large_print,
                               tagged=tagged, fillable=fillable)
        return command(options=options, **kwargs)

    decorated: Callable[..., Any] = functools.update_wrapper(wrapped, command)
    for decorator in reversed(decorators):
        decorated = decorator(decorated)
    return decorated


def pack_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """What a pack prints whose fit depends on the data, shared by `pack` and
    `check` so a check is asked what the pack will be. An option not given
    arrives as None: the settings' `pack:` section decides (Settings.pack_layout)."""
    decorators = [
        click.option("--labels/--no-labels", default=None,
                     help="Also a sheet of envelope labels: 3x7 on A4, 3x10 on US Letter (common label stock) "
                          "(default: the settings' pack.labels, else none)."),
        click.option("--name-sheets/--no-name-sheets", default=None,
                     help="Print the player's name at the top of their character sheet (the GM pack's copies "
                          "always have it) (default: the settings' pack.name_sheets, else not)."),
        click.option("--covers", type=click.Choice(COVER_LAYOUTS), default=None,
                     help="full: a cover page at the front of each envelope's file. half: covers two a sheet in "
                          "covers.pdf (A5 on A4, half-letter on Letter), printed one-sided and cut apart: half "
                          "the paper (default: the settings' pack.covers, else full)."),
    ]

    def wrapped(labels: bool | None, name_sheets: bool | None, covers: str | None, **kwargs: Any) -> Any:
        return command(asked={"labels": labels, "name_sheets": name_sheets, "covers": covers}, **kwargs)

    decorated: Callable[..., Any] = functools.update_wrapper(wrapped, command)
    for decorator in reversed(decorators):
        decorated = decorator(decorated)
    return decorated


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C: clean up, then exit."""


def _stop(signum: int, frame: FrameType | None) -> NoReturn:
    raise Stopped()


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="sixes-press")
def main() -> None:
    """Sixes Press: printable packs and a rules site from YAML game data."""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop)


@main.command(short_help="Check the data and the casting file and list every problem; render nothing.")
@data_option
@paper_option
@click.option("--casting", "casting_file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              default=None, help="A casting file to check (default: casting.yaml in the game folder, if any).")
@strict_option
@pack_options
@print_options
def check(data_dir: Path | None, paper: str | None, casting_file: Path | None, strict: bool,
          asked: dict[str, Any], options: PrintOptions) -> None:
    """Validate the data and print every problem, without rendering anything.

    It reads what `build` and `pack` read first (the same gather): every
    game's data with its portraits and handouts, the site's own pages and
    logo, and a casting file (--casting FILE, or the game folder's
    casting.yaml), checked against the game's characters and the settings'
    paper; every problem is listed in the same run, and so is every text
    too long for its card or box at --card-size (render/fit/bounded.py), and
    what each game's pack would print with the same options as `pack` (its
    covers, name stamps and labels; the settings' `pack:` section by default).
    """
    from .check import run
    run(data_dir, casting_file, strict, paper, asked, options)


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
          no_cache: bool, watch: bool, strict: bool, options: PrintOptions) -> None:
    """Build every PDF and the rules site from the game folder.

    Nothing is written unless all the data is valid; the previous output
    stays in place until the new one is complete.
    """
    from .reports import build_once
    from .watch import watch_game
    game = locate(data_dir, out_dir, paper)
    config = config_for(game, site=not no_site, workers=jobs, cache=not no_cache, strict=strict, options=options)
    if not watch:
        build_once(config)
        return
    watch_game(game, lambda: build_once(config))


class SystemSlug(click.ParamType):
    """A registered game system's slug. The registry (slow to import) is read
    only when `pack --help` lists it, so `sixes --help` stays instant; a wrong
    name is refused by `pack` itself with a did-you-mean, exit 1, nothing written."""

    name = "system"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
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
@click.option("--jobs", type=click.IntRange(1, 16), default=None, help="Processes rendering PDFs.")
@click.option("--no-cache", is_flag=True,
              help="Render every document again instead of reusing what `sixes build` rendered into OUT.")
@click.option("--sealed-form", type=click.Choice(("insert", "fold")), default=None,
              help="How a sealed 'open when' envelope prints where packet.yaml gives it no `form`: insert (an A6 "
                   "card for a small envelope, the default) or fold (a whole page, folded and stapled).")
@click.option("--since", is_flag=False, flag_value="", default=None, metavar="PACK",
              help="Only what changed since an earlier pack (its folder or its pack-record.json; alone: the last "
                   "pack of this game and paper): a reprint sheet and the pages, cards and labels to print, in "
                   "OUT/pack/GAME/PAPER-reprint-N/. The earlier pack is left as it is.")
@click.option("--dry-run", is_flag=True, help="With --since: only say what to reprint; write nothing.")
@pack_options
@print_options
def pack(data_dir: Path | None, system: str | None, out_dir: Path | None, paper: str | None,
         casting_file: Path | None, players: int | None, simplex: bool, jobs: int | None, no_cache: bool,
         sealed_form: str | None, since: str | None, dry_run: bool, asked: dict[str, Any],
         options: PrintOptions) -> None:
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
    from .progress import ProgressBar
    from .reports import print_pack_report

    if players is not None and players > MAX_ENVELOPES:
        raise click.BadParameter(f"{players:d}: {ENVELOPES_CEILING}; pack a bigger event as several games",
                                 param_hint="'--players'")
    game = locate(data_dir, out_dir, paper)
    assert game.out_dir is not None     # located with needs_out=True
    layout = game.settings.pack_layout(**asked)
    request = PackRequest(game.data_dir, game.out_dir, game.papers, system=system, casting_file=casting_file,
                          players=players, duplex=not simplex, labels=layout.labels, name_sheets=layout.name_sheets,
                          covers=layout.covers, options=options, workers=jobs, cache=not no_cache,
                          settings=game.settings, sealed_form=sealed_form)
    if since is not None:
        from .pack_since import reprint
        from .reprint_report import print_reprint_report
        with ProgressBar() as progress:
            reprinted = reprint(request, Path(since) if since else None, dry_run, progress)
        print_reprint_report(reprinted, dry_run)
        return
    if dry_run:
        raise click.UsageError("--dry-run says what --since would reprint: pass --since too")
    with ProgressBar() as progress:
        report = run_pack(request, progress)
    print_pack_report(report, casting_given=casting_file is not None, simplex=simplex)


@main.command("cast", short_help="Cast the players from their questionnaire: casting.yaml and a report.", stakes=CAST)
@click.argument("answers", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=False)
@data_option
@click.option("--system", type=SystemSlug(), default=None,
              help="The game to cast (default: the only game in the data folder).")
@out_option("The report is written to OUT/casting/")
@click.option("--to", "to_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The casting file to write (default: casting.yaml in the game folder).")
@click.option("--force", is_flag=True, help="Replace the casting file if it exists.")
@click.option("--from", "start", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=None,
              help="Re-cast from this casting file, moving as few players as can be (with --drop, --join, --cut).")
@click.option("--drop", multiple=True, metavar="PLAYER", help="A player who leaves (repeat for more).")
@click.option("--join", multiple=True, metavar="PLAYER", help="A player who joins (repeat for more).")
@click.option("--cut", multiple=True, metavar="CHARACTER", help="A character no longer played (repeat for more).")
@click.option("--seed", type=click.IntRange(0, 2 ** 31), default=None,
              help="Breaks ties between equally good castings (default: the settings' casting.seed, else 1).")
@click.option("--player-column", default=None, metavar="HEADER", help="The column of players' names.")
@click.option("--choice-column", multiple=True, metavar="HEADER",
              help="A column of ranked choices, best first (repeat, one per rank; or one column listing them).")
@click.option("--grid-column", default=None, metavar="QUESTION",
              help="A grid question ranking the characters: columns 'QUESTION [Character]', each cell a rank.")
@click.option("--timestamp-column", default=None, metavar="HEADER", help="The column of submission times.")
@click.option("--refuse-column", multiple=True, metavar="HEADER", help="A column of characters a player will not play.")
@click.option("--avoid-column", multiple=True, metavar="HEADER",
              help="A column of players a player must not be cast opposite.")
@click.option("--attribute-column", multiple=True, metavar="HEADER", help="A column kept for quotas.")
def cast_players(answers: Path | None, data_dir: Path | None, system: str | None, out_dir: Path | None,
                 to_file: Path | None, force: bool, start: Path | None, drop: tuple[str, ...],
                 join: tuple[str, ...], cut: tuple[str, ...], seed: int | None, player_column: str | None,
                 choice_column: tuple[str, ...], grid_column: str | None, timestamp_column: str | None,
                 refuse_column: tuple[str, ...],
                 avoid_column: tuple[str, ...], attribute_column: tuple[str, ...]) -> None:
    """Cast the players from their answers (ANSWERS: a form's CSV export, or
    a YAML file of answers) and write casting.yaml for `sixes pack`, with a
    report in OUT/casting/casting-report.md.

    \b
    The columns and the organisers' hard rules (pre-cast characters, pairs
    of players kept apart, quotas) are in sixes.yaml's `casting:` section;
    a column named here wins over the settings. Every hard rule is kept;
    then the worst rank any player gets is made as good as it can be, then
    the most first choices, then the fewest low choices; the seed breaks
    ties, so two runs agree. With --from, a re-cast moves the fewest players.
    """
    from .cast import CastRequest, run
    columns: dict[str, object] = {"player": player_column, "choices": list(choice_column), "grid": grid_column,
                                  "timestamp": timestamp_column, "refuses": list(refuse_column),
                                  "avoids": list(avoid_column), "attributes": list(attribute_column)}
    run(data_dir, out_dir, CastRequest(answers, system, to_file, force, start, drop, join, cut, seed, columns))


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
    from .serve import run
    run(locate(data_dir, out_dir, paper), port, strict)


@main.command(short_help="Serve the GM's fight tracker to a phone on this network, behind a secret address.")
@data_option
@click.option("--host", default="0.0.0.0", show_default=True, callback=_host,
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
    from .deploy import run
    run(locate(data_dir, out_dir), message, no_push)


@main.command(short_help="Make a new game folder with settings and starter data.")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--language", default="en", show_default=True, metavar="CODE",
              help="The game's language (en, fr and de ship; another code also writes locales/CODE.po to translate).")
def new(directory: Path, language: str) -> None:
    """Make a new game folder DIRECTORY: settings, a small valid game of each system, schemas.

    DIRECTORY must be new or empty, so nothing is ever overwritten.
    """
    from .new import run
    run(directory, language)


@main.command(short_help="Write the game's own catalogue of the tool's words for a language, to translate.")
@click.argument("language", metavar="LANGUAGE")
@data_option
def catalogue(language: str, data_dir: Path | None) -> None:
    """Write locales/LANGUAGE.po in the game folder: every word the tool prints, with the translations it
    already has (the file's own, else the shipped ones for en, fr, de), the rest left to translate.
    Run it again after an update of the tool: translations are kept, new messages added."""
    from .catalogue import run
    run(language, data_dir)


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
    from .clean import run
    run(data_dir, out_dir, everything)


@main.command(short_help="Write JSON Schemas of the data files for editors.", stakes=SCHEMAS)
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), required=False)
def schema(directory: Path | None) -> None:
    """Write the JSON Schemas of every data file kind (for editor completion)
    into DIRECTORY (default: the game folder's schemas/)."""
    from .schema import run
    run(directory)


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
    from .simulate import run
    run(data_dir, fighters, sides_file, rounds, fights, policy, seed)

