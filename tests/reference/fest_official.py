"""An independent Python implementation of the FEST 2025 evaluation (docs/specs/fest.md sections 2-3), built the way the
official evaluate_util.py is: OpenCV reads the masks (cv2.imread, cvtColor, connectedComponents), NumPy does the
rest, and the metrics come from the naive per-pair loop over GT lines x predicted labels. Used by fest_diff.py
(differential test) and bench/fest.sh (the "official-style" peer)."""

import os
import sys

import cv2
import numpy as np


def read_gt(path, connectivity=8):
    gt = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if gt is None:
        raise FileNotFoundError(path)
    n, labels = cv2.connectedComponents((gt != 0).astype(np.uint8), connectivity=connectivity)
    return labels, n - 1


def read_pred(path):
    bgr = cv2.imread(path, cv2.IMREAD_COLOR)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    flat = rgb.reshape(-1, 3)
    colours, inverse = np.unique(flat, axis=0, return_inverse=True)
    # The official code writes colour index i into a uint8 label image: indices wrap modulo 256.
    labels = np.zeros(flat.shape[0], dtype=np.uint8)
    for i in range(len(colours)):
        labels[inverse.reshape(-1) == i] = i % 256
    labels = labels.reshape(rgb.shape[:2])
    n2 = len(np.unique(labels)) - 1
    return labels, n2


def evaluate(gt_path, pred_path, connectivity=8):
    """Per-image (pixel_iu, line_iu, dr, ra, fm) and counts, exactly as the official loop computes them.
    Raises ZeroDivisionError where the official script does (N1 > 0, N2 = 0)."""
    gl, n1 = read_gt(gt_path, connectivity)
    pl, n2 = read_pred(pred_path)
    tp_sum = fp_sum = fn_sum = 0
    cl = ml = el = 0
    match_score = 0
    pred_masks = [pl == p for p in range(n2 + 1)]
    for g in range(1, n1 + 1):
        gmask = gl == g
        best_iou, best_p = 0, None
        for p in range(1, n2 + 1):
            pmask = pred_masks[p]
            inter = np.logical_and(gmask, pmask).sum()
            union = np.logical_or(gmask, pmask).sum()
            iou = inter / union if union > 0 else 0
            if iou >= 0.75:
                match_score += 1
            if iou > best_iou:
                best_iou, best_p = iou, p
        if best_p is not None:
            pmask = pred_masks[best_p]
            tp = int(np.logical_and(gmask, pmask).sum())
            fp = int(np.logical_and(~gmask, pmask).sum())
            fn = int(np.logical_and(gmask, ~pmask).sum())
            tp_sum += tp
            fp_sum += fp
            fn_sum += fn
            precision = tp / (tp + fp) if tp + fp > 0 else 0
            recall = tp / (tp + fn) if tp + fn > 0 else 0
            if precision >= 0.75 and recall >= 0.75:
                cl += 1
            elif recall < 0.75:
                ml += 1
            else:
                el += 1
    pixel_iu = 0 if tp_sum + fp_sum + fn_sum == 0 else tp_sum / (tp_sum + fp_sum + fn_sum)
    line_iu = 0 if cl + ml + el == 0 else cl / (cl + ml + el)
    if n1 == 0:
        dr, ra = 0, 0
    else:
        dr = match_score / n1
        ra = match_score / n2  # ZeroDivisionError when N2 == 0, as in the official script
    fm = 0 if dr + ra == 0 else 2 * (dr * ra) / (dr + ra)
    counts = dict(n1=n1, n2=n2, m=match_score, tp=tp_sum, fp=fp_sum, fn=fn_sum, cl=cl, ml=ml, el=el)
    return (pixel_iu, line_iu, dr, ra, fm), counts


def text(values):
    names = ["Pixel IU", "Line IU", "Detection Rate", "Recognition Accuracy", "F-measure"]
    return "Calculating metrics...\n" + "".join(f"{n}:  {v}\n" for n, v in zip(names, values))


def evaluate_folder(gt_dir, res_dir, connectivity=8, out=None):
    """udiads_textline_evaluate: per-image values for the GT folder's entries in sorted order, numpy means."""
    per = []
    for f in sorted(os.listdir(gt_dir)):
        stem = os.path.splitext(f)[0]
        values, _ = evaluate(os.path.join(gt_dir, stem + ".png"), os.path.join(res_dir, stem + ".png"), connectivity)
        if out is not None:
            out.write(text(values))
        per.append(values)
    return [np.mean([v[k] for v in per]) for k in range(5)]


if __name__ == "__main__":
    means = evaluate_folder(sys.argv[1], sys.argv[2], out=sys.stdout)
    print("means:", [float(m) for m in means])
