"""Errors a user can read: one line, naming the file and line, with an exit code the CLI returns."""
from __future__ import annotations

from dataclasses import dataclass

# Documented exit codes (README "Exit codes").
EXIT_OK = 0
EXIT_USAGE = 2  # bad option / argument value
EXIT_INPUT = 3  # input file missing, unreadable, not LDraw, empty, circular
EXIT_LIBRARY = 4  # LDraw library missing or corrupt
EXIT_NOT_FOUND = 5  # a named unit / element / creation does not exist


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
        return f"{where}{self.message}"


class InputError(BrikscanError):
    exit_code = EXIT_INPUT


class LibraryError(BrikscanError):
    exit_code = EXIT_LIBRARY


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
        return f"{self.file}:{self.line}: {self.message}"
