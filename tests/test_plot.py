"""`bnproof plot lemma-4.5`: the figure is written, is a valid PNG or PDF, says what it
shows, and bad options are one-line errors that write nothing."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bnproof.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]
FIVE_INPUTS = {"X": [[1, 2, 0, 1, 3], [2, 1, 1, 0, 1], [0, 1, 3, 1, 2], [1, 1, 1, 2, 0],
                     [3, 0, 1, 1, 1], [1, 2, 2, 1, 1], [2, 2, 1, 3, 1]],
               "y": ["1/3", "2/7", 3, 4, 5, 6, 8], "W0": [1, "1/2", 1, 1, "22/7"]}


def bnproof(*args):
    """A real `python -m bnproof` process: for the exit codes and one-line errors."""
    return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True,
                          text=True, cwd=ROOT)


def plot_here(capsys, *args) -> tuple[int, str]:
    """`bnproof plot ARGS` in this process (exit code, stderr): drawing a figure is what
    is tested, not starting an interpreter, which would cost more than the drawing.
    Real processes still run every error case below."""
    from bnproof.cli import main

    try:
        main(["plot", *map(str, args)])
        code = 0
    except SystemExit as done:
        code = 0 if done.code is None else done.code
    return code, capsys.readouterr().err


def pdf_text(path: Path) -> str:
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is not installed: .ci/run installs poppler-utils"
    return subprocess.run([tool, str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_png_of_example_3_2(tmp_path, capsys):
    import matplotlib.image

    out = tmp_path / "fig.png"
    code, err = plot_here(capsys, "lemma-4.5", "-o", out)
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = matplotlib.image.imread(str(out))
    height, width = pixels.shape[:2]
    assert width > 1000 and 500 < height < width  # two panels side by side
    assert len({tuple(p) for p in pixels[::7, ::7].reshape(-1, pixels.shape[2])}) > 200
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]  # no temporary file left


def test_pdf_names_the_points_and_the_verdict(tmp_path, capsys):
    out = tmp_path / "fig.pdf"
    code, err = plot_here(capsys, "lemma-4.5", "-o", out)
    assert code == 0, err
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    text = pdf_text(out)
    assert "REFUTED" in text and "standard network" in text and "BN network" in text


def test_more_than_two_inputs_is_a_slice_and_says_so(tmp_path, capsys):
    data = tmp_path / "five.json"
    data.write_text(json.dumps(FIVE_INPUTS))
    out = tmp_path / "fig.pdf"
    code, err = plot_here(capsys, "lemma-4.5", "--data", data, "-o", out)
    assert code == 0, err
    assert "2-D slice" in pdf_text(out)


def one_line_error(proc, code, fragment):
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr


@pytest.mark.parametrize("args, fragment", [
    (["plot", "lemma-4.5", "-o", "OUT.jpg"], "FILE.png or FILE.pdf"),
    (["plot", "theorem-4.1", "-o", "OUT.png"], "draws lemma-4.5 only"),
    (["plot", "lemma-9.9", "-o", "OUT.png"], "unknown claim"),
    (["plot", "lemma-4.5", "--neuron", "2", "-o", "OUT.png"], "1 neuron"),
    (["plot", "lemma-4.5", "--data", "MISSING.json", "-o", "OUT.png"], "cannot read"),
])
def test_bad_options_are_one_line_errors(tmp_path, args, fragment):
    args = [a.replace("OUT", str(tmp_path / "fig")).replace("MISSING", str(tmp_path / "none"))
            for a in args]
    one_line_error(bnproof(*args), ExitCode.BAD_INPUT, fragment)
    assert list(tmp_path.iterdir()) == []


def test_a_degenerate_instance_writes_nothing(tmp_path):
    data = tmp_path / "flat.json"
    data.write_text(json.dumps({"X": [[1, 1], [1, 1]], "y": [1, 2], "W0": [1, 1]}))
    proc = bnproof("plot", "lemma-4.5", "--data", str(data), "-o", str(tmp_path / "fig.png"))
    one_line_error(proc, ExitCode.DEGENERATE, "σ = 0")
    assert not (tmp_path / "fig.png").exists()


def test_the_output_option_is_required():
    proc = bnproof("plot", "lemma-4.5")
    assert proc.returncode == ExitCode.USAGE and "Traceback" not in proc.stderr


# -- figures fit for a paper -----------------------------------------------------------

def example_report():
    from bnproof._api.verify import instance_of
    from bnproof.claims import lemma45

    return lemma45.analyse(instance_of(None, certifiable=False))  # Example 3.2: W0 = W*


def test_the_colourbars_are_labelled():
    from bnproof.render.plot import figure

    fig = figure(example_report())
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert [ax.get_ylabel() for ax in bars] == [r"loss $\mathcal{C}(w)$",
                                                r"BN loss $\widehat{\mathcal{C}}(w)$"]


def test_w0_is_visible_where_it_coincides_with_w_star():
    from bnproof.render.plot import figure

    fig = figure(example_report())
    for ax in fig.axes[:2]:
        marks = {line.get_gid(): line for line in ax.lines if line.get_gid()}
        w0, star = marks["W0"], marks["W*"]
        assert tuple(w0.get_xydata()[0]) == tuple(star.get_xydata()[0]) == (1.0, 3.0)
        # a ring wider than the star, drawn above it
        assert w0.get_markersize() > star.get_markersize() and w0.get_zorder() > star.get_zorder()
        assert w0.get_markerfacecolor() == "none"
    assert any("= W^*" in text.get_text() for text in fig.legends[0].get_texts())


def test_minus_signs_are_typographic_whatever_the_rc_says(tmp_path):
    import matplotlib

    from bnproof.render.plot import figure_bytes

    with matplotlib.rc_context({"axes.unicode_minus": False}):
        pdf = figure_bytes(example_report(), "pdf")
    path = tmp_path / "fig.pdf"
    path.write_bytes(pdf)
    lines = pdf_text(path).splitlines()
    assert "\u22121" in lines  # the tick label −1 of both w axes
    assert not [line for line in lines if line.startswith("-")]


# -- the study figure --------------------------------------------------------------------

def study_cells():
    from bnproof.numeric.study import Cell

    return [Cell(m=4, d=2, trials=1000, hypothesis_met=500, fails=100),
            Cell(m=16, d=2, trials=1000, hypothesis_met=400, fails=40),
            Cell(m=64, d=2, trials=1000, degenerate="σ = 0 in every instance"),
            Cell(m=16, d=8, trials=1000, hypothesis_met=0),  # nothing met the hypothesis
            Cell(m=64, d=8, trials=1000, hypothesis_met=300, fails=3)]  # m = 4 < d: not run


def test_the_study_png_has_150_dpi_or_more():
    import io

    from PIL import Image

    from bnproof.numeric.study_plot import figure_bytes

    dpi = Image.open(io.BytesIO(figure_bytes(study_cells(), "png", seed=7))).info["dpi"]
    assert min(dpi) >= 149.9


def test_the_study_axis_for_m_is_categorical_and_missing_cells_are_marked():
    from bnproof.numeric.study_plot import figure

    fig = figure(study_cells(), seed=7)
    ax = fig.axes[0]
    fig.canvas.draw()
    assert ax.get_xscale() == "linear"
    assert list(ax.get_xticks()) == [0, 1, 2]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "16", "64"]
    marks = {line.get_gid(): line for line in ax.lines if line.get_gid()}
    # d = 2: m = 64 is degenerate; d = 8: m = 4 not run, m = 16 without an instance inside
    assert [round(x) for x in marks["missing d=2"].get_xdata()] == [2]
    assert [round(x) for x in marks["missing d=8"].get_xdata()] == [0, 1]
    assert all(line.get_marker() == "x" for line in marks.values())


def test_the_study_caption_gives_the_trials_and_the_seed():
    from bnproof.numeric.study_plot import figure

    texts = [t.get_text() for t in figure(study_cells(), seed=7).texts]
    assert any("1,000 trials per cell" in t and "seed 7" in t for t in texts), texts
