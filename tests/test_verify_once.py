"""Issue 24, part 6: `bnproof verify` does each step once.  The independent checker
reads the certificate's exact bytes once, before they are written, and those bytes
are what the file holds; the JSON report is written once; the closed forms are
written from the neuron's moments, never from its m×d batch.  Behaviour only: no
test here measures time."""

import functools
import json
import math
import os
import random
import stat
from fractions import Fraction

import pytest

import bnproof.checker as checker_package
import bnproof.checker.kernel as kernel
from bnproof.checker import Rejected, check_file
from bnproof.cli import main
from bnproof.errors import ExitCode

@pytest.fixture
def checker_calls(monkeypatch):
    """Every document the checker is asked to accept, and the bytes it parsed, in order;
    check_document is counted under both names bnproof uses for it."""
    seen = {"documents": [], "bytes": [], "files": []}
    real_check, real_read = kernel.check_document, kernel.read
    import bnproof.checker.parse as parsing

    real_parse = getattr(parsing, "parse", None)  # what check_bytes reads bytes with

    def check_document(doc):
        seen["documents"].append(doc)
        return real_check(doc)

    def parse(data):
        seen["bytes"].append(data)
        return real_parse(data)

    def read(path):
        seen["files"].append(path)
        return real_read(path)

    monkeypatch.setattr(kernel, "check_document", check_document)
    monkeypatch.setattr(checker_package, "check_document", check_document)
    monkeypatch.setattr(kernel, "parse", parse, raising=False)
    monkeypatch.setattr(kernel, "read", read)
    return seen


def verify(*args) -> int:
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "lemma-4.5", "--no-crosscheck", *args])
    return exit_.value.code


def test_the_checker_reads_the_certificate_once_and_the_file_holds_those_bytes(tmp_path, checker_calls, capsys):
    out = tmp_path / "cert.json"
    assert verify("--out", str(out)) == ExitCode.REFUTED
    assert len(checker_calls["documents"]) == 1  # was 2: the built document, then the file
    assert checker_calls["files"] == []  # the file is not read back
    assert checker_calls["bytes"] == [out.read_bytes()]  # what was checked is what was written
    assert check_file(out) == (True, f"ACCEPTED {out}: lemma-4.5 refuted")  # and a re-read agrees
    assert f"Certificate: {out}" in capsys.readouterr().out


def test_the_api_without_out_checks_once_and_keeps_the_checked_text(checker_calls):
    import bnproof

    result = bnproof.verify(crosscheck=False)
    assert len(checker_calls["documents"]) == 1  # was 2 here too
    assert checker_calls["bytes"] == [result.certificate.encode("ascii")]
    assert result.certificate_path is None
    assert result.certificate_check == "ACCEPTED (in memory): lemma-4.5 refuted"


def test_the_same_line_as_the_file_would_get_for_any_bytes(tmp_path):
    # check_bytes is check_file without the file: same reading, same verdict, same line
    import bnproof
    from bnproof.checker import check_bytes

    good = bnproof.verify(crosscheck=False).certificate.encode("ascii")
    from bnproof.certificate.io import seal

    doc = json.loads(good)
    doc["instance"]["X"][2][1] = "1/1"  # sealed again: the entry itself must be refused
    doc = seal({k: v for k, v in doc.items() if k != "digest"})
    variants = [good, good.replace(b'"refuted"', b'"holds"'), b"\xff{}", good[:-30],
                b'{"a": 1, "a": 2}', b"[NaN]", good.replace(b"{", b"{\"x\": 1, ", 1),
                json.dumps(doc).encode()]
    for i, data in enumerate(variants):
        path = tmp_path / f"v{i}.json"
        path.write_bytes(data)
        assert check_bytes(data, path) == check_file(path), i
    assert "instance.X[2][1]" in check_bytes(variants[-1], "x")[1]  # the entry is still named


def test_a_certificate_the_checker_rejects_is_not_written(tmp_path, monkeypatch, capsys):
    def reject(doc):
        raise Rejected("tampered in this test")

    monkeypatch.setattr(kernel, "check_document", reject)
    monkeypatch.setattr(checker_package, "check_document", reject)
    out = tmp_path / "cert.json"
    assert verify("--out", str(out), "--json") == ExitCode.REJECTED
    assert not out.exists() and list(tmp_path.iterdir()) == []  # no temporary file either
    captured = capsys.readouterr()
    assert "tampered in this test" in captured.err or "tampered in this test" in captured.out


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_certificate_written_to_dev_null_is_checked_and_not_an_error(checker_calls, capsys):
    # the bytes are checked before they go in; re-reading a device was an internal error (exit 8)
    assert verify("--out", os.devnull, "--json") == ExitCode.REFUTED
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert len(checker_calls["documents"]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert printed["certificate"] == "/dev/null" and printed["certificate_check"] == "checked: ACCEPTED"


def test_the_json_report_is_written_once(tmp_path, monkeypatch, capsys):
    from bnproof.render import report

    calls = []
    real = report._neuron_json

    def neuron_json(n, forms):
        calls.append(n.index)
        return real(n, forms)

    monkeypatch.setattr(report, "_neuron_json", neuron_json)
    assert verify("--out", str(tmp_path / "c.json"), "--json") == ExitCode.REFUTED
    assert calls == [0]  # was [0, 0]: for the result's fields, then for --json
    printed = json.loads(capsys.readouterr().out)
    assert printed["certificate_check"] == "checked: ACCEPTED" and printed["W_star"] == ["1", "3"]


def test_the_kept_json_cannot_be_changed_through_a_result():
    import bnproof

    result = bnproof.verify(crosscheck=False)
    first = result.to_json()
    first["neurons"][0]["W_star"][0] = "changed"
    first["neurons"][0]["hessian_C"][0][0] = "changed"
    second = result.to_json()
    assert second["neurons"][0]["W_star"][0] == "1" and second["W_star"][0] == "1"
    assert second["neurons"][0]["hessian_C"][0][0] != "changed"


def test_a_second_report_is_written_for_itself():
    # the memo is the last report's, by identity: while an earlier result is alive, another
    # instance, or the same one analysed again, is written from its own values
    import bnproof

    first = bnproof.verify(crosscheck=False)
    other = bnproof.verify(data={"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 14], "W0": [1, 3]},
                           crosscheck=False)
    again = bnproof.verify(crosscheck=False)
    assert other.W_star != first.W_star and again.W_star == first.W_star
    assert first.to_json() == again.to_json() and other.to_json()["W_star"] == list(other.W_star)
    assert first.to_json()["W_star"] != other.to_json()["W_star"]


def test_the_closed_forms_are_written_from_the_moments_not_the_batch():
    from bnproof.claims import lemma45
    from bnproof.exact.layer import Neuron
    from bnproof.instance import instance_from_json
    from bnproof.render.exact_text import MAX_TERMS_SHOWN, closed_forms_text

    rng = random.Random(5)
    for m, d, extra in [(40, 3, {}), (25, 4, {"gamma": "3/2", "beta": "-2/7", "loss": "mean"}),
                        (5, 2, {"beta": "1/2"})]:
        data = {"X": [[f"{rng.randint(-9, 9)}/{rng.randint(1, 4)}" for _ in range(d)] for _ in range(m)],
                "y": [rng.randint(-9, 9) for _ in range(m)], "W0": [1] * d, **extra}
        neuron = lemma45.analyse(instance_from_json(data)).neurons[0].neuron
        from_moments = closed_forms_text(neuron, MAX_TERMS_SHOWN)
        if m > MAX_TERMS_SHOWN:
            assert "X" not in vars(neuron) and "y" not in vars(neuron)  # the batch was never built
        # the same neuron from its batch: every contraction summed over the samples
        batch = Neuron(neuron.X, neuron.y, neuron.gamma, neuron.beta, neuron.scale)
        assert closed_forms_text(batch, MAX_TERMS_SHOWN) == from_moments


def _trial_division_sqrt(n: int, limit: int, is_prime):
    """The reduction as it was written before: trial division up to the bound.  It divides
    by the primes of its own sieve only (an odd composite never divides what its prime
    factors have left, so the result is the same as trying every odd number, at a fifth
    of the divisions), then asks about the rest as the odd-number loop did at its end."""
    root = math.isqrt(n)
    if root * root == n:
        return root, 1
    outside, inside, rest = 1, 1, n
    stopped = False  # ended as the odd-number loop did on p * p > rest
    for p in _primes_up_to(limit):
        if p * p > rest:
            stopped = True
            break
        if rest % p == 0:
            e = 0
            while rest % p == 0:
                rest //= p
                e += 1
            outside *= p ** (e // 2)
            inside *= p ** (e % 2)
    # the odd-number loop's next candidate past the bound: the first odd number above it
    # (rest < that square: rest is 1 or a prime, as the loop would have stopped earlier)
    after = limit + 1 if limit % 2 == 0 else limit + 2
    if not stopped and rest > 1 and after * after <= rest and not is_prime(rest):
        return None
    return outside, inside * rest


@functools.cache
def _primes_up_to(limit: int) -> list[int]:
    """Eratosthenes, the test's own (not exact_text's list)."""
    sieve = bytearray([1]) * (limit + 1)
    sieve[:2] = b"\0\0"
    for p in range(2, math.isqrt(limit) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytes(len(range(p * p, limit + 1, p)))
    return [p for p in range(limit + 1) if sieve[p]]


def test_square_roots_reduce_as_by_trial_division():
    from bnproof.render import exact_text as et

    primes = et._small_primes()[0]
    assert primes[:5] == [2, 3, 5, 7, 11] and primes[-1] == 32749 and len(primes) == 3512
    rng = random.Random(11)
    big = [32771, 32779, 1_000_003, 2**61 - 1]
    cases = list(range(1, 3000)) + [32749**2 * 3, 32749 * 32771, 32771**2, 32771**2 * 5, 2**3400 + 1,
                                    3**2000 * 7, 32749 * 32768, (2**61 - 1) * 32749**3]
    for _ in range(1500):
        n = 1
        for _ in range(rng.randint(0, 8)):
            n *= rng.choice(primes[:20] + primes[-40:]) ** rng.randint(1, 3)
        n *= rng.choice([1, rng.choice(big), rng.choice(big) ** 2, rng.choice(big) * rng.choice(big),
                         rng.getrandbits(rng.randint(1, 400)) | 1])
        cases.append(n)
    import flint

    for n in cases:
        want = _trial_division_sqrt(n, et.TRIAL_LIMIT, lambda r: bool(flint.fmpz(r).is_prime()))
        k, s = et._integer_sqrt(n)
        if want is None:  # a composite rest above the bound: now left under the root (or a square taken out)
            assert k * k * s == n and all(s % (p * p) for p in et._small_factors(s)), n
        else:
            assert (k, s) == want, n


def test_a_square_root_is_reduced_once(monkeypatch):
    # a d = 64 gradient has 64 entries over one radicand: one reduction, not 64
    from bnproof.render import exact_text as et

    calls = []
    real = et._small_factors
    monkeypatch.setattr(et, "_small_factors", lambda n: calls.append(n) or real(n))
    et._integer_sqrt.cache_clear()
    n = 32771 * 32779 * 7  # composite above the bound: left under the root
    for _ in range(3):
        assert et.sqrt_parts(Fraction(n, 4)) == (Fraction(1, 2), n)
    assert len(calls) == 1


def test_the_crosschecks_exact_floats_are_those_of_the_surds():
    # surd_floats: one rational √r for a whole matrix instead of a 60-digit mpmath number
    # per entry; the same floats to within one rounding, cancellations included
    from bnproof.claims import lemma45
    from bnproof.exact.surd import Surd
    from bnproof.instance import instance_from_json
    from bnproof.numeric.crosscheck import points_for, surd_floats

    import flint

    rng = random.Random(2)
    compared = 0
    for m, d in [(3, 2), (7, 3), (15, 4)]:
        data = {"X": [[f"{rng.randint(-9, 9)}/{rng.randint(1, 3)}" for _ in range(d)] for _ in range(m)],
                "y": [rng.randint(-5, 5) for _ in range(m)], "W0": [1] * d, "gamma": "3/2", "beta": "1/3"}
        report = lemma45.analyse(instance_from_json(data))
        for point in points_for(report):
            neuron, w = report.neurons[0].neuron, point.rows[0]
            for value in (neuron.bn_grad(w), neuron.bn_hessian(w)):
                for got, want in zip(surd_floats(value), value.to_floats()):
                    assert abs(got - want) <= math.ulp(want), (got, want)
                    compared += 1
    # a + b√r cancelling to 1e-30 of its terms, and r below 1
    r = flint.fmpq(2, 10**40 + 7)
    a = flint.fmpq_mat([[flint.fmpq(-1414213562373095048801688724, 10**47)], [flint.fmpq(3, 7)]])
    b = flint.fmpq_mat([[flint.fmpq(1)], [flint.fmpq(0)]])
    value = Surd(a, b, r)
    for got, want in zip(surd_floats(value), value.to_floats()):
        assert abs(got - want) <= math.ulp(want), (got, want)
    assert compared > 100


@pytest.fixture(scope="module")
def sigma_zero():
    """bnproof.verify with the JAX cross-check at a W0 where sigma is 0, and the neurons
    whose batch the cross-check converted, one entry per conversion: one verification
    (one compilation of its shapes) for the two tests that read it."""
    import bnproof
    from bnproof.numeric import crosscheck

    calls = []
    real = crosscheck._batch
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(crosscheck, "_batch", lambda neuron: calls.append(neuron) or real(neuron))
        result = bnproof.verify(data={"X": [[1, 5], [1, 6], [1, 7], [1, 9]], "y": [1, 2, 2, 5], "W0": [1, 0]})
    return result, calls


def test_the_crosscheck_reads_each_neurons_batch_once(sigma_zero):
    # X and y in floats are the same at every point: converted once per neuron, not per point
    result, calls = sigma_zero  # with the JAX cross-check, at every point it compares
    assert result.crosscheck is not None and result.crosscheck["ok"] is True
    assert len(result.crosscheck["points"]) > 1 and len(calls) == 1


def test_the_crosschecks_exact_hessian_is_the_contracted_one_exactly():
    # the cross-check reads ∇²Ĉ from its factored form in integers (crosscheck.hessian_parts);
    # it must be Fact C.1's contracted Hessian, entry for entry, exactly
    from bnproof.claims import lemma45
    from bnproof.instance import instance_from_json
    from bnproof.numeric.crosscheck import bn_hessian_floats, hessian_parts, points_for

    rng = random.Random(4)
    exact = approximate = 0
    for m, d, extra in [(3, 1, {}), (5, 2, {"gamma": "-2", "beta": "1/3"}), (9, 3, {"loss": "mean"}),
                        (20, 4, {"gamma": "3/2"}), (12, 5, {"beta": "-5/4"}), (4, 2, {"W0": [[1, 2], [3, -1]],
                                                                                  "Y": [[1, 0], [2, 1], [0, 5], [3, 3]]})]:
        data = {"X": [[f"{rng.randint(-9, 9)}/{rng.randint(1, 3)}" for _ in range(d)] for _ in range(m)],
                "y": [rng.randint(-5, 5) for _ in range(m)], "W0": [rng.randint(1, 3) for _ in range(d)], **extra}
        if "Y" in data:  # two neurons
            del data["y"]
        report = lemma45.analyse(instance_from_json(data))
        for point in points_for(report):
            for n, w in zip([x.neuron for x in report.neurons], point.rows):
                dense = n.bn_hessian(w)
                a, b, den, rp, rq = hessian_parts(n.bn_hessian_form(w))
                assert len(a) == len(b) == d * d
                if Fraction(int(dense.r.p), int(dense.r.q)) == Fraction(rp, rq):
                    assert [Fraction(x, den) for x in a] == [Fraction(int(x.p), int(x.q)) for x in dense.a.entries()]
                    assert [Fraction(x, den) for x in b] == [Fraction(int(x.p), int(x.q)) for x in dense.b.entries()]
                    exact += 1
                for got, want in zip(bn_hessian_floats(n, w), dense.to_floats()):
                    assert abs(got - want) <= math.ulp(want), (got, want)
                approximate += 1
    assert exact >= 10 and approximate >= exact


def test_the_crosscheck_takes_its_floats_from_the_instance_not_a_rational_batch():
    # the floats of X and y, the nearest to each exact entry, from the instance's own ints and
    # Fractions: the m×d rational matrix is never built for them (nor, above 12 samples, at all)
    import bnproof
    from bnproof.claims import lemma45
    from bnproof.exact.linalg import rows_of, to_fraction
    from bnproof.instance import instance_from_json
    from bnproof.numeric.crosscheck import batch_floats

    rng = random.Random(9)
    data = {"X": [[f"{rng.randint(-10**30, 10**30)}/{rng.randint(1, 10**20)}" for _ in range(3)] for _ in range(6)],
            "y": ["0.1", "1e-300", "3/7", "-2", "12345678901234567890123", "5"], "W0": [1, 2, 3]}
    neuron = lemma45.analyse(instance_from_json(data)).neurons[0].neuron
    fast = batch_floats(neuron)
    assert fast == ([[float(to_fraction(x)) for x in row] for row in rows_of(neuron.X)],
                    [float(to_fraction(v)) for v in neuron.y.entries()])
    assert batch_floats(neuron) == fast  # and from the rational matrix, once it exists

    big = {"X": [[rng.randint(-5, 5) for _ in range(3)] for _ in range(30)],
           "y": [rng.randint(-5, 5) for _ in range(30)], "W0": [1, 1, 1]}
    result = bnproof.verify(data=big)
    assert result.crosscheck["ok"] is True
    assert all("X" not in vars(n.neuron) for n in result.report.neurons)


def test_a_w0_where_sigma_is_zero_is_still_left_out_of_the_crosscheck(sigma_zero):
    # points_for decides σ(W0) = 0 from the moments now (it built ŷ from X before)
    result, _ = sigma_zero
    assert result.crosscheck["ok"] is True and result.crosscheck["points"] == ["W*", "b"]
