"""Input at the command line: hostile sizes refused before any work, by the checker's own
a-priori bound (work asserted by counts, never by time), duplicate keys, files written
with the user's umask, and one vocabulary of claim names across commands."""

import json
import random

import pytest
from bnproof.checker.parse import MAX_LEMMA_WORK, instance_bits, lemma_work
from bnproof.cli import main
from bnproof.errors import ExitCode
from bnproof.instance import check_certifiable, instance_from_json


def random_data(m, d, low=-5, high=5, seed=0):
    rng = random.Random(seed)
    return {"X": [[rng.randint(low, high) for _ in range(d)] for _ in range(m)],
            "y": [rng.randint(low, high) for _ in range(m)], "W0": [1] * d}


class Result:
    def __init__(self, exit_code, output):
        self.exit_code, self.output = exit_code, output


def verify(tmp_path, capsys, data, *extra):
    """The real entry point in-process (so the fixture below sees any work)."""
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "lemma-4.5", "--data", str(path), "--no-crosscheck",
              "--out", str(tmp_path / "cert.json"), *extra])
    out = capsys.readouterr()
    return Result(exit_.value.code, out.out + out.err)


@pytest.fixture
def no_work(monkeypatch):
    """Any exact work at all fails the test: refusals must come before it."""
    from bnproof.claims import lemma45

    def forbidden(*_):
        raise AssertionError("the exact engine ran on data that should have been refused")
    monkeypatch.setattr(lemma45, "analyse", forbidden)


def test_wide_data_is_refused_before_any_work(tmp_path, capsys, no_work):
    result = verify(tmp_path, capsys, random_data(300, 200))
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "checker's limit" in result.output and "300×200" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "cert.json").exists()


def test_huge_numbers_are_refused_before_any_work(tmp_path, capsys, no_work):
    # 400-digit entries: a small batch (40 × 32), but witnesses of ~10^5 digits
    big = {"X": [[str(10**399 + 7 * i + j * j) for j in range(32)] for i in range(40)],
           "y": [str(10**399 - i) for i in range(40)], "W0": ["1"] * 32}
    result = verify(tmp_path, capsys, big)
    assert result.exit_code == ExitCode.BAD_INPUT and "checker's limits" in result.output


def test_the_bound_is_the_checkers_and_grows_with_every_size():
    # refusal is decided by the checker's own function, monotone in m, d and the bits
    base = lemma_work(100, 16, 4)
    assert lemma_work(200, 16, 4) > base and lemma_work(100, 32, 4) > base
    assert lemma_work(100, 16, 8) > base
    inst = instance_from_json(random_data(300, 200))
    numbers = [x for rows in (inst.X, inst.Y, inst.W0) for row in rows for x in row]
    assert lemma_work(300, 200, instance_bits(numbers + [1, 0])) > MAX_LEMMA_WORK
    check_certifiable(instance_from_json(random_data(50, 8)))  # small data passes


@pytest.mark.slow
def test_accepted_data_gives_a_certificate_the_checker_accepts(tmp_path, capsys):
    # 400 random small-integer rows with d = 32: accepted, so its certificate must check
    from bnproof.checker import check_file

    result = verify(tmp_path, capsys, random_data(400, 32, seed=3), "--json")
    assert result.exit_code in (ExitCode.OK, ExitCode.REFUTED, ExitCode.HYPOTHESIS_NOT_MET), \
        result.output
    accepted, line = check_file(tmp_path / "cert.json")
    assert accepted, line


def test_files_are_written_with_the_users_umask(tmp_path):
    import os

    from bnproof.atomic import write_text_atomic

    old = os.umask(0o022)
    try:
        path = write_text_atomic(tmp_path / "a" / "cert.json", "{}")
    finally:
        os.umask(old)
    assert (path.stat().st_mode & 0o777) == 0o644  # mkstemp alone gives 0600
    assert [p.name for p in path.parent.iterdir()] == ["cert.json"]  # no temporary left


def test_a_duplicate_key_in_data_is_bad_input(tmp_path, capsys, no_work):
    # json.loads would keep the second W0; a reader of the file may see the first
    path = tmp_path / "dup.json"
    path.write_text('{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "W0": [5, 5]}')
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "lemma-4.5", "--data", str(path), "--no-crosscheck"])
    assert exit_.value.code == ExitCode.BAD_INPUT
    assert "duplicate key 'W0'" in capsys.readouterr().err


def test_verify_takes_the_id_list_shows_and_names_what_it_cannot_do(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "santurkar2018/lemma-4.5", "--no-crosscheck", "--json",
              "--out", str(tmp_path / "c.json")])
    assert exit_.value.code == ExitCode.REFUTED
    assert json.loads(capsys.readouterr().out)["verdict"] == "refuted"
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "theorem-4.1", "--no-crosscheck"])
    assert exit_.value.code == ExitCode.BAD_INPUT
    assert "no built-in instance: give --data FILE" in capsys.readouterr().err


def test_latex_and_plot_take_a_claims_alias_as_its_id(tmp_path, capsys):
    # `latex theorem-c.1` said "no certificate" where `latex santurkar2018/theorem-c.1` worked
    for name in ("theorem-c.1", "santurkar2018/theorem-c.1"):
        out = tmp_path / f"{name.replace('/', '_')}.tex"
        with pytest.raises(SystemExit) as exit_:
            main(["latex", name, "-o", str(out)])
        assert exit_.value.code == 0, capsys.readouterr().err
    texts = [p.read_text() for p in sorted(tmp_path.glob("*.tex"))]
    assert texts[0] == texts[1]
    with pytest.raises(SystemExit) as exit_:
        main(["plot", "santurkar2018/lemma-4.5", "-o", str(tmp_path / "p.png")])
    assert exit_.value.code == 0 and (tmp_path / "p.png").stat().st_size > 0


def test_non_ascii_digits_are_not_numbers():
    # Fraction("٣") is 3; the checker refuses such digits, so the reader must too
    from bnproof.errors import BadInput
    from bnproof.instance import parse_number

    for text in ("٣", "1/٣", "٣.5", "1e٣"):
        with pytest.raises(BadInput):
            parse_number(text, "gamma")
    assert parse_number("3.5e1", "gamma") == 35


def test_writing_to_a_device_or_fifo_writes_into_it_and_never_replaces_it(tmp_path):
    # `-o /dev/null` once replaced /dev/null with a regular file (a rename over the device, as
    # root); the same path is tested here on a FIFO so that a regression cannot break the machine
    import os
    import stat

    from bnproof.atomic import write_text_atomic

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader from the start: no blocking
    try:
        write_text_atomic(fifo, "{}")
        try:
            received = os.read(reader, 100)
        except BlockingIOError:  # nothing was written into the FIFO
            received = b""
    finally:
        os.close(reader)
    assert received == b"{}"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary left beside it
