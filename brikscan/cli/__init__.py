"""The ``brikscan`` command: thin wrappers over the Python API, one module per command group.

Every error a user can cause ends as one line on stderr and a documented exit code, never a traceback.
"""
from __future__ import annotations

import os
import sys

import typer

from ..errors import EXIT_INPUT, EXIT_USAGE, BrikscanError

CONTEXT = {"help_option_names": ["-h", "--help"]}  # inherited by every command and group
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, context_settings=CONTEXT,
                  help="brikscan: LDraw builds into BrikWars stat cards, line of sight and destruction previews.")
_ARGS: list[str] = []  # this run's arguments (the global callback looks for --json in them)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"brikscan {__version__}")
        raise typer.Exit(0)


@app.callback()
def _global(ctx: typer.Context,
            version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                         help="print the version and exit"),
            quiet: bool = typer.Option(False, "--quiet", "-q", help="no warnings and no progress bar"),
            verbose: bool = typer.Option(False, "--verbose", "-v", help="timings and extra detail on stderr")) -> None:
    """Options for every command: brikscan [--quiet | --verbose] COMMAND …"""
    from .output import configure, progress_scope

    configure(quiet, verbose, json_out="--json" in _ARGS)
    ctx.with_resource(progress_scope())

# Each module registers its commands on ``app`` when imported.
from . import model_cmds  # noqa: E402,F401
from . import stats_cmds  # noqa: E402,F401
from . import los_cmds  # noqa: E402,F401
from . import damage_cmds  # noqa: E402,F401
from . import attacks_cmds  # noqa: E402,F401
from . import army_cmds  # noqa: E402,F401
from . import serve_cmds  # noqa: E402,F401


def main(argv: list[str] | None = None) -> int:
    from . import output

    output.reset_clock()
    args = list(sys.argv[1:] if argv is None else argv)
    _ARGS[:] = args
    if not args:  # a bare `brikscan`: its help, and success
        args = ["--help"]
    try:
        app(args=args, standalone_mode=False, prog_name="brikscan")
    except BrikscanError as exc:
        print(f"brikscan: error: {exc.one_line()}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # click usage errors and the unexpected: still one line
        # typer may ship its own copy of click, so recognise click's exceptions by what they offer
        name = type(exc).__name__
        if name == "Exit":
            return int(getattr(exc, "exit_code", 0))
        if name == "NoArgsIsHelpError":  # a bare group (`brikscan library`): its help was printed
            return 0
        if name == "Abort":
            return 1
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            msg = exc.format_message().replace("\n", " ")
            print(f"brikscan: error: {msg}", file=sys.stderr)
            return EXIT_USAGE
        print(f"brikscan: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INPUT if isinstance(exc, (OSError, ValueError)) else 1
    return 0


def run() -> None:
    """The ``brikscan`` command: ``main``, then the process ends at once.

    A finished command has written and closed its outputs; tearing the interpreter down after it (every module of
    scipy, trimesh and VTK, the ray engines' threads, a large model's objects one by one) took half a second of a
    large model's ``attacks`` after the work was done, so the streams are flushed and the process leaves without it.
    """
    code = main()
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)  # a profiler or a coverage tracer writes its report at exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, OSError):  # a reader that went away (``| head``): nothing more to say
        pass
    os._exit(code)
