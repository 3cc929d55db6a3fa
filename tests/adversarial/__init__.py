"""The attacker's test suite of issue 22 ("Tests that attack, not confirm").

Everything here describes behaviour that bnproof must reach, and much of it fails on
the code it was written against (commit 7329b19): that is its purpose.

- rules.py: what a wrong verdict is, and the runs (CLI in this process) that look for one;
- claim_files/: one claim file per attack of tests/test_adversarial_classes.py, each
  saying in its docstring what it attacks and whether it is true;
- frozen/: certificates that commit 7329b19 issued for wrong verdicts on those claim
  files (`check --claim` must reject every one);
- tricks.py and generator.py: random claims with Python-level tricks, each with its
  truth computed by SymPy from the mathematics it encodes, never by bnproof
  (tests/test_adversarial_claims.py runs them).

`python tests/adversarial/generator.py SEED [FOLDER]` prints (or writes) one
generated claim, to reproduce a failure of tests/test_adversarial_claims.py.
"""
