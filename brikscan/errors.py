"""Errors a user can read: one line, naming the file and line, with an exit code the CLI returns."""
from __future__ import annotations

from dataclasses import dataclass

# Documented exit codes (README "Exit codes").
EXIT_OK = 0
EXIT_USAGE = 2  # bad option / argument value
EXIT_INPUT = 3  # input file missing, unreadable, not LDraw, empty, circular
EXIT_LIBRARY = 4  # LDraw library missing or corrupt
EXIT_NOT_FOUND = 5  # a named unit / element / creation does not exist
EXIT_OUTPUT = 6  # an output file cannot be written (read-only folder, disk full)
EXIT_INTERNAL = 1  # a bug: an exception nobody expected (the CLI's catch-all)

MAX_MESSAGE = 400  # characters: a message stays one readable line whatever the input holds


def clip(text: object, limit: int = 60) -> str:
    """A name cut to ``limit`` characters (saying how long it was), so a 10 MB name gives a short message."""
    s = str(text)
    if len(s) > limit:
        s = s[:limit] + f"… ({len(s.encode('utf-8', 'replace'))} bytes)"
    return s


def short(text: object, limit: int = 60) -> str:
    """``repr`` of :func:`clip`: a quoted name for messages."""
    return repr(clip(text, limit))


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """Newlines and control characters out, length capped."""
    s = "".join(c if c.isprintable() else " " for c in text)
    return s if len(s) <= limit else s[:limit] + "…"


class BrikscanError(Exception):
    """An error the CLI prints as one line (no traceback) and exits with ``exit_code``."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 exit_code: int | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        if exit_code is not None:
            self.exit_code = exit_code
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return one_line(f"{where}{self.message}")


class InputError(BrikscanError):
    exit_code = EXIT_INPUT


class LibraryError(BrikscanError):
    exit_code = EXIT_LIBRARY


class LimitError(InputError):
    """The input would exceed a limit (elements, triangles, depth, coordinates, scale): refused before the work."""


class OutputError(BrikscanError):
    exit_code = EXIT_OUTPUT


class UsageError(BrikscanError):
    exit_code = EXIT_USAGE


class NotFoundError(BrikscanError):
    exit_code = EXIT_NOT_FOUND


@dataclass(frozen=True)
class Diagnostic:
    """A warning attached to a place in an input file; loading goes on."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return one_line(f"{where}: {self.message}")
