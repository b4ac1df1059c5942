"""Frame in, proposals out: whole cards (a QR label on a card beats its face), then the corner
indices of overlapping cards, and QR labels anywhere when no card outline is found."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from dealer_assist.vision.adapt import AdaptedIndexReader, DeckAdaptation
from dealer_assist.vision.barcode import label_on_card, labels_anywhere
from dealer_assist.vision.detect import Outlines, find_cards, warp_card
from dealer_assist.vision.explained import in_corner
from dealer_assist.vision.exposure import exposed
from dealer_assist.vision.fan import find_loose_indices
from dealer_assist.vision.indices import IndexRead, IndexReader
from dealer_assist.vision.model import GlyphModel, model_path
from dealer_assist.vision.proposal import CARD_DIAGONALS, Proposal
from dealer_assist.vision.reader import NUMBER_RANKS, face_picture, find_pips, read_card

MIN_SIDE = 16  # a frame narrower than this cannot show a readable corner index


@dataclass(frozen=True)
class Models:
    """The rank and suit glyph models a recogniser uses; ``calibrated``: from a user's deck."""

    ranks: GlyphModel
    suits: GlyphModel
    calibrated: bool = False

    @classmethod
    def shipped(cls) -> Models:
        return cls(GlyphModel.load(model_path("ranks")), GlyphModel.load(model_path("suits")))


class Recognizer:
    """Reads cards in frames: corner indices with the shipped index network, whole cards with
    the glyph models (shipped, or a calibrated deck's), QR labels first."""

    def __init__(self, models: Models | None = None, barcodes: bool = True,
                 fans: bool = True, index: bool | None = None, proposals: str = "both",
                 always_whole_card: bool = False,
                 adaptation: DeckAdaptation | None = None,
                 index_reader: IndexReader | None = None) -> None:
        """``index``: use the index network; by default yes, except with a calibrated deck (the
        network knows French indices only: it reads a German ``B`` as an 8). ``proposals``: where
        the index crops come from (see :class:`IndexReader`). ``always_whole_card``: run the
        whole-card reader on every outline, even one whose corner indices already agree on a
        card (slower; by default it runs only where the indices do not settle the card).
        ``adaptation``: the prototypes of the user's deck (``adapt.py``) the index network's
        embeddings are compared with. ``index_reader``: the index reader to use instead of the
        shipped one (a benchmark of other models or thresholds; ``proposals`` is then its own)."""
        self.models = models or Models.shipped()
        self.barcodes = barcodes
        self.fans = fans
        if index is None:  # a deck's glyphs without its adaptation: the old calibrated reading
            index = adaptation is not None or not self.models.calibrated
        self.index: IndexReader | None = None
        if index_reader is not None:
            self.index = index_reader
        elif index:
            self.index = (IndexReader(proposals=proposals) if adaptation is None
                          else AdaptedIndexReader(adaptation, proposals=proposals))
        self.always_whole_card = always_whole_card or self.index is None

    def read(self, frame: np.ndarray) -> list[Proposal]:
        """Every card found in ``frame`` (BGR); unknown cards have ``card=None``.

        Any frame size is accepted; one with a side under MIN_SIDE pixels holds no readable card.
        """
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        if frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < MIN_SIDE:
            return []
        frame = exposed(frame)
        outlines = find_cards(frame)
        quads = outlines.quads
        reads = ([] if self.index is None else
                 self.index.read(frame, outlines.small, outlines.mask, quads))
        proposals: list[Proposal] = []
        pip_ranks: dict[int, str] = {}  # unknown whole cards: the rank their pips count, or
        # PICTURE: one coloured blob in the middle, a court card's picture
        for quad in quads:
            face = warp_card(frame, quad)  # once, for the label search and the pip check
            label = label_on_card(face) if self.barcodes else None
            if label is not None:  # a barcode label beats reading the card's face
                proposals.append(Proposal(label, 1.0, quad, "barcode"))
                continue
            if not self.always_whole_card and _one_card_inside(reads, quad):
                # its indices settle the card: the whole-card reader is not needed, but a pip
                # count that says another number still makes it unknown (_with_indices)
                proposals.append(Proposal(None, 0.0, quad, "visual"))
                card = None
            else:
                card, conf = read_card(frame, quad, self.models.ranks, self.models.suits, face)
                proposals.append(Proposal(card, conf, quad, "visual"))
            if card is None and self.index is not None:
                pips = find_pips(face)
                if pips is not None:
                    pip_ranks[id(proposals[-1])] = _pip_rank(pips, face)
        if self.barcodes and not quads:
            proposals.extend(_scaled_barcodes(outlines))
        if self.index is not None:
            return _with_indices(proposals, reads, pip_ranks)
        if self.fans:
            # overlapping cards: their outline is no card's (or a blob read as unknown)
            taken = [p.quad for p in proposals if p.card is not None]
            loose = find_loose_indices(frame, self.models.ranks, self.models.suits, taken,
                                       outlines)
            for blob in [p for p in proposals if p.card is None]:
                inside = [f for f in loose if _inside(f.centre, blob.quad)]
                if len({f.code for f in inside}) >= 2:
                    proposals.remove(blob)  # several overlapping cards, not one unreadable card
                else:
                    loose = [f for f in loose if f not in inside]  # the whole-card check stands
            proposals.extend(loose)
        return proposals


def _with_indices(cards: list[Proposal], reads: list[IndexRead],
                  pip_ranks: dict[int, str] | None = None) -> list[Proposal]:
    """Whole-card proposals checked against the corner indices read inside them, plus a
    proposal per card read only from its indices (a fan, a pile, an outline not found).

    A label or whole-card reading and the indices inside it must agree, else the card is unknown;
    an unknown outline holding indices of one card becomes that card (unless its pips count
    another number), of several cards (an overlapping group seen as one blob) gives way to them.
    A whole-card reading with indices of two or more other cards inside is such a group too.
    """
    pip_ranks = pip_ranks or {}
    out: list[Proposal] = []
    loose = list(reads)
    for p in [_unread_if_several(p, reads) for p in cards]:
        inside = [r for r in loose if _inside(r.candidate.centre, p.quad)]
        codes = {r.card.code for r in inside}
        if p.source == "barcode":
            loose = [r for r in loose if r not in inside]  # a label beats the printed face
            out.append(p)
        elif p.card is None and len(codes) >= 2:
            continue  # several cards under one outline: their indices speak for them
        elif p.card is None and len(codes) == 1:
            loose = [r for r in loose if r not in inside]
            pips = pip_ranks.get(id(p))
            card = inside[0].card
            at_corner = bool(in_corner(np.array([r.candidate.centre for r in inside]),
                                       p.quad).any())
            # an outline whose corners hold none of the indices is not that card's (a pale
            # stretch of table, a pile): the card is where its surest index is
            place = p.quad if at_corner else max(inside, key=lambda r: r.prob).candidate.quad
            if pips == PICTURE and card.rank in NUMBER_RANKS and at_corner:
                out.append(p)  # a court picture on a card whose index names a number: unknown
                continue
            if card.rank in NUMBER_RANKS and pips in NUMBER_RANKS and pips != card.rank:
                # the pips count another number: weak evidence (overlapping cards hide or add
                # pips, and an outline around a pile holds other cards' pips), so the index
                # stands, but never sure enough to be taken without the dealer
                conf = round(_index_confidence(inside) * PIPS_DISAGREE, 3)
            else:  # pips that count the same number are a second cue, in the index's card
                conf = min(1.0, _index_confidence(inside)
                           + (0.05 if pips == card.rank and at_corner else 0))
            out.append(Proposal(card, conf, place, "visual", step=_step(inside)))
        elif p.card is not None and codes - {p.card.code} and not _face_has_strongest(p, inside):
            loose = [r for r in loose if r not in inside]
            # face and indices disagree
            out.append(Proposal(None, 0.2, p.quad, "visual", step=_step(inside)))
        else:  # (weaker readings of other cards inside it: misreads of its picture or pips)
            loose = [r for r in loose if r not in inside]
            inside = [r for r in inside if r.card == p.card]
            conf = p.confidence if not inside else max(p.confidence, _index_confidence(inside))
            out.append(Proposal(p.card, conf if not inside else min(1.0, conf + 0.05), p.quad,
                                p.source, step=_step(inside)))
    # the two indices of one card count once: with each other, or with a card proposed already
    taken = [r for p in out if p.card is not None for r in reads
             if r.card == p.card and _inside(r.candidate.centre, p.quad)]
    groups: list[list[IndexRead]] = []
    for r in sorted(loose, key=lambda r: -r.prob):
        if any(_two_corners(t, r) for t in taken):
            continue
        for g in groups:
            if _two_corners(g[0], r):
                g.append(r)
                break
        else:
            groups.append([r])
    for g in groups:
        out.append(Proposal(g[0].card, _index_confidence(g), g[0].candidate.quad, "visual",
                            step=_step(g)))
    return out


# An outline is one card, with its own two corner indices. Readings of SEVERAL_OTHERS or more
# other cards inside one whose whole card was read make it several overlapping cards found as one
# outline (a fan): the whole-card reading is dropped and their indices speak for them, as for an
# outline with no reading. One other card stays a misread of its picture or pips. Issue 16,
# thirty-fifth step, rule CA (docs/vision-results.md): on the training designs (three seeds, 1 120
# scenes) 3 454 cards against 3 449, none more wrong.
SEVERAL_OTHERS = 2


def _unread_if_several(p: Proposal, reads: list[IndexRead]) -> Proposal:
    """``p`` without its whole-card reading if ``reads`` inside its outline name SEVERAL_OTHERS
    or more other cards; else ``p`` (a label is never dropped)."""
    if p.card is None or p.source == "barcode":
        return p
    inside = [r for r in reads if _inside(r.candidate.centre, p.quad)]
    others = {r.card.code for r in inside if r.card != p.card}
    return Proposal(None, 0.0, p.quad, "visual") if len(others) >= SEVERAL_OTHERS else p


def _step(reads: list[IndexRead]) -> float | None:
    """The rank-to-suit step of the largest of ``reads`` (None: no index read)."""
    return round(max(r.candidate.size for r in reads), 2) if reads else None


OPPOSITE = 0.7  # cos of the widest angle (about 135°) between a card's two indices' directions


def _two_corners(a: IndexRead, b: IndexRead) -> bool:
    """Are two readings one card's two corner indices: the same card, printed 180° apart (their
    rank-to-suit directions opposite), within a card's diagonal of each other (in the larger of
    their steps: seen at a slant, the far index looks smaller)? Two copies of a card from a
    two-deck shoe, side by side in a fan, point the same way: two cards."""
    if a.card != b.card:
        return False
    va, vb = a.candidate.suit - a.candidate.rank, b.candidate.suit - b.candidate.rank
    opposite = float(va @ vb) <= -OPPOSITE * a.candidate.size * b.candidate.size
    near = np.hypot(*np.subtract(a.candidate.centre, b.candidate.centre))
    return opposite and near < CARD_DIAGONALS * max(a.candidate.size, b.candidate.size)


PIPS_DISAGREE = 0.8  # an index read against its outline's pip count: at most 0.76
PICTURE = "picture"  # what an outline's middle shows when it is a court card's picture


def _pip_rank(pips: list[np.ndarray], face: np.ndarray) -> str:
    """The rank an upright card's pips count: "A" for one, or PICTURE where that one blob is
    coloured like a court card's picture."""
    if len(pips) > 1:
        return str(len(pips))
    return PICTURE if face_picture(face) else "A"


def _index_confidence(reads: list[IndexRead]) -> float:
    """One index read: below the usual auto-accept threshold (the dealer confirms); two agree:
    just above it."""
    best = max(r.prob for r in reads)
    return round(best * (0.95 if len(reads) >= 2 else 0.85), 3)


def _face_has_strongest(p: Proposal, inside: list[IndexRead]) -> bool:
    """Does the whole-card reading agree with the surest index read inside its outline (the
    others, less sure, are then misreads of its picture or pips)?"""
    best = max(inside, key=lambda r: r.prob)
    return best.card == p.card and all(r.prob < best.prob for r in inside if r.card != p.card)


def _one_card_inside(reads: list[IndexRead], quad: np.ndarray) -> bool:
    """Do the index readings inside ``quad`` name exactly one card?"""
    return len({r.card.code for r in reads if _inside(r.candidate.centre, quad)}) == 1


def _inside(point: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), point, False) >= 0


def _scaled_barcodes(outlines: Outlines) -> list[Proposal]:
    """Labels anywhere in the frame (searched at detection size, for speed)."""
    return [Proposal(p.card, p.confidence, p.quad / outlines.scale, p.source)
            for p in labels_anywhere(outlines.small)]


def single_threaded() -> None:
    """Make OpenCV use one thread (benchmarks measure one core)."""
    cv2.setNumThreads(1)
