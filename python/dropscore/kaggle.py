"""Kaggle's metric convention: ``score(solution, submission, row_id_column_name) -> float``, raising
``ParticipantVisibleError`` with a message a participant can act on.

    from dropscore import kaggle
    kaggle.score(solution_df, submission_df, "id", protocol="classification", metric="roc_auc")

``solution`` and ``submission`` are pandas DataFrames (or anything :func:`dropscore.score` takes); the other
keyword arguments are the protocol's options (``metric`` names the leaderboard metric). The return value is the
leaderboard metric as dropscore's page and scoring program compute it.
"""

from typing import Any

from . import ScoreError, _lines, score as _score


class ParticipantVisibleError(ScoreError):
    """A problem of the submission, worded for the participant: every located diagnostic, one a line."""


def score(solution: Any, submission: Any, row_id_column_name: str, *, protocol: str = "classification",
          mode: str = "official", **options: Any) -> float:
    """The leaderboard metric of ``submission`` against ``solution``; raises :class:`ParticipantVisibleError` when
    the submission has errors or the metric cannot be computed, and ``ValueError`` for a bad option."""
    if row_id_column_name:
        options.setdefault("id_column", row_id_column_name)
    report = _score(protocol, solution, submission, options=options, mode=mode)
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    if errors:
        raise ParticipantVisibleError(_lines(errors), errors)
    headline = report.get("display", {}).get("headline") or [{}]
    metric = options.get("metric") or (report.get("options") or {}).get("metric") or headline[0].get("id")
    value = report["scores"].get(metric) if metric else None
    if value is None:
        raise ParticipantVisibleError("the leaderboard metric %s cannot be computed from this submission" % metric,
                                      report.get("diagnostics", []))
    return float(value)
