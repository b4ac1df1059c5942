"""Refuse an image before decoding it: size from the file's header (Pillow reads only the
header), a pixel budget, and no tiny or degenerate (needle-thin) images.

A 2.6 MB PNG can claim 30000×30000 pixels (2.7 GB once decoded as BGR); a 1×100000 strip makes
OpenCV's card finder fail. Both are refused here with one line saying why.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from dealer_assist.errors import InputError

MAX_PIXELS = 50_000_000  # a 50-megapixel photo; decoded as BGR: 150 MB
MIN_SIDE = 32  # a card's corner index needs more pixels than this
MAX_ASPECT = 20  # a table photo is never 20 times wider than high (or higher than wide)


class ImageTooLarge(InputError):
    """An image whose header claims more pixels than the budget (it is not decoded)."""


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the header; InputError if the file is not an image we know."""
    try:
        with warnings.catch_warnings():  # the budget below is ours; Pillow's warning is noise
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return image.size
    except FileNotFoundError:
        raise InputError(f"cannot read image {path}: no such file") from None
    except Image.DecompressionBombError:
        raise ImageTooLarge(f"{path}: far over the pixel budget of {MAX_PIXELS:,}; scale the "
                            "photo down") from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable image ({exc})") from None


def check_pixels(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The image's size if it is within ``max_pixels``; ImageTooLarge (or InputError) otherwise."""
    width, height = image_size(path)
    if width * height > max_pixels:
        raise ImageTooLarge(f"{path}: {width}×{height} is {width * height:,} pixels, over the "
                            f"budget of {max_pixels:,}; scale the photo down")
    return width, height


def check_image(path: str | Path) -> tuple[int, int]:
    """The image's size if it may be decoded; InputError otherwise."""
    width, height = check_pixels(path)
    if min(width, height) < MIN_SIDE:
        raise InputError(f"{path}: {width}×{height} is too small to hold a card "
                         f"(at least {MIN_SIDE} pixels a side)")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise InputError(f"{path}: {width}×{height} is not a photo of a table (sides more "
                         f"than {MAX_ASPECT} to 1)")
    return width, height
