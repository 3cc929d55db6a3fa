"""Every command, in the order `bnproof --help` lists them."""

from . import verify, fuzz, prove, report, listing, check, latex, plot, export, scan, study  # noqa: F401
from ..errors import command_epilog
from .application import Command, app

# A command registers when its module is first imported, and the API imports some of
# them earlier (bnproof.check borrows check's binding): fix the order here.
ORDER = ["verify", "fuzz", "prove", "report", "list", "check", "latex", "plot", "export", "scan", "study"]
app.registered_commands.sort(
    key=lambda c: ORDER.index(c.name or c.callback.__name__) if (c.name or c.callback.__name__) in ORDER
    else len(ORDER))
# Plain help (no <bool>, no {claim}) and, in each command's epilog, only the exit
# codes it can return, from the one table in errors.py.
for info in app.registered_commands:
    name = info.name or info.callback.__name__
    info.cls = Command
    info.epilog = command_epilog(name)
