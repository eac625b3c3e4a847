"""ndcg_core: the exact, vectorized NDCG engine behind NDCG Lab.

Pure numpy/pandas (it never imports streamlit). Options are keyword-only and declared once in
:data:`OPTIONS`; :data:`CONVENTIONS` bundles them as scikit-learn, trec_eval, LightGBM,
XGBoost and ranx compute NDCG.
"""

from .evaluate import conventions_table, evaluate, judged_at_k, ndcg_bounds, ranking
from .io import read_qrels, read_run
from .metrics import (
    average_precision,
    cg,
    dcg,
    dcg_table,
    idcg,
    mean_reciprocal_rank,
    ndcg,
    ndcg_curve,
    precision_at_k,
    reciprocal_rank,
)
from .options import CONVENTIONS, OPTIONS, Option

__all__ = [
    "dcg", "idcg", "ndcg", "dcg_table", "ndcg_curve", "evaluate", "read_qrels", "read_run",
    "cg", "precision_at_k", "reciprocal_rank", "mean_reciprocal_rank", "average_precision",
    "conventions_table", "OPTIONS", "CONVENTIONS", "Option",
    "judged_at_k", "ndcg_bounds", "ranking",
]
