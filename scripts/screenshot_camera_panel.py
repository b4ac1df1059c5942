"""Save a screenshot of the camera panel on a rendered table: docs/screenshots/camera_panel.png.

    QT_QPA_PLATFORM=offscreen uv run python scripts/screenshot_camera_panel.py [OUT.png]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from dealer_assist.cards import parse_cards  # noqa: E402
from dealer_assist.gui.camera_panel import CameraPanel  # noqa: E402
from dealer_assist.vision import synth  # noqa: E402
from dealer_assist.vision.live import LiveReader  # noqa: E402
from dealer_assist.vision.zones import ZoneMap  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots" / "camera_panel.png"
    app = QApplication.instance() or QApplication([])
    cards = parse_cards("QS 10H 7C")
    quads = [synth.card_quad((230, 640), 330, -6), synth.card_quad((650, 650), 330, 9),
             synth.card_quad((1060, 630), 330, 2)]
    reader = LiveReader(zones=ZoneMap.strips(3, top=0.35))
    panel = CameraPanel(reader, seats=6)
    panel.resize(1100, 620)
    panel.show()
    update = None
    for seed in range(4):
        update = reader.process(synth.scene(cards, quads, seed=seed, noise=3, light=0.2))
    assert update is not None
    panel.show_update(update)
    app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    panel.grab().save(str(out))
    print(f"{out}: proposed {panel.pending_code} for seat {panel.seat_box.value()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
