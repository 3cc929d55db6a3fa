"""A claim file may import helper modules beside it (`from mylib import f`):
the import works in the API and in `bnproof fuzz`'s worker process, two folders'
helpers of one name never mix, the import path and module cache are left as
they were, errors in a helper name the claim file and the helper's line (exit 3),
and an edited helper counts as an edited claim file."""

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.claims.api import load_file
from bnproof.claims.helper_modules import helper_files
from bnproof.errors import BadInput, ExitCode
from bnproof.search.worker import digest

HANG_GUARD = 600  # seconds (beyond any budget below); only so that a hang fails instead of blocking the suite

CLAIM = '''
from bnproof.claims import Claim, Var
from {module} import margin

CLAIM = Claim(id="{claim_id}", source="a test", statement="x^2 - c \\\\ge 0", variables=(Var("x", ()),),
              residual=margin)
'''


def helper(offset: int) -> str:
    return f"def margin(xp, x):\n    return x * x - {offset}\n"


def folder_with(root: Path, name: str, offset: int, module: str = "mylib") -> Path:
    """root/name/claim.py importing margin from root/name/<module>.py: x² − offset ≥ 0."""
    folder = root / name
    folder.mkdir()
    (folder / f"{module}.py").write_text(helper(offset))
    (folder / "claim.py").write_text(CLAIM.format(module=module, claim_id=f"helpers/{name}"))
    return folder / "claim.py"


def residual_at(claim, x):
    from bnproof.claims.xp import floating

    return float(claim.residual(floating(), x=float(x)))


# fuzz's budget in these runs: they end at their example count, at any speed, well within it
GENEROUS = "300"


def run_cli(*args, cwd: Path):
    # -I: neither the working folder nor PYTHONPATH is on the import path; only the claim's folder is
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(cwd / ".cache"))
    return subprocess.run([sys.executable, "-I", "-m", "bnproof", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=HANG_GUARD)


def test_two_folders_helpers_of_one_name_each_serve_their_own_claim(tmp_path):
    path_before, modules_before = list(sys.path), set(sys.modules)
    a = load_file(folder_with(tmp_path, "a", 0))[0]
    b = load_file(folder_with(tmp_path, "b", 1))[0]
    assert residual_at(a, 0) == 0.0 and residual_at(b, 0) == -1.0  # b's mylib, not a's cached one
    assert sys.path == path_before
    assert "mylib" not in sys.modules and set(sys.modules) - modules_before <= {
        m for m in sys.modules if m.startswith(("bnproof", "numpy", "jax", "sympy"))}
    assert helper_files(tmp_path / "a" / "claim.py") == (str((tmp_path / "a" / "mylib.py").resolve()),)


def test_a_helper_package_with_submodules_is_importable_and_forgotten_afterwards(tmp_path):
    package = tmp_path / "tools"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bounds.py").write_text(helper(4))
    (tmp_path / "claim.py").write_text(CLAIM.format(module="tools.bounds", claim_id="helpers/pkg"))
    claim = load_file(tmp_path / "claim.py")[0]
    assert residual_at(claim, 3) == 5.0
    assert not any(m == "tools" or m.startswith("tools.") for m in sys.modules)
    assert set(helper_files(tmp_path / "claim.py")) == {str((package / "__init__.py").resolve()),
                                                        str((package / "bounds.py").resolve())}


def test_a_helper_edited_between_two_loads_is_read_afresh(tmp_path):
    path = folder_with(tmp_path, "a", 1)
    assert residual_at(load_file(path)[0], 0) == -1.0
    (tmp_path / "a" / "mylib.py").write_text(helper(100))  # another size: no stale bytecode either
    assert residual_at(load_file(path)[0], 0) == -100.0


def test_a_module_imported_before_the_load_from_the_claims_folder_is_left_alone(tmp_path):
    (tmp_path / "h5_preloaded.py").write_text(helper(2))
    (tmp_path / "claim.py").write_text(CLAIM.format(module="h5_preloaded", claim_id="helpers/pre"))
    sys.path.insert(0, str(tmp_path))
    try:
        import h5_preloaded
    finally:
        sys.path.remove(str(tmp_path))
    try:
        claim = load_file(tmp_path / "claim.py")[0]
        assert sys.modules["h5_preloaded"] is h5_preloaded  # the user's module stays imported
        assert claim.residual is h5_preloaded.margin
    finally:
        del sys.modules["h5_preloaded"]


def test_a_helper_shadowed_by_a_module_of_its_name_imported_elsewhere_is_bad_input(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "h5_shadow.py").write_text(helper(7))
    path = folder_with(tmp_path, "a", 0, module="h5_shadow")
    sys.path.insert(0, str(elsewhere))
    try:
        import h5_shadow  # noqa: F401 - the user's session imported another h5_shadow first
    finally:
        sys.path.remove(str(elsewhere))
    try:
        with pytest.raises(BadInput) as err:
            load_file(path)
        assert "imports h5_shadow from" in str(err.value) and "elsewhere" in str(err.value)
        assert "give the helper another name" in str(err.value)
    finally:
        del sys.modules["h5_shadow"]


def test_a_helper_that_raises_names_the_claim_file_and_both_lines(tmp_path):
    path = folder_with(tmp_path, "a", 0)
    (tmp_path / "a" / "mylib.py").write_text(helper(0) + "\nBROKEN = 1 / 0\n")
    path_before = list(sys.path)
    with pytest.raises(BadInput) as err:
        load_file(path)
    # line 3 of the claim file imports mylib; line 4 of mylib divides by zero
    assert str(err.value) == (f"claim file {path} (line 3, in mylib.py, line 4): "
                              "ZeroDivisionError: division by zero")
    assert sys.path == path_before and "mylib" not in sys.modules


def test_a_missing_helper_is_bad_input_naming_the_line(tmp_path):
    (tmp_path / "claim.py").write_text(CLAIM.format(module="h5_nowhere", claim_id="helpers/none"))
    with pytest.raises(BadInput, match=r"claim\.py \(line 3\): ModuleNotFoundError: No module named "
                                       r"'h5_nowhere'"):
        load_file(tmp_path / "claim.py")


def test_a_relative_claim_path_still_names_the_line(tmp_path, monkeypatch):
    folder_with(tmp_path, "a", 0)
    (tmp_path / "a" / "mylib.py").write_text("raise ValueError('no')\n")
    monkeypatch.chdir(tmp_path / "a")
    with pytest.raises(BadInput) as err:
        load_file("claim.py")
    assert str(err.value) == "claim file claim.py (line 3, in mylib.py, line 1): ValueError: no"


def test_the_fingerprint_covers_the_helpers(tmp_path):
    path = folder_with(tmp_path, "a", 0)
    load_file(path)
    before = digest(str(path))
    (tmp_path / "a" / "mylib.py").write_text(helper(0) + "# edited\n")
    assert digest(str(path)) != before
    (tmp_path / "a" / "mylib.py").write_text(helper(0))
    assert digest(str(path)) == before
    (tmp_path / "a" / "unrelated.py").write_text("x = 1\n")  # not imported by the claim: not covered
    assert digest(str(path)) == before


def test_cli_fuzz_imports_helpers_in_its_worker_and_certifies_the_refutation(tmp_path):
    folder_with(tmp_path, "a", 1)
    proc = run_cli("fuzz", "a/claim.py", "--no-jax", "--no-timings", "--json", "--max-examples", "20",
                   "--time-budget", GENEROUS, cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == ExitCode.REFUTED, proc.stdout + proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "refuted"
    x = Fraction(result["counterexample"]["x"])
    assert x * x - 1 < 0  # decided here, independently: x² − 1 < 0 on the counterexample
    check = run_cli("check", "bnproof-out/helpers/a.json", cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.startswith("ACCEPTED"), check.stdout + check.stderr


def test_cli_fuzz_of_a_claim_whose_helper_raises_is_bad_input(tmp_path):
    folder_with(tmp_path, "a", 0)
    (tmp_path / "a" / "mylib.py").write_text(helper(0) + "\nBROKEN = 1 / 0\n")
    proc = run_cli("fuzz", "a/claim.py", "--no-jax", "--time-budget", GENEROUS, cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT
    assert "Traceback" not in proc.stderr
    assert "claim file a/claim.py (line 3, in mylib.py, line 4): ZeroDivisionError" in proc.stderr


def test_a_helper_edited_during_the_run_makes_the_next_claim_undecided(tmp_path):
    # the first claim's code edits the helper (an editor saving it mid-run); the worker loads
    # the file again for the second claim, and must not search the edited helper as the old claim
    (tmp_path / "mylib.py").write_text('''
from pathlib import Path

HERE = Path(__file__)


def margin(xp, x):
    done = HERE.with_name("edited.done")
    if xp.kind == "floating" and not done.exists():
        done.touch()
        HERE.write_text(HERE.read_text().replace("x * x + 1", "x * x - 1"))
    return x * x


def shifted(xp, x):
    return x * x + 1
''')
    (tmp_path / "claims.py").write_text('''
from bnproof.claims import Claim, Var
from mylib import margin, shifted

FIRST = Claim(id="edited/first", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
              residual=margin)
SECOND = Claim(id="edited/second", source="a test", statement="x^2 + 1 >= 0", variables=(Var("x", ()),),
               residual=shifted)
''')
    proc = run_cli("fuzz", "claims.py", "--no-jax", "--json", "--no-timings", "--max-examples", "5",
                   "--time-budget", GENEROUS, cwd=tmp_path)
    listed = json.loads(proc.stdout)
    # an error object in place of the list: say which error (session 29's loaded run showed only a TypeError)
    assert isinstance(listed, list), (proc.returncode, proc.stdout, proc.stderr)
    results = {r["claim"]: r for r in listed}
    assert results["edited/first"]["verdict"] == "survived"
    assert results["edited/second"]["verdict"] == "undecided", results["edited/second"]
    assert "changed during the run" in results["edited/second"]["reason"]
    assert not (tmp_path / "bnproof-out").exists()


def test_loading_leaves_no_bytecode_beside_the_claim_file(tmp_path, monkeypatch):
    # Python writes __pycache__ beside what it imports unless told not to (most machines do not
    # set PYTHONDONTWRITEBYTECODE); a claim file and its helpers are the author's input
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = folder_with(tmp_path, "bytecode", 4, module="mylib_bytecode")
    (claim,) = load_file(path)
    assert residual_at(claim, 3) == 5.0
    assert sorted(p.name for p in path.parent.iterdir()) == ["claim.py", "mylib_bytecode.py"]
    assert sys.dont_write_bytecode is False  # as it was
