"""A claim file whose top level never finishes: `fuzz` and `prove` must stop within their
time budget (plus a grace), with one line, not wait forever (they did before the fix)."""
import time

from bnproof.claims import Claim, Var

while True:
    time.sleep(0.01)

CLAIM = Claim(id="rt22/never-loaded", source="red team", statement="x", variables=(Var("x", ()),),
              residual=lambda xp, x: x * x)
