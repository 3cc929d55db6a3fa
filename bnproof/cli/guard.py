"""A command's outcome as the command line reports it: one-line errors with their
exit codes, never a traceback.  Shared by the typer entry point and the
commands that run without typer, so both fail alike."""

from __future__ import annotations

import errno
import os
import sys
from typing import Callable, NoReturn

from ..errors import BnproofError, ExitCode
from .echo import echo


class _Pacified:
    """A stream whose flush ignores a closed pipe, as click leaves stdout after EPIPE."""

    def __init__(self, stream):
        self._stream = stream

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as err:
            if err.errno != errno.EPIPE:
                raise

    def __getattr__(self, name):
        return getattr(self._stream, name)


def guarded(body: Callable[[], int | None], as_json: bool) -> NoReturn:
    """Run `body` and exit with its code; errors as `bnproof` reports them."""
    try:
        code = body()
    except BnproofError as err:
        if as_json:  # a script reading stdout gets an object it can parse, then the code
            _json_error(str(err), err.exit_code, getattr(err, "finished", None))
        echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except OSError as err:
        if err.errno != errno.EPIPE:  # a reader that went away (| head): exit 1 quietly, as click
            _internal(err, as_json)
        sys.stdout, sys.stderr = _Pacified(sys.stdout), _Pacified(sys.stderr)
        sys.exit(1)
    except Exception as err:  # noqa: BLE001 - the last line of defence
        _internal(err, as_json)
    sys.exit(code or 0)


def _json_error(message: str, code: int, finished=None) -> None:
    import json

    payload = {"error": message, "exit_code": int(code)}
    if finished:  # the claims a stopped run had finished: still one document
        payload["finished"] = finished
    echo(json.dumps(payload, indent=2, ensure_ascii=False))


def _internal(err: Exception, as_json: bool = False) -> NoReturn:
    if os.environ.get("BNPROOF_DEBUG"):
        raise err
    message = f"internal error: {type(err).__name__}: {err}"
    if as_json:  # a bug too is one object on stdout, as docs/cli.md promises for every error
        _json_error(message, ExitCode.INTERNAL)
    echo(f"{message} (set BNPROOF_DEBUG=1 for a traceback)", err=True)
    sys.exit(ExitCode.INTERNAL)
