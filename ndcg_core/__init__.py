"""ndcg_core: the exact, vectorized NDCG engine behind NDCG Lab.

Pure numpy/pandas (it never imports streamlit). Options are keyword-only and declared once in
:data:`OPTIONS`; :data:`CONVENTIONS` bundles them as scikit-learn, trec_eval, LightGBM,
XGBoost and ranx compute NDCG.
"""

from .compare import COMPARE_OPTIONS, adjust_pvalues, compare, to_latex, to_markdown, wins_losses
from .evaluate import conventions_table, evaluate
from .io import read_qrels, read_run
from .metrics import (
    average_precision,
    cg,
    dcg,
    NDCGParts,
    dcg_table,
    idcg,
    ideal_table,
    mean_reciprocal_rank,
    ndcg,
    ndcg_curve,
    ndcg_parts,
    precision_at_k,
    reciprocal_rank,
)
from .options import CONVENTIONS, OPTIONS, Option

__all__ = [
    "dcg", "idcg", "ndcg", "ndcg_parts", "NDCGParts", "dcg_table", "ideal_table", "ndcg_curve", "evaluate", "read_qrels", "read_run",
    "cg", "precision_at_k", "reciprocal_rank", "mean_reciprocal_rank", "average_precision",
    "conventions_table", "OPTIONS", "CONVENTIONS", "Option",
    "compare", "wins_losses", "adjust_pvalues", "to_markdown", "to_latex", "COMPARE_OPTIONS",
]
