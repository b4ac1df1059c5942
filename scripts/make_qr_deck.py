"""Make a printable sheet of QR labels, one per card (payload ``31DA:<code>``, see docs/vision.md).

    uv run python scripts/make_qr_deck.py labels.pdf [--cards "QS 10H ..."] [--label-mm 24]
    uv run python scripts/make_qr_deck.py labels.png [--module-px 8]

A PDF is drawn as vector squares on A4 pages (cut along the grey lines); a PNG is one image.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fpdf import FPDF

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealer_assist.cards import FULL_DECK, Card, parse_cards
from dealer_assist.vision.labels import label_sheet, qr_matrix, write_image

PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 10.0  # A4, millimetres


def write_pdf(cards: list[Card], path: Path, label_mm: float = 24.0) -> int:
    """Write the labels to a PDF; return the number of pages."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", "B", 10)
    cell_w, cell_h = label_mm + 4, label_mm + 10
    cols = int((PAGE_W - 2 * MARGIN) // cell_w)
    rows = int((PAGE_H - 2 * MARGIN) // cell_h)
    for i, card in enumerate(cards):
        slot = i % (cols * rows)
        if slot == 0:
            pdf.add_page()
        r, c = divmod(slot, cols)
        x, y = MARGIN + c * cell_w, MARGIN + r * cell_h
        pdf.set_draw_color(190, 190, 190)
        pdf.rect(x, y, cell_w, cell_h)
        modules = qr_matrix(card)
        m = label_mm / modules.shape[0]
        pdf.set_fill_color(0, 0, 0)
        for yy, row in enumerate(modules):
            for xx, dark in enumerate(row):
                if dark:
                    pdf.rect(x + 2 + xx * m, y + 1 + yy * m, m, m, style="F")
        pdf.set_xy(x, y + 1 + label_mm)
        pdf.cell(cell_w, 7, card.code, align="C")
    pdf.output(str(path))
    return pdf.page_no()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a .pdf or .png file")
    parser.add_argument("--cards", help="card codes (default: a full deck)")
    parser.add_argument("--label-mm", type=float, default=24.0, help="QR size in a PDF")
    parser.add_argument("--module-px", type=int, default=8, help="pixels per QR module in a PNG")
    args = parser.parse_args(argv)
    cards = list(parse_cards(args.cards)) if args.cards else list(FULL_DECK)
    suffix = args.out.suffix.lower()
    if suffix == ".pdf":
        pages = write_pdf(cards, args.out, args.label_mm)
        print(f"{args.out}: {len(cards)} labels on {pages} page(s)")
    elif suffix == ".png":
        write_image(args.out, label_sheet(cards, module_px=args.module_px))
        print(f"{args.out}: {len(cards)} labels")
    else:
        parser.error("the output must end in .pdf or .png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
