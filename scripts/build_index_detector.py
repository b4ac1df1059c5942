"""Build models/index_det.onnx, the learned corner-index detector, from synthetic scenes (seeded).

    uv run python scripts/build_index_detector.py generate [--scenes 3000] [--designs mix]
                                                       [--workers 2]
    bash scripts/train_venv.sh       # the torch venv, build/train-venv, at uv.lock's versions
    build/train-venv/bin/python scripts/build_index_detector.py all    # generate + both stages
    # THE SHIPPED FILE since the sixtieth step (rule EE's recipe, DMX, its second training,
    # fifty-fifth step; passed rules ET and EU in the fifty-ninth; render 6 min, training 45
    # min here; a training is not rebuilt bit for bit: three trainings gave three files):
    #   all --recipe shipped [--data build/det-data-mx --work build/det-train-mx
    #   --out build/index_det_mx.onnx], the same as
    #   all --designs mix --design-mix 0.6 0.2 0 0 0.2 --workers 2 --threads 2 --channels-last
    # shipped until the sixtieth step (rule BM, shipped by rule BQ in the thirty-third step;
    # about 80 min; the defaults):
    #   all --workers 2 --threads 2
    # stages by hand: train --epochs 64 --lr 4e-3 --work build/det-train/stage1
    #                 train --epochs 48 --lr 2e-3 --init build/det-train/stage1/checkpoint.pt
    #                       --work build/det-train/stage2
    # until the thirty-third step: --stage-epochs 32 24 (under-trained)
    # tried, not shipped (thirty-sixth step, rule CE: about as many more cards as wrong ones):
    #   all --workers 2 --threads 2 --channels-last --stage-epochs 96 72 (73 min here: an
    #   epoch takes 23-24 s in NHWC order against about 40 s in the default NCHW)
    # tried, not shipped (forty-second step, rule CU: DWD; eligible, but no held-out gain):
    #   all --designs mix --design-mix 0.4 0.1 0.2 0.3 --workers 2 --threads 2 --channels-last
    #   --data build/det-data-wide --work build/det-train-wide --out build/index_det_wide.onnx
    #   (bash scripts/wide_fonts.sh first; render 11 min, training 49 min here)
    # tried, not shipped (fifty-ninth step, rule ER: DST; no steep gain, fewer everyday cards):
    #   all --workers 2 --threads 2 --channels-last --steep 0.4 --data build/det-data-steep
    #   --work build/det-train-steep --out build/index_det_steep.onnx (render 6.5, training 48 min)

``generate`` renders table scenes of the *training* deck designs only (``scripts/vision_data``;
the held-out designs never): with ``--designs training`` the SVG and font-drawn decks, each
equally likely; with ``--designs mix`` also the procedural designs, in the index network's mix
(``build_index_model.pick_design``; ``--design-mix`` as that build takes it, a fourth share for
the wide designs). It scales each to the detector's input size (long side
640) and stores the image with its printed indices (centre, rank-to-suit vector) and an *ignore*
mask (indices partly hidden, cards whose index position is unknown) in
``build/det-data/chunk-NNNN.npz``.
``train`` fits a small fully convolutional network (``make_net``) with torch on the CPU, one
thread: a CenterNet-style index-centre heatmap at 1/4 resolution plus, per cell, the centre's
sub-cell offset, the log rank-to-suit distance and its direction. It saves a checkpoint after every
epoch in ``build/det-train/`` and exports ONNX for ``cv2.dnn``. Both stages are resumable:
finished chunks and epochs are skipped. Chunks 0-1 are validation scenes, never trained on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "build" / "det-data"
TRAIN = ROOT / "build" / "det-train"
OUT = ROOT / "models" / "index_det.onnx"
SCENES_PER_CHUNK = 20
INPUT_LONG = 640  # the detector sees frames at most this size (index_detector.DET_LONG_SIDE)
STRIDE = 4  # heatmap cell, input pixels
MIN_D, MAX_D = 2.5, 48.0  # rank-to-suit distance of an index the detector should find (input px)
PATCH = 256  # training crops
STEEP_TILT = (40.0, 62.0)  # --steep: the camera of that share of the scenes, degrees (rule ER)


# ---------------------------------------------------------------- data

def make_chunk(k: int, seed: int, out: Path, designs: str = "training",
               mix: tuple[float, ...] | None = None, steep: float = 0.0) -> int:
    """Render chunk ``k`` (seeded by ``seed`` and ``k``); returns the number of indices.
    ``designs``: ``training`` (SVG and font-drawn decks) or ``mix`` (also procedural ones, in
    the shares ``mix``: ``build_index_model.pick_design``'s, its DESIGN_MIX by default).
    ``steep``: the share of scenes whose camera is tilted STEEP_TILT instead of the everyday
    0 to ``scenes.MAX_TILT`` degrees (0: the shipped recipe's render, draw for draw)."""
    import cv2

    from scripts.build_index_model import DESIGN_MIX, pick_design, scene_size, training_designs
    from scripts.vision_data import scenes, variants

    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, k])
    fixed = training_designs()
    arrays: dict[str, np.ndarray] = {}
    n_index = 0
    for s in range(SCENES_PER_CHUNK):
        design = pick_design(rng, mix=mix or DESIGN_MIX) if designs == "mix" \
            else fixed[int(rng.integers(len(fixed)))]
        faces = scenes.load_faces(design)
        anchors = scenes.anchors_of(design, faces)
        lo, hi = STEEP_TILT if steep and rng.random() < steep else (0.0, scenes.MAX_TILT)
        sc = scenes.make_scene(rng, faces, scene_size(rng), mild=rng.random() < 0.25,
                               min_tilt=lo, max_tilt=hi)
        h, w = sc.image.shape[:2]
        f = min(1.0, INPUT_LONG / max(h, w))
        size = (round(w * f), round(h * f))
        img = cv2.resize(sc.image, size, interpolation=cv2.INTER_AREA)
        # ignore: cards whose index position is unknown; partly hidden or tiny indices
        unknown = [i for i, card in enumerate(sc.cards) if not anchors.get(card.code)]
        ignore = np.isin(sc.owner, unknown).astype(np.uint8) if unknown else \
            np.zeros(sc.owner.shape, np.uint8)
        ann = []
        for _code, rank, suit, frac, *_glyph in scenes.visible_indices(sc, anchors):
            r, su = rank * f, suit * f
            d = float(np.linalg.norm(su - r))
            c = (r + su) / 2
            if frac >= 0.9 and MIN_D <= d <= MAX_D:
                ann.append([c[0], c[1], su[0] - r[0], su[1] - r[1]])
            elif frac > 0.3 or d < MIN_D:
                cv2.circle(ignore, (int(c[0] / f), int(c[1] / f)), int(max(2.0, d / f)), 1, -1)
        ign = cv2.resize(ignore, (-(-size[0] // STRIDE), -(-size[1] // STRIDE)),
                         interpolation=cv2.INTER_NEAREST)
        arrays[f"img{s}"] = img
        arrays[f"ann{s}"] = np.array(ann, np.float32).reshape(-1, 4)
        arrays[f"ign{s}"] = ign
        n_index += len(ann)
    variants.deck.cache_clear()  # 26 MB a procedural design: keep only this chunk's
    tmp = out.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.rename(out)
    return n_index


def generate(args: argparse.Namespace) -> None:
    from scripts.build_index_model import render_chunks

    render_chunks(args, SCENES_PER_CHUNK, "indices", make_chunk, args.designs,
                  tuple(args.design_mix), args.steep)


def load_chunks(files: list[Path]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    out = []
    for f in files:
        with np.load(f) as d:
            for s in range(SCENES_PER_CHUNK):
                if f"img{s}" in d:
                    out.append((d[f"img{s}"], d[f"ann{s}"], d[f"ign{s}"]))
    return out


# ---------------------------------------------------------------- targets and augmentation

def targets(ann: np.ndarray, ign: np.ndarray, shape: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (gh, gw), its loss weight (0 where ignored), the regression targets (5, gh, gw):
    offset x, y of the centre in cells, log distance, direction cos, sin; and their mask."""
    gh, gw = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    reg = np.zeros((5, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for cx, cy, vx, vy in ann:
        d = float(np.hypot(vx, vy))
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5  # in cell coordinates (cell centres at ints)
        if not (-0.5 <= gx < gw - 0.5 and -0.5 <= gy < gh - 0.5):
            continue
        sigma = max(0.6, 0.3 * d / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(np.rint(gx)), int(np.rint(gy))
        heat[iy, ix] = 1.0
        for j in range(max(0, iy - 1), min(gh, iy + 2)):
            for i in range(max(0, ix - 1), min(gw, ix + 2)):
                reg[:, j, i] = (gx - i, gy - j, np.log(d), vx / d, vy / d)
                mask[j, i] = 1.0 if (i, j) == (ix, iy) else max(mask[j, i], 0.5)
    weight = np.where(ign[:gh, :gw] > 0, 0.0, 1.0).astype(np.float32)
    weight = np.maximum(weight, (heat > 0.5).astype(np.float32))  # a visible index always counts
    return heat, weight, reg, mask


def sample(item, rng: np.random.Generator):
    """A PATCH x PATCH training crop of a scene: random scale, quarter turn, shift."""
    import cv2

    img, ann, ign = item
    ann = ann.copy()
    s = float(np.exp(rng.uniform(np.log(0.55), 0.0))) if rng.random() < 0.5 else 1.0
    if s < 1:
        img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        ann *= s
    ign_full = cv2.resize(ign, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_NEAREST)
    h, w = img.shape[:2]
    pad_h, pad_w = max(0, PATCH - h), max(0, PATCH - w)
    if pad_h or pad_w:
        img = cv2.copyMakeBorder(img, 0, pad_h, 0, pad_w, cv2.BORDER_REFLECT)
        ign_full = cv2.copyMakeBorder(ign_full, 0, pad_h, 0, pad_w, cv2.BORDER_CONSTANT, value=1)
        h, w = img.shape[:2]
    # prefer crops that hold an index
    if len(ann) and rng.random() < 0.8:
        cx, cy = ann[int(rng.integers(len(ann)))][:2]
        x0 = int(np.clip(cx - rng.uniform(20, PATCH - 20), 0, w - PATCH))
        y0 = int(np.clip(cy - rng.uniform(20, PATCH - 20), 0, h - PATCH))
    else:
        x0, y0 = int(rng.integers(0, w - PATCH + 1)), int(rng.integers(0, h - PATCH + 1))
    img = img[y0:y0 + PATCH, x0:x0 + PATCH]
    ign_full = ign_full[y0:y0 + PATCH, x0:x0 + PATCH]
    ann[:, 0] -= x0
    ann[:, 1] -= y0
    k = int(rng.integers(4))  # quarter turns counter-clockwise
    for _ in range(k):
        img, ign_full = np.rot90(img), np.rot90(ign_full)
        # (x, y) -> (y, PATCH - x); vectors (vx, vy) -> (vy, -vx)
        ann = np.stack([ann[:, 1], PATCH - ann[:, 0], ann[:, 3], -ann[:, 2]], 1)
    img = np.ascontiguousarray(img)
    # photometric jitter: gain per channel, brightness, noise
    g = rng.uniform(0.7, 1.25, 3) * (rng.uniform(0.35, 1.0) if rng.random() < 0.2 else 1.0)
    img = np.clip(img * g + rng.normal(0, rng.uniform(0, 6), img.shape), 0, 255).astype(np.uint8)
    ign = cv2.resize(np.ascontiguousarray(ign_full), (PATCH // STRIDE, PATCH // STRIDE),
                     interpolation=cv2.INTER_NEAREST)
    return (img, *targets(ann, ign, (PATCH, PATCH)))


# ---------------------------------------------------------------- network

def make_net():
    import torch
    import torch.nn as nn

    def conv(cin, cout, stride=1, dil=1):
        return [nn.Conv2d(cin, cout, 3, stride, dil, dilation=dil, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()]

    def dws(cin, cout, stride=1, dil=1):  # depthwise-separable 3x3
        return [nn.Conv2d(cin, cin, 3, stride, dil, dilation=dil, groups=cin, bias=False),
                nn.BatchNorm2d(cin), nn.ReLU(),
                nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    class Det(nn.Module):
        """1/4-resolution features, a 1/8 context branch (dilated) added back: 6 output maps."""

        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(*conv(3, 16, 2), *dws(16, 32, 2), *dws(32, 32))  # 1/4
            self.ctx = nn.Sequential(*dws(32, 64, 2), *dws(64, 64, 1, 2), *dws(64, 64, 1, 4),
                                     *dws(64, 64, 1, 8))  # 1/8
            self.up = nn.Sequential(nn.Conv2d(64, 32, 1, bias=False), nn.BatchNorm2d(32))
            self.fuse = nn.Sequential(*dws(32, 48), *dws(48, 48, 1, 2))
            self.head = nn.Conv2d(48, 6, 1)
            nn.init.constant_(self.head.bias, 0.0)
            with torch.no_grad():
                self.head.bias[0] = -4.0  # heatmap starts near 0 (CenterNet's prior)

        def forward(self, x):
            f = self.stem(x)
            c = self.up(self.ctx(f))
            c = nn.functional.interpolate(c, scale_factor=2.0, mode="nearest")
            return self.head(self.fuse(torch.relu(f + c)))

    return Det()


def normalise(imgs: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 -> (N, 3, H, W) float32 in 0..1 (index_detector.py does the same)."""
    return np.ascontiguousarray(imgs.transpose(0, 3, 1, 2), np.float32) / 255.0


def losses(out, heat, weight, reg, mask):
    import torch
    import torch.nn.functional as F

    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    neg = (1 - pos) * weight * (1 - heat) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg * p ** 2 * torch.log(1 - p)).sum()
    focal = focal / pos.sum().clamp(min=1)
    m = mask.unsqueeze(1)
    l1 = (F.smooth_l1_loss(out[:, 1:], reg, reduction="none", beta=0.1) * m).sum()
    l1 = l1 / mask.sum().clamp(min=1)
    return focal, l1


def train(args: argparse.Namespace) -> None:
    import torch

    from scripts.build_index_model import in_order, resume, save, training_chunks

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    import cv2
    cv2.setNumThreads(1)
    net = in_order(make_net(), args.channels_last)
    steps_total = args.epochs * args.steps
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps_total,
                                                pct_start=0.15)
    ckpt, start = resume(net, opt, sched, args.work, args.init)
    files = []
    for epoch in range(start, args.epochs):
        t0 = time.time()
        files = training_chunks(args.data)
        if args.max_chunks:
            files = files[:args.max_chunks]
        erng = np.random.default_rng([args.seed, epoch])
        # a window of recent chunks plus a random draw of older ones keeps memory small
        pick = sorted(set(erng.choice(len(files), min(len(files), args.chunks_per_epoch),
                                      replace=False).tolist()))
        items = load_chunks([files[i] for i in pick])
        net.train()
        tot_f = tot_r = 0.0
        for _s in range(args.steps):
            batch = [sample(items[int(erng.integers(len(items)))], erng)
                     for _ in range(args.batch)]
            x = in_order(torch.from_numpy(normalise(np.stack([b[0] for b in batch]))),
                         args.channels_last)
            heat, weight, reg, mask = (torch.from_numpy(np.stack([b[i] for b in batch]))
                                       for i in range(1, 5))
            focal, l1 = losses(net(x), heat, weight, reg, mask)
            loss = focal + args.reg_weight * l1
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot_f += float(focal.detach())
            tot_r += float(l1.detach())
        print(f"epoch {epoch}: {len(files)} chunks ({len(items)} scenes this epoch), focal "
              f"{tot_f / args.steps:.3f}, reg {tot_r / args.steps:.3f}, {time.time() - t0:.0f} s",
              flush=True)
        save(ckpt, net, opt, sched, epoch)
        if epoch % 3 == 2 or epoch == args.epochs - 1:
            validate(net, args)
        export(net, args.out)


def validate(net, args: argparse.Namespace) -> None:
    """Index-centre recall and false peaks on the validation chunks (peaks ≥ 0.3 within 1 cell)."""
    import torch

    from scripts.build_index_model import chunk_files

    items = load_chunks(chunk_files(args.data)[:2])
    net.eval()
    found = total = false = 0
    with torch.no_grad():
        for img, ann, _ign in items:
            h, w = img.shape[:2]
            ph, pw = -(-h // 16) * 16, -(-w // 16) * 16
            x = np.zeros((ph, pw, 3), np.uint8)
            x[:h, :w] = img
            out = net(torch.from_numpy(normalise(x[None])))[0].numpy()
            heat = 1 / (1 + np.exp(-out[0]))
            peaks = np.argwhere((heat >= 0.3) & (heat == _maxpool3(heat)))
            hit = np.zeros(len(peaks), bool)
            for cx, cy, _vx, _vy in ann:
                g = np.array([cy / STRIDE - 0.5, cx / STRIDE - 0.5])
                dist = np.abs(peaks - g).max(1) if len(peaks) else np.zeros(0)
                total += 1
                if len(dist) and dist.min() <= 1.0:
                    found += 1
                    hit[dist <= 1.0] = True
            false += int((~hit).sum())
    net.train()
    print(f"  validation: {found}/{total} index centres found, {false} other peaks "
          f"({len(items)} scenes)", flush=True)


def _maxpool3(a: np.ndarray) -> np.ndarray:
    import cv2
    return cv2.dilate(a, np.ones((3, 3), np.uint8))


def export(net, path: Path) -> None:
    import torch

    net.eval()
    tmp = path.with_suffix(".tmp.onnx")
    torch.onnx.export(net, torch.zeros(1, 3, 480, 640), str(tmp), input_names=["image"],
                      output_names=["maps"], opset_version=13, dynamo=False,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}})
    os.replace(tmp, path)
    net.train()


# The options of the shipped file's recipe (DMX2, shipped in the sixtieth step): ``--recipe
# shipped`` makes them the defaults (an option given on the command line still wins)
SHIPPED_RECIPE = {"designs": "mix", "design_mix": [0.6, 0.2, 0.0, 0.0, 0.2],
                  "channels_last": True, "workers": 2, "threads": 2}


def main(argv: list[str] | None = None) -> int:
    from scripts.build_index_model import DESIGN_MIX, check_design_mix, run_stage, shared_arguments

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stage", choices=["generate", "train", "all"])
    parser.add_argument("--recipe", choices=["shipped", "defaults"], default="defaults",
                        help="shipped: the options of the shipped file's recipe (the "
                             "sixtieth step's DMX2: the more decks, NHWC, two workers and "
                             "threads); defaults: the recipe shipped until then")
    parser.add_argument("--scenes", type=int, default=3000)
    parser.add_argument("--designs", choices=["training", "mix"], default="training",
                        help="training: the SVG and font-drawn decks; mix: also the procedural "
                             "designs (build_index_model.pick_design)")
    parser.add_argument("--steep", type=float, default=0.0, metavar="SHARE",
                        help="generate: this share of the scenes seen by a camera tilted "
                             f"{STEEP_TILT[0]:.0f}-{STEEP_TILT[1]:.0f} degrees (rule ER)")
    parser.add_argument("--epochs", type=int, default=32)
    parser.add_argument("--steps", type=int, default=100, help="batches per epoch")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--chunks-per-epoch", type=int, default=40)
    parser.add_argument("--reg-weight", type=float, default=1.0)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--stage-epochs", type=int, nargs=2, default=(64, 48),
                        metavar=("FIRST", "SECOND"), help="all: each stage's epochs (the shipped "
                        "recipe since the thirty-third step: 64 48; until then 32 24)")
    shared_arguments(parser, DATA, TRAIN, OUT)
    args = parser.parse_args(argv)
    if args.recipe == "shipped":
        parser.set_defaults(**SHIPPED_RECIPE)
        args = parser.parse_args(argv)
    if not 0.0 <= args.steep <= 1.0:
        parser.error("--steep is a share, 0 to 1")
    if args.designs == "mix":
        check_design_mix(parser, args.design_mix)
    elif tuple(args.design_mix) != DESIGN_MIX:
        parser.error("--design-mix needs --designs mix")
    first, second = args.stage_epochs
    run_stage(args, generate, train, [  # the shipped recipe: 64 then 48 epochs
        {"epochs": first, "lr": 4e-3},
        {"epochs": second, "lr": 2e-3}])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
