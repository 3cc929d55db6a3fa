"""The typer application every command registers on (each command lives in its own
module, listed in commands.py; the entry point, above them all, is entry.py)."""

from __future__ import annotations

import copy

import typer
from typer.core import TyperCommand, TyperGroup

from ..errors import EXIT_CODE_HELP

EPILOG = "Exit codes:\n\n" + "\n\n".join(EXIT_CODE_HELP.splitlines())


# What an option's value is, in the help (rich prints the metavar in place of a type
# label such as <str> or <path>, which says nothing of what to give).
METAVARS = {"data": "FILE", "out": "FILE", "out_dir": "DIR", "seed": "SEED", "size": "NAME=N",
            "max_examples": "N", "batch": "N", "neuron": "N", "samples": "N", "features": "N",
            "max_steps": "N", "trials": "N", "confirm": "N", "time_budget": "SECONDS",
            "timeout": "SECONDS", "tol": "TOL", "m": "M,…", "d": "D,…", "widths": "W,…",
            "dataset": "NAME", "activation": "NAME", "loss": "NAME", "affine": "fixed|learned",
            "dtype": "float64|float32", "claim_file": "FILE.py", "claim": "CLAIM",
            "files": "FILES", "num_processes": "N", "process_id": "N"}


def _plain_help(command, ctx) -> None:
    """Help as click-style tools print it: a flag shows no `<bool>` type, an
    argument is CLAIM in the usage line (not `{claim}`), an option's value is named
    by what it is (FILE, DIR, N, SEED), never by a type label, and a command's
    one-line summary is its first paragraph on one line."""
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # rich prints the metavar in place of the type
        elif param.param_type_name == "argument":
            if param.metavar is None:
                param.metavar = METAVARS.get(param.name, param.name.upper())
            param.display_type_rich = lambda ctx: None  # the name says it; no "<str>" beside it
            kind = getattr(param, "type", None)  # typer 0.29's own arguments have none
            if kind is not None and not getattr(kind, "plain_help", False):
                # typer before 0.28 prints the type's metavar, else "<str>", beside the name.  A
                # copy: click's STRING and the like are shared by every parameter
                plain = copy.copy(kind)
                plain.get_metavar = lambda *args, **kwargs: ""
                plain.plain_help = True
                param.type = plain
        elif param.metavar is None:
            param.metavar = METAVARS.get(param.name, param.name.upper())


class Command(TyperCommand):
    def collect_usage_pieces(self, ctx) -> list[str]:
        _plain_help(self, ctx)
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = param.metavar + ("…" if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_help(self, ctx, formatter) -> None:
        _plain_help(self, ctx)
        written = self.help
        # rich keeps the docstring's own line ends inside its wrapping: rewrap whole paragraphs
        self.help = "\n\n".join(" ".join(p.split()) for p in (written or "").split("\n\n"))
        try:
            return super().format_help(ctx, formatter)
        finally:
            self.help = written

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.short_help is None:  # the list in `bnproof --help`: the first paragraph, one line
            self.short_help = " ".join((self.help or "").split("\n\n")[0].split())


class Group(TyperGroup):
    def format_help(self, ctx, formatter) -> None:
        _plain_help(self, ctx)
        return super().format_help(ctx, formatter)


app = typer.Typer(
    cls=Group,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Check mathematical claims about batch normalization exactly, independently and at scale.",
    epilog=EPILOG,
)

def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"bnproof {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Check mathematical claims about batch normalization exactly, independently and at scale."""
