"""dropscore: a competition's official score, computed by the same Rust code as the dropscore page, command line
and scoring program, so the numbers are theirs to the last digit.

    import dropscore
    report = dropscore.score("classification", "gt.csv", "submission.csv", options={"metric": "roc_auc"})
    report["scores"]["roc_auc"]

Inputs (``gt``, ``pred``) are a path (file, folder or zip, read as the command line reads it), ``bytes``, a
``(name, bytes)`` pair, a pandas DataFrame (written as CSV without its index), or a list of these. Reports are the
JSON report, schema 1, as dicts; :func:`score_json` gives the command line's ``--format json`` text byte for
byte. Usage errors (an unknown protocol or option) raise :class:`ValueError`; input problems are the report's
``diagnostics``.
"""

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native

__version__ = _native.__version__
__all__ = ["score", "score_json", "compare", "compare_json", "check", "manifest", "protocols", "load_asset", "ScoreError", "kaggle"]

Input = Union[str, "os.PathLike[str]", bytes, Tuple[str, bytes], Any]


class ScoreError(ValueError):
    """A report with errors where a number was asked for; ``diagnostics`` holds them, located."""

    def __init__(self, message: str, diagnostics: List[Dict[str, Any]]):
        super().__init__(message)
        self.diagnostics = diagnostics


def _is_dataframe(x: Any) -> bool:
    return type(x).__name__ == "DataFrame" and hasattr(x, "to_csv")


def _inputs(role: str, value: Any, default_name: str) -> List[Tuple[str, str, Optional[bytes]]]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)) and not (
        isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], (bytes, bytearray))
    ):
        out: List[Tuple[str, str, Optional[bytes]]] = []
        for i, v in enumerate(value):
            out += _inputs(role, v, "%s_%d" % (default_name, i + 1) if len(value) > 1 else default_name)
        return out
    if isinstance(value, tuple):
        return [(role, value[0], bytes(value[1]))]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return [(role, default_name, bytes(value))]
    if _is_dataframe(value):
        return [(role, default_name + ".csv", value.to_csv(index=False).encode("utf-8"))]
    if isinstance(value, (str, os.PathLike)):
        return [(role, os.fspath(value), None)]
    raise TypeError("an input is a path, bytes, a (name, bytes) pair or a pandas DataFrame, not %s" % type(value).__name__)


def _set(options: Optional[Mapping[str, Any]]) -> List[Tuple[str, str]]:
    def text(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (list, tuple)):
            return ",".join(text(x) for x in v)
        return str(v)

    return [(str(k), text(v)) for k, v in (options or {}).items()]


def protocols() -> List[Dict[str, Any]]:
    """Every protocol of the registry, with its options, defaults and built-in examples (``dropscore list``)."""
    return json.loads(_native.protocols_json())


def score_json(protocol: str, gt: Input, pred: Input, *, options: Optional[Mapping[str, Any]] = None,
               mode: str = "official") -> str:
    """The report's JSON text: ``dropscore PROTOCOL --gt … --pred … --format json``, byte for byte."""
    inputs = _inputs("gt", gt, "gt") + _inputs("pred", pred, "pred")
    return _native.score_json(protocol, inputs, _set(options), mode)


def score(protocol: str, gt: Input, pred: Input, *, options: Optional[Mapping[str, Any]] = None,
          mode: str = "official") -> Dict[str, Any]:
    """Scores ``pred`` against ``gt`` with ``protocol``; the report (schema 1) as a dict.

    The intervals (docs/specs/statistics.md) are options as on the command line: ``bootstrap`` (replicates, 0 =
    off, the default), ``seed`` and ``confidence``; the report's ``statistics`` then holds each metric's interval."""
    return json.loads(score_json(protocol, gt, pred, options=options, mode=mode))


def compare_json(protocol: str, gt: Input, pred: Input, vs: Input, *,
                 options: Optional[Mapping[str, Any]] = None, mode: str = "official") -> str:
    """``dropscore compare PROTOCOL --gt … --pred … --vs … --format json``, byte for byte: submission ``pred`` (A)
    against ``vs`` (B) on one ground truth; A's report with ``compare`` appended."""
    inputs = _inputs("gt", gt, "gt")
    a = _inputs("pred", pred, "pred")
    b = _inputs("pred", vs, "pred")
    return _native.compare_json(protocol, inputs, a, b, _set(options), mode)


def compare(protocol: str, gt: Input, pred: Input, vs: Input, *, options: Optional[Mapping[str, Any]] = None,
            mode: str = "official") -> Dict[str, Any]:
    """Is submission ``pred`` (A) better than ``vs`` (B)? Both scored on ``gt`` and compared with the same bootstrap
    draws (docs/specs/statistics.md section 3), as ``dropscore compare``: A's report (a dict) whose ``compare``
    holds the headline metric's Δ = A − B, its paired interval (``low``, ``high``), ``p_bootstrap``,
    ``p_randomization``, per-unit ``wins``/``ties``/``losses`` and the ``verdict``. Options besides the
    protocol's: ``bootstrap`` (default 1000 here), ``seed``, ``confidence``, ``permutations`` (default 10000) and
    ``compare_all`` (True: every metric, in ``compare_all``). A comparison that cannot be made (a submission not
    scored, a protocol without units) raises :class:`ValueError` with the command line's message."""
    return json.loads(compare_json(protocol, gt, pred, vs, options=options, mode=mode))


def manifest(protocol: str, gt: Input, *, options: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The pre-flight manifest of a ground truth (``dropscore manifest``): what a submission needs, never a label.
    Raises :class:`ScoreError` when the ground truth has errors."""
    text, diagnostics = _native.manifest_json(protocol, _inputs("gt", gt, "gt"), _set(options))
    if text is None:
        diags = json.loads(diagnostics)
        raise ScoreError("the ground truth has errors; no manifest made:\n" + _lines(diags), diags)
    return json.loads(text)


def check(protocol: str, manifest: Union[str, Mapping[str, Any], "os.PathLike[str]"], pred: Input, *,
          options: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The pre-flight check of a submission against a manifest (a dict, its JSON text, or a path to it): the report
    with ``ready`` and ``summary``, as ``dropscore check --format json``."""
    if isinstance(manifest, Mapping):
        text = json.dumps(manifest)
    elif isinstance(manifest, os.PathLike) or (isinstance(manifest, str) and not manifest.lstrip().startswith("{")):
        with open(manifest, encoding="utf-8") as f:
            text = f.read()
    else:
        text = manifest
    return json.loads(_native.check_json(protocol, text, _inputs("pred", pred, "pred"), _set(options)))


def load_asset(name: str, data: Union[bytes, str, "os.PathLike[str]"]) -> str:
    """Loads a protocol's data asset (``aij2022``'s Russian dictionary ``ru-lemmas.bin``, asset ``lemma``) from its
    bytes or its path; later calls use it. Without a call, the file named by its environment variable
    (``DROPSCORE_LEMMAS``) is loaded when a protocol needs it. Returns what the file says about itself."""
    if not isinstance(data, (bytes, bytearray)):
        with open(data, "rb") as f:
            data = f.read()
    return _native.load_asset(name, bytes(data))


def _lines(diagnostics: Sequence[Mapping[str, Any]]) -> str:
    """One line per diagnostic, located as the command line prints them: ``file:line:column: severity: message``."""
    out = []
    for d in diagnostics:
        where = ":".join(str(x) for x in (d.get("file"), d.get("line"), d.get("column")) if x not in (None, ""))
        text = "%s: %s [%s]" % (d.get("severity"), d.get("message"), d.get("code"))
        if d.get("hint"):
            text += " (%s)" % d["hint"]
        out.append("%s: %s" % (where, text) if where else text)
    return "\n".join(out)


from . import kaggle  # noqa: E402  (kaggle uses the functions above)
