"""``dealer-assist vision ...``: read cards in images or a stream, adapt to a deck, list decks.

The main CLI adds a ``vision`` subparser, calls :func:`add_arguments` on it and :func:`run` with
the parsed arguments::

    dealer-assist vision read IMAGE... [--deck NAME] [--json]
    dealer-assist vision watch SOURCE [--seats N] [--deck NAME]   # camera index, video, folder
                                      # (cards on stdout; camera advice on stderr)
    dealer-assist vision adapt DIR --deck NAME       # (old name: calibrate)
    dealer-assist vision decks

Exit status: 0 done, 1 refused (no card index found in the photos), 2 unreadable input (a
missing folder or image, a corrupt or foreign deck file), 3 internal error (``cli.run_command``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dealer_assist.errors import EXIT_REFUSED, EXIT_UNREADABLE, InputError, RuleError, StorageError
from dealer_assist.vision.calibration import calibrate, deck_dir, list_decks, load_deck
from dealer_assist.vision.image_guard import check_image
from dealer_assist.vision.live import LiveReader
from dealer_assist.vision.recognizer import Recognizer
from dealer_assist.vision.sources import open_source, read_image
from dealer_assist.vision.zones import ZoneMap


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the vision sub-commands to ``parser``."""
    sub = parser.add_subparsers(dest="vision_command", required=True)
    read = sub.add_parser("read", help="read the cards in images")
    read.add_argument("images", nargs="+", type=Path)
    read.add_argument("--deck", help="an adapted deck to read with")
    read.add_argument("--json", action="store_true", help="one JSON object per image")
    watch = sub.add_parser("watch", help="print each card once it reads the same in most frames")
    watch.add_argument("source", help="camera index (0), video file or image folder")
    watch.add_argument("--seats", type=int, help="split the table into this many seat zones")
    watch.add_argument("--deck", help="an adapted deck to read with")
    cal = sub.add_parser("adapt", aliases=["calibrate"],
                         help="adapt to your deck from a few labelled photos of it")
    cal.add_argument("dir", type=Path, help="labels.csv (file,cards: the cards in each photo) "
                     "or images named like QS.jpg")
    cal.add_argument("--deck", required=True, help="name to save the deck under")
    sub.add_parser("decks", help="list adapted decks")


def run(args: argparse.Namespace) -> int:
    """Run the chosen vision sub-command; return the exit status."""
    try:
        if args.vision_command == "read":
            return _read(args)
        if args.vision_command == "watch":
            return _watch(args)
        if args.vision_command in ("adapt", "calibrate"):
            _, report = calibrate(args.dir, args.deck)
            print(f"deck {args.deck!r} saved in {deck_dir(args.deck)}: {report['samples']} index "
                  f"crops of {len(report['cards'])} cards from {report['images']} photos"
                  + (f", {report['glyph_samples']} glyph samples" if report["glyph_samples"]
                     else ""))
            if report["skipped"]:
                print(f"could not read: {', '.join(report['skipped'])}")
            return 0
        if args.vision_command == "decks":
            for name in list_decks():
                print(name)
            return 0
    except RuleError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except StorageError as exc:
        print(f"{exc.title}: {exc}", file=sys.stderr)
        return exc.exit_status
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    raise ValueError(f"unknown vision command {args.vision_command!r}")


def _read(args: argparse.Namespace) -> int:
    recognizer = load_deck(args.deck).recognizer() if args.deck else Recognizer()
    status = 0
    for path in args.images:
        try:
            check_image(path)  # pixel budget and shape from the header, before decoding
            frame = read_image(path)
        except (InputError, FileNotFoundError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
            continue
        proposals = recognizer.read(frame)
        if args.json:
            print(json.dumps({"image": str(path), "cards": [
                {"card": p.code, "confidence": p.confidence, "source": p.source,
                 "centre": [round(v, 1) for v in p.centre]} for p in proposals]}))
        else:
            found = " ".join(p.label for p in proposals) or "no card found"
            print(f"{path}: {found}")
    return status


def _watch(args: argparse.Namespace) -> int:
    """Print one JSON line per card as soon as the votes settle it (Ctrl-C to stop a camera);
    the camera advice (advice.py) goes to stderr when it comes and when it clears."""
    recognizer = load_deck(args.deck).recognizer() if args.deck else Recognizer()
    zones = ZoneMap.strips(args.seats, top=0.3) if args.seats else None
    reader = LiveReader(open_source(args.source), recognizer, zones)
    frames = 0
    advice: str | None = None
    try:
        while (update := reader.step()) is not None:
            frames += 1
            if update.advice != advice:
                advice = update.advice
                print(f"frame {frames}: {advice or 'the cards are large enough now'}",
                      file=sys.stderr, flush=True)
            if update.pending is not None:
                print(json.dumps({"frame": frames, "card": update.pending.code, "seat": update.seat,
                                  "confidence": update.pending.confidence,
                                  "source": update.pending.source}), flush=True)
                reader.mark_handled(update.pending)
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point: ``python -m dealer_assist.vision.cli read IMAGE``."""
    parser = argparse.ArgumentParser(prog="dealer-assist vision")
    add_arguments(parser)
    args = parser.parse_args(argv)
    from dealer_assist.cli import run_command  # one line and an exit status, never a traceback

    return run_command(sys.modules[__name__], args)


if __name__ == "__main__":
    raise SystemExit(main())
