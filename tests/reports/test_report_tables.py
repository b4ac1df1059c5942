"""Several table logs in one report, and the printable PDF."""

from __future__ import annotations

import subprocess

import pytest
from PIL import Image
from report_sessions import greek_session, second_session

from dealer_assist.cli import main
from dealer_assist.reports.chart import PALETTE, chart_data, nice_ticks
from dealer_assist.reports.pdf import write_pdf
from dealer_assist.reports.reconcile import reconcile
from dealer_assist.reports.text import to_text


@pytest.fixture
def logs(tmp_path):
    return [greek_session(tmp_path / "table1.db"), second_session(tmp_path / "table2.db")]


def test_two_tables_one_plan(logs):
    rec = reconcile(logs)
    assert [t.seats[-1].result for t in rec.tables] == [11, 5]
    assert [(s.name, s.result) for s in rec.tables[1].seats] == [("Dee", -5), ("ann", 5)]
    # Ann -27 at table 1 and +5 at table 2 (as "ann")
    assert rec.nets == {"Ann": -22, "Bea": 16, "Cy": 11, "Dee": -5}
    assert [(t.payer, t.payee, t.amount) for t in rec.plan.transfers] == [
        ("Ann", "Bea", 16), ("Ann", "Cy", 6), ("Dee", "Cy", 5)]
    text = to_text(rec)
    assert "== All tables ==" in text and "Results: Ann -22, Bea +16, Cy +11, Dee -5" in text


def test_a_broken_table_is_left_out_of_the_plan(logs, tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_text("nonsense")
    rec = reconcile([*logs, bad])
    assert rec.tables[2].error and "bad.db" in rec.plan_note
    assert rec.nets == {"Ann": -22, "Bea": 16, "Cy": 11, "Dee": -5}


def test_chart_scale():
    assert nice_ticks(0, 50) == (0, 10, 20, 30, 40, 50)
    assert nice_ticks(-27, 46) == (-40, -20, 0, 20, 40, 60)


def count_colour(image: Image.Image, rgb: tuple[int, int, int], box) -> int:
    data = image.convert("RGB").crop(box).tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for p in pixels if all(abs(a - b) < 40 for a, b in zip(p, rgb, strict=True)))


def test_pdf_opens_and_has_the_chart(logs, tmp_path):
    pdf = tmp_path / "report.pdf"
    assert main(["report", *map(str, logs), "--format", "pdf", "--out", str(pdf)]) == 1
    assert pdf.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    for words in ("Session report", "Bankroll over rounds", "Who pays whom", "Ann pays Bea 16",
                  "not a debt between those two people", "Signatures", "All tables"):
        assert words in text
    done = subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf),
                           str(tmp_path / "page")], check=False)
    assert done.returncode == 0
    image = Image.open(tmp_path / "page-1.png")
    width, height = image.size
    chart_band = (0, int(height * 0.2), width, int(height * 0.6))
    colours = [s.color for s in chart_data(reconcile(logs).tables[0]).series]
    assert colours == list(PALETTE[:3])
    for rgb in colours:  # each seat's line is drawn in the chart band of page 1
        assert count_colour(image, rgb, chart_band) > 40
    assert count_colour(image, PALETTE[0], (0, int(height * 0.7), width, height)) == 0


def test_pdf_of_a_log_with_no_rounds(tmp_path):
    from report_sessions import write_session
    path = write_session(tmp_path / "empty.db", "greek31", {}, [{"name": "A", "money": 5},
                                                               {"name": "B", "money": 5}], 1, [])
    out = write_pdf(reconcile([path]), tmp_path / "e.pdf")
    assert subprocess.run(["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "1", str(out),
                           str(tmp_path / "e")], check=False).returncode == 0
