"""
Trains the MRZ cell classifier (models/mrz-cells/1) and writes its ONNX graph.

Every training and validation cell is rendered here from the OCR-B font (Debian's fonts-ocr-b,
the file the synthetic documents are drawn with) through a camera-like path: rows of random MRZ
characters (runs of fillers included, so neighbours' edges reach into a cell), rotated a little,
shrunk to 9-30 px cap height, blurred, lit unevenly, printed over a faint guilloche, noised and
JPEG-compressed. The 180 evaluation documents are never read: they stay held out.

Cell geometry (the reader, inference/src/tasks/document/mrz-cells/cut-cells.ts, cuts the same):
cell k of a row spans [x0 + k*pitch, x0 + (k+1)*pitch] across and the ink band (cap top to
baseline, height h) widened by h/4 above and below; it is sampled to 16 x 24 grey and normalised
by the row band's 2 % / 98 % grey levels to darkness in 0..1 (ink = 1).

Deterministic: one seed drives numpy's generator; numpy/Pillow/onnx versions in the README.
Usage: python train_mrz_cells.py FONT OUT.onnx [--rows N] [--epochs E] [--seed S]
"""
import argparse
import io
import json
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ALPHABET = "<0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CELL_W, CELL_H = 16, 24
ROW_CHARS = 24
FONT_SIZE = 100
# OCR-B at 100 px: advance 72.3 px, cap height (A-Z) 71 px; digits rise 6 px higher.
BAND_MARGIN = 0.25


def random_row(rng):
    out = []
    while len(out) < ROW_CHARS:
        r = rng.random()
        if r < 0.25:
            out += ["<"] * int(rng.integers(1, 9))
        elif r < 0.55:
            out += [ALPHABET[int(rng.integers(1, 11))] for _ in range(int(rng.integers(1, 8)))]
        else:
            out += [ALPHABET[int(rng.integers(11, 37))] for _ in range(int(rng.integers(1, 10)))]
    return "".join(out[:ROW_CHARS])


def render_row(rng, font, text, advance, cap_top, cap_bottom):
    """Returns the distorted grey row (float, 0..255), its pitch, cell origin and ink band."""
    pad = 40
    w = int(advance * len(text)) + 2 * pad
    h = 200
    bg = float(rng.uniform(150, 255))
    ink = float(rng.uniform(0, min(90, bg - 60)))
    im = Image.new("F", (w, h), bg)
    # a faint guilloche: sine lines behind the text, as on security print
    arr = np.array(im)
    if rng.random() < 0.6:
        yy, xx = np.mgrid[0:h, 0:w]
        f1 = rng.uniform(0.01, 0.06)
        phase = rng.uniform(0, 6.28)
        lines = np.sin(xx * f1 + np.sin(yy * rng.uniform(0.01, 0.05) + phase) * rng.uniform(2, 8))
        arr -= (lines > 0.9) * rng.uniform(0, 50)
    im = Image.fromarray(arr.astype(np.float32), mode="F")
    d = ImageDraw.Draw(im)
    y0 = 50
    for i, ch in enumerate(text):
        d.text((pad + i * advance, y0), ch, font=font, fill=ink)
    # rotation the rectification left over
    angle = float(rng.normal(0, 0.6))
    cx, cy = w / 2, h / 2
    im = im.rotate(angle, resample=Image.BILINEAR, center=(cx, cy), fillcolor=bg)
    # shrink to a camera's cap height, with a little anisotropy (perspective)
    cap = float(rng.uniform(9, 30))
    s = cap / (cap_bottom - cap_top)
    sx = s * float(rng.uniform(0.96, 1.04))
    nw, nh = max(8, int(round(w * sx))), max(8, int(round(h * s)))
    im = im.resize((nw, nh), resample=Image.BOX if rng.random() < 0.5 else Image.BILINEAR)
    g = np.array(im, dtype=np.float32)
    # uneven light
    yy, xx = np.mgrid[0:nh, 0:nw]
    light = 1 + rng.uniform(-0.25, 0.25) * (xx / nw - 0.5) + rng.uniform(-0.2, 0.2) * (yy / nh - 0.5)
    g = g * light
    im = Image.fromarray(np.clip(g, 0, 255).astype(np.uint8), mode="L")
    blur = float(rng.uniform(0, 1.3))
    if blur > 0.2:
        im = im.filter(ImageFilter.GaussianBlur(blur))
    g = np.array(im, dtype=np.float32)
    g += rng.normal(0, rng.uniform(0, 10), g.shape)
    im = Image.fromarray(np.clip(g, 0, 255).astype(np.uint8), mode="L")
    if rng.random() < 0.8:
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=int(rng.integers(35, 95)))
        im = Image.open(io.BytesIO(buf.getvalue())).convert("L")
    g = np.array(im, dtype=np.float32)
    # geometry in the shrunk image (rotation is small: taken as unrotated, the jitter covers it)
    pitch = advance * sx
    x0 = pad * sx
    top = (y0 + cap_top) * s
    bottom = (y0 + cap_bottom) * s
    return g, pitch, x0, top, bottom


def bilinear(g, xs, ys):
    h, w = g.shape
    xs = np.clip(xs, 0, w - 1.001)
    ys = np.clip(ys, 0, h - 1.001)
    x0 = np.floor(xs).astype(int)
    y0 = np.floor(ys).astype(int)
    fx = xs - x0
    fy = ys - y0
    return (
        g[y0, x0] * (1 - fx) * (1 - fy)
        + g[y0, x0 + 1] * fx * (1 - fy)
        + g[y0 + 1, x0] * (1 - fx) * fy
        + g[y0 + 1, x0 + 1] * fx * fy
    )


def cut_cells(rng, g, pitch, x0, top, bottom, n, jitter):
    h = bottom - top
    band = g[int(max(0, top - BAND_MARGIN * h)) : int(bottom + BAND_MARGIN * h) + 1, int(x0) : int(x0 + n * pitch) + 1]
    low, high = np.percentile(band, 2), np.percentile(band, 98)
    span = max(1.0, high - low)
    cells = np.empty((n, CELL_H, CELL_W), np.float32)
    for k in range(n):
        dx = rng.uniform(-0.2, 0.2) * pitch if jitter else 0
        dy = rng.uniform(-0.1, 0.1) * h if jitter else 0
        sc = rng.uniform(0.9, 1.1) if jitter else 1
        cw = pitch * sc
        ch = h * (1 + 2 * BAND_MARGIN) * sc
        cx = x0 + (k + 0.5) * pitch + dx
        cy = (top + bottom) / 2 + dy
        u = (np.arange(CELL_W) + 0.5) / CELL_W - 0.5
        v = (np.arange(CELL_H) + 0.5) / CELL_H - 0.5
        xs = cx + u[None, :] * cw
        ys = cy + v[:, None] * ch
        xs, ys = np.broadcast_arrays(xs, ys)
        cells[k] = bilinear(g, xs - 0.5, ys - 0.5)
    return np.clip(1 - (cells - low) / span, 0, 1)


def make_set(rng, font, rows, jitter=True):
    advance = font.getlength("A")
    # cap band measured from the rendered glyphs
    probe = Image.new("L", (200, 200), 0)
    ImageDraw.Draw(probe).text((0, 0), "AMHE", font=font, fill=255)
    ys = np.nonzero(np.array(probe) > 128)[0]
    cap_top, cap_bottom = float(ys.min()), float(ys.max() + 1)
    xs, labels = [], []
    for _ in range(rows):
        text = random_row(rng)
        g, pitch, x0, top, bottom = render_row(rng, font, text, advance, cap_top, cap_bottom)
        xs.append(cut_cells(rng, g, pitch, x0, top, bottom, len(text), jitter))
        labels += [ALPHABET.index(c) for c in text]
    return np.concatenate(xs).reshape(-1, CELL_H * CELL_W), np.array(labels), advance / (cap_bottom - cap_top)


def train(rng, x, y, hidden, epochs, lr=1e-3, batch=256):
    sizes = [x.shape[1], *hidden, len(ALPHABET)]
    ws = [(rng.normal(0, np.sqrt(2 / a), (a, b))).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        rate = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        total = 0.0
        for i in range(0, len(x), batch):
            idx = order[i : i + batch]
            acts = [x[idx]]
            for j in range(len(ws)):
                z = acts[-1] @ ws[j] + bs[j]
                acts.append(np.maximum(z, 0) if j < len(ws) - 1 else z)
            z = acts[-1] - acts[-1].max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            total += -np.log(p[np.arange(len(idx)), y[idx]] + 1e-9).sum()
            grad = p
            grad[np.arange(len(idx)), y[idx]] -= 1
            grad /= len(idx)
            gws, gbs = [None] * len(ws), [None] * len(ws)
            for j in reversed(range(len(ws))):
                gws[j] = acts[j].T @ grad
                gbs[j] = grad.sum(0)
                if j > 0:
                    grad = (grad @ ws[j].T) * (acts[j] > 0)
            t += 1
            for k, (p_, g_) in enumerate(zip(params, gws + gbs)):
                g_ = g_ + (1e-4 * p_ if k < len(ws) else 0)
                m[k] = 0.9 * m[k] + 0.1 * g_
                v[k] = 0.999 * v[k] + 0.001 * g_ * g_
                p_ -= (rate * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)).astype(np.float32)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}", file=sys.stderr, flush=True)
    return ws, bs


def predict(ws, bs, x):
    a = x
    for j in range(len(ws)):
        a = a @ ws[j] + bs[j]
        if j < len(ws) - 1:
            a = np.maximum(a, 0)
    z = a - a.max(1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(1, keepdims=True)


def export(ws, bs, path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = [helper.make_node("Flatten", ["cells"], ["h0"], axis=1)]
    inits = []
    for j in range(len(ws)):
        inits += [numpy_helper.from_array(ws[j], f"w{j}"), numpy_helper.from_array(bs[j], f"b{j}")]
        out = f"z{j}" if j < len(ws) - 1 else "logits"
        nodes.append(helper.make_node("Gemm", [f"h{j}", f"w{j}", f"b{j}"], [out]))
        if j < len(ws) - 1:
            nodes.append(helper.make_node("Relu", [out], [f"h{j + 1}"]))
    nodes.append(helper.make_node("Softmax", ["logits"], ["prob"], axis=1))
    graph = helper.make_graph(
        nodes,
        "mrz_cells",
        [helper.make_tensor_value_info("cells", TensorProto.FLOAT, ["batch", 1, CELL_H, CELL_W])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, ["batch", len(ALPHABET)])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="bioverify-mrz-cells")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("font")
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=4000)
    ap.add_argument("--val-rows", type=int, default=600)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--hidden", default="256,128")
    args = ap.parse_args()
    font = ImageFont.truetype(args.font, FONT_SIZE)
    rng = np.random.default_rng(args.seed)
    x, y, ratio = make_set(rng, font, args.rows)
    print(f"train: {len(x)} cells; pitch / cap height {ratio:.4f}", file=sys.stderr, flush=True)
    ws, bs = train(rng, x, y, [int(h) for h in args.hidden.split(",")], args.epochs)
    # validation: another stream of the same generator (seed + 1), never trained on
    vrng = np.random.default_rng(args.seed + 1)
    vx, vy, _ = make_set(vrng, font, args.val_rows)
    p = predict(ws, bs, vx)
    best = p.argmax(1)
    conf = p.max(1)
    wrong = best != vy
    report = {
        "seed": args.seed,
        "train_cells": int(len(x)),
        "val_cells": int(len(vx)),
        "val_accuracy": float(1 - wrong.mean()),
        "val_wrong": int(wrong.sum()),
        "val_wrong_conf_quantiles": [float(q) for q in np.quantile(conf[wrong], [0.5, 0.9, 0.99, 1.0])] if wrong.any() else [],
        "val_right_below": {str(f): float((conf[~wrong] < f).mean()) for f in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)},
        "val_wrong_at_or_above": {str(f): int((conf[wrong] >= f).sum()) for f in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)},
        "pitch_over_cap_height": ratio,
    }
    print(json.dumps(report, indent=1))
    export(ws, bs, args.out)


if __name__ == "__main__":
    main()
