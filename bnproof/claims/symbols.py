"""The symbols a claim is written in: a variable's name that spells a Greek letter
(gamma: γ, eps: ε), and the one symbol a claim declares for a variable in its
`symbols` (\\varepsilon, \\hat{y}) as Unicode.  Here, below the prover's normal
forms (symbolic_m/show.py) and the terminal's typesetting (render/unicode_math.py),
which both write a claim's inputs so."""

from __future__ import annotations

import re

# A variable's name that spells a Greek letter, as that letter (as LaTeX documents write it:
# render/latex_program.variable); eps and lam are what a claim writes for ε and λ (a keyword).
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
         "eta": "η", "theta": "θ", "vartheta": "ϑ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
         "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
         "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
         "Omega": "Ω"}
NAME_ALIASES = {"eps": "epsilon", "lam": "lambda"}
# One symbol a claim declares in LaTeX (its `symbols`), as Unicode: \varepsilon, \hat{y}, \mathbf{w}
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304"}
_FONTS = ("mathbf", "boldsymbol", "mathit", "mathrm", "mathsf", "mathcal")
_ONE_SYMBOL = re.compile(r"\\([A-Za-z]+)\{([A-Za-z]|\\[A-Za-z]+)\}|\\([A-Za-z]+)|([A-Za-z])")


def greek_name(name: str) -> str | None:
    """The Greek letter a variable's name spells (gamma: γ, eps: ε), else None."""
    return GREEK.get(NAME_ALIASES.get(name, name))


def symbol_text(latex: str) -> str | None:
    """A claim's declared symbol in Unicode where it is one symbol (\\varepsilon: ε, \\hat{y}: ŷ,
    \\mathbf{w}: w, γ: γ), else None (a formula such as \\nabla_{y_j} L stays the name)."""
    text = latex.strip()
    if len(text) == 1 and text.isalpha():
        return text
    hit = _ONE_SYMBOL.fullmatch(text)
    if hit is None:
        return None
    command, inner, bare, letter = hit.groups()
    if letter:
        return letter
    if bare:
        return GREEK.get(bare)
    base = inner if len(inner) == 1 else GREEK.get(inner[1:])
    if base is None:
        return None
    if command in _ACCENTS:
        return base + _ACCENTS[command]
    return base if command in _FONTS else None
