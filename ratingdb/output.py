"""Standard output whose reader went away: ``ratingdb lists export ... | head -1``.

``head`` reads what it wants and exits; the next write to the pipe fails with EPIPE, which
Python raises as BrokenPipeError (it ignores SIGPIPE). A Unix tool ends quietly then, and so do
``ratingdb`` and ``python -m jobs``: no traceback, no "Exception ignored" when the interpreter
flushes at exit, and exit 1 (:data:`EXIT_READER_GONE`), as the recipe in Python's documentation
of the signal module does. Not 141 (a shell's 128 + SIGPIPE for a process the signal killed):
the contract gives a command 0, 1 and 2 only, and with ``set -o pipefail`` 1 says what it is, an
output not delivered whole.

Light on purpose: both command lines import it before their parsers run.
"""

from __future__ import annotations

import os
import sys

#: The exit status when the output's reader went away: not all of it was delivered.
EXIT_READER_GONE = 1


def reader_gone() -> int:
    """After a BrokenPipeError on stdout: point stdout at /dev/null, so that nothing more is
    written to the closed pipe, not even what is still buffered when the interpreter exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
    return EXIT_READER_GONE


def delivered(code: int) -> int:
    """``code``, once what the command printed has left the buffer (an output of a few lines
    would otherwise only be written at exit, where a closed pipe gives a message and exit 120);
    :data:`EXIT_READER_GONE` if its reader went away."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return reader_gone()
    return code
