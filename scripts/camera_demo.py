"""Open the camera panel on a camera, a video file or a folder of images (manual testing).

    uv run python scripts/camera_demo.py 0                  # camera 0
    uv run python scripts/camera_demo.py clip.mp4 --seats 5 --auto 0.9 --deck home

Confirmed cards are printed as the deal events the session will log.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

from dealer_assist.gui.camera_panel import CameraPanel
from dealer_assist.vision.calibration import load_deck
from dealer_assist.vision.live import LiveReader, LiveSettings
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import open_source
from dealer_assist.vision.zones import ZoneMap


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="camera index, video file, image folder or image")
    parser.add_argument("--seats", type=int, default=5, help="seat zones: strips, seat 1 left")
    parser.add_argument("--auto", type=float, metavar="THRESHOLD",
                        help="auto-accept cards at or above this confidence")
    parser.add_argument("--deck", help="a calibrated deck")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = LiveSettings(auto_accept=args.auto is not None,
                            auto_accept_threshold=args.auto if args.auto is not None else 0.9)
    recognizer = load_deck(args.deck).recognizer() if args.deck else Recognizer()
    reader = LiveReader(open_source(args.source, loop=True), recognizer,
                        ZoneMap.strips(args.seats, top=0.3), settings)
    panel = CameraPanel(reader, seats=args.seats)
    panel.card_confirmed.connect(
        lambda seat, code: print(json.dumps({"type": "deal", "seat": seat, "card": code}),
                                 flush=True))
    panel.setWindowTitle("31 dealer assist - camera")
    screen = app.primaryScreen().availableGeometry()  # a small tablet: fit its screen
    panel.resize(min(1200, screen.width()), min(700, screen.height()))
    panel.show()
    panel.start()
    try:
        return app.exec()
    finally:
        reader.close()


if __name__ == "__main__":
    raise SystemExit(main())
