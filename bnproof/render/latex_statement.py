"""A claim's statement as printed, from an untrusted certificate, made safe for LaTeX.

A certificate's statement is text someone else wrote, and LaTeX is a
programming language (\\input, \\write, \\catcode, ^^ escapes).  A paper's
statement may use any of the math vocabulary of amsmath and amssymb, so
control words are not allow-listed; instead (docs/certificates.md,
"Statements in LaTeX"):

- the grammar: printable ASCII only; no '%', '#', '$' or '^^' (comments,
  macro parameters, leaving math mode, character escapes); no blank line;
  control words made of letters, or one non-letter (\\, \\{ \\|);
  balanced braces, \\left/\\right and \\begin/\\end; environments only from a
  list of math environments (\\begin{NAME} calls \\NAME by name);
- a deny-list of what can do harm: file and terminal I/O, definitions and
  assignments of meaning or catcodes, names built from text (\\csname,
  \\UseName), expansion tricks and conditionals, and engine escapes
  (\\special, \\directlua, \\pdf…).

Anything else is a one-line BadInput naming the problem.
"""

from __future__ import annotations

import re

from ..errors import BadInput
from .latex_break import ParseError, parse

MAX_CHARS = 2000
MAX_DEPTH = 40  # nested groups; deeper is not a formula, and TeX's own limit is a crash

# Primitives and kernel/package commands that read or write files, define or
# redefine commands, change catcodes, build control sequence names from text,
# expand in ways a formula never needs, or reach the engine or the shell.
DENIED = set("""
input endinput include includeonly InputIfFileExists IfFileExists includegraphics
read readline openin openout closein closeout write immediate newwrite newread message
typeout wlog errmessage errhelp show showbox showthe showlists showtokens showhyphens
def edef gdef xdef let futurelet glet long outer protected global globaldefs
newcommand renewcommand providecommand DeclareRobustCommand DeclareMathOperator
DeclareMathSymbol DeclareMathAlphabet newenvironment renewenvironment
NewDocumentCommand RenewDocumentCommand ProvideDocumentCommand DeclareDocumentCommand
NewDocumentEnvironment NewCommandCopy ExpandArgs UseName csname endcsname csdef csgdef
csedef csxdef csuse cslet csletcs letcs ifcsname ifdefined
catcode lccode uccode sfcode mathcode delcode uppercase lowercase scantokens
detokenize unexpanded noexpand expandafter afterassignment aftergroup string meaning
romannumeral number numexpr dimexpr glueexpr muexpr chardef mathchardef countdef
dimendef skipdef toksdef muskipdef count dimen skip toks muskip setbox box copy
newcount newdimen newskip newtoks newbox newlength setlength addtolength setcounter
addtocounter stepcounter refstepcounter newcounter settowidth settoheight settodepth
special directlua latelua luaexec luadirect shipout output outputpenalty deadcycles
everypar everymath everydisplay everyhbox everyvbox everyjob everycr everyeof
stop dump batchmode nonstopmode scrollmode errorstopmode jobname
usepackage RequirePackage documentclass LoadClass makeatletter makeatother
ExplSyntaxOn ExplSyntaxOff AtBeginDocument AtEndDocument AtBeginDvi AtBeginShipout
AtEndOfClass AtEndOfPackage addto patchcmd pretocmd apptocmd
halign valign noalign omit span cr crcr vadjust insert mark marks topmark
begingroup endgroup bgroup egroup verb lstinline url path href
loop repeat loopexit tracingall tracingonline font fontdimen hyphenation patterns
hyphenchar skewchar endlinechar newlinechar escapechar deadcycles maxdeadcycles
interactionmode pagegoal pagetotal insertpenalties holdinginserts
""".split())
# Families whose every member is a conditional, an engine primitive, or a definition.
DENIED_PREFIXES = ("if", "pdf", "tracing", "every", "new", "renew", "New", "Renew", "Provide",
                   "Declare", "lua", "Lua", "Expl", "xe", "XeTeX", "synctex", "Use", "AddTo",
                   "RemoveFrom", "ActivateGeneric")
# compared without case: \\ShellEscape, \\scantextokens, \\expanded, \\primitive
DENIED_PARTS = ("input", "include", "file", "write", "read", "catcode", "csname", "shell",
                "special", "lua", "scan", "expand", "primitive")
ALLOWED_ANYWAY = {"iff"}  # a relation, not a conditional

ENVIRONMENTS = {"cases", "matrix", "pmatrix", "bmatrix", "Bmatrix",
                "vmatrix", "Vmatrix", "smallmatrix", "aligned", "alignedat", "gathered",
                "split", "subarray", "array"}

_CHARS = re.compile(r"[ -~\t\n]*")
_CONTROL = re.compile(r"\\([A-Za-z]+|[^A-Za-z]|$)")


def denied(name: str) -> bool:
    """Whether the control word \\name is on the deny-list."""
    if name in ALLOWED_ANYWAY:
        return False
    return (name in DENIED or name.startswith(DENIED_PREFIXES)
            or any(part in name.lower() for part in DENIED_PARTS))


def safe_statement(statement) -> str:
    """The statement if it is math notation that cannot act on the system or the
    document; BadInput naming the problem otherwise."""
    if not isinstance(statement, str) or not statement.strip():
        raise BadInput("the certificate's claim statement is not a non-empty string")
    if len(statement) > MAX_CHARS:
        raise BadInput(f"the claim statement has more than {MAX_CHARS} characters")
    if _CHARS.fullmatch(statement) is None:
        char = next(c for c in statement if not _CHARS.fullmatch(c))
        raise BadInput(f"the claim statement contains {char!r}: write it as a LaTeX command "
                       "(printable ASCII only)")
    for char, why in (("%", "a comment"), ("#", "a macro parameter"), ("$", "leaves math mode")):
        if char in statement:
            raise BadInput(f"the claim statement contains {char!r} ({why}), which is not "
                           "allowed in a formula printed from a certificate")
    if "^^" in statement:
        raise BadInput("the claim statement contains '^^' (a TeX character escape)")
    if re.search(r"\n[ \t]*\n", statement):
        raise BadInput("the claim statement contains a blank line (a paragraph break)")
    for match in _CONTROL.finditer(statement):
        name = match.group(1)
        if not name:
            raise BadInput("the claim statement ends with a lone backslash")
        if name.isalpha() and denied(name):
            raise BadInput(f"the claim statement uses \\{name}, which is not allowed in a "
                           "formula printed from a certificate (it can read or write files, "
                           "define commands or change how TeX reads its input)")
    _check_structure(statement)
    return statement


def _check_structure(statement: str) -> None:
    depth = deepest = 0
    for char in re.sub(r"\\.", "", statement):  # an escaped \{ is not a group
        depth += (char == "{") - (char == "}")
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise BadInput(f"the claim statement nests groups more than {MAX_DEPTH} deep")
    for match in re.finditer(r"\\(begin|end)\s*(\{[^{}]*\})?", statement):
        name = (match.group(2) or "{}")[1:-1].strip()
        if name not in ENVIRONMENTS:
            raise BadInput(f"the claim statement uses \\{match.group(1)}{{{name}}}: only the math "
                           "environments " + ", ".join(sorted(ENVIRONMENTS)) + " are allowed")
    try:
        parse(statement)
    except ParseError as err:
        raise BadInput(f"the claim statement is not a well-formed formula: {err}") from None
