"""The ``brikscan`` command: thin wrappers over the Python API, one module per command group.

Every error a user can cause ends as one line on stderr and a documented exit code, never a traceback.
"""
from __future__ import annotations

import sys

import typer

from ..errors import EXIT_INPUT, EXIT_USAGE, BrikscanError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="brikscan: LDraw builds into BrikWars stat cards, line of sight and destruction previews.")

# Each module registers its commands on ``app`` when imported.
from . import model_cmds  # noqa: E402,F401
from . import stats_cmds  # noqa: E402,F401
from . import los_cmds  # noqa: E402,F401
from . import damage_cmds  # noqa: E402,F401
from . import serve_cmds  # noqa: E402,F401


def main(argv: list[str] | None = None) -> int:
    try:
        app(args=argv, standalone_mode=False)
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
    sys.exit(main())
