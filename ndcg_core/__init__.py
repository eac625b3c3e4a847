"""ndcg_core: the exact, vectorized NDCG engine behind NDCG Lab.

numpy/pandas (scipy for :func:`compare`'s statistics, imported when called); it never imports
streamlit. Options are keyword-only and declared once in :data:`OPTIONS`;
:data:`CONVENTIONS` bundles them as scikit-learn, trec_eval, pytrec_eval, LightGBM, XGBoost
and ranx compute NDCG.
"""

from ._ids import id_codes
from .choices import (CHOICE_COLUMNS, achieved_significance, choice_scores, compare_choices,
                      disagreement, pair_pvalues, queries_for_swap_rate, swap_curve,
                      swapped_pairs, tau_matrix, topic_set_size)
from .compare import COMPARE_OPTIONS, adjust_pvalues, compare, to_latex, to_markdown, wins_losses
from .evaluate import conventions_table, evaluate, judged_at_k, ndcg_bounds, ranking
from .io import read_qrels, read_run
from .metrics import (
    NDCGParts,
    average_precision,
    cg,
    dcg,
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
from .options import CONVENTIONS, MISTAKE_OPTIONS, OPTIONS, Option

__all__ = [
    "dcg", "idcg", "ndcg", "ndcg_parts", "NDCGParts", "dcg_table", "ideal_table", "ndcg_curve",
    "cg", "precision_at_k", "reciprocal_rank", "mean_reciprocal_rank", "average_precision",
    "evaluate", "ranking", "judged_at_k", "ndcg_bounds", "conventions_table", "id_codes",
    "read_qrels", "read_run", "OPTIONS", "CONVENTIONS", "MISTAKE_OPTIONS", "Option",
    "compare", "wins_losses", "adjust_pvalues", "to_markdown", "to_latex", "COMPARE_OPTIONS",
    "compare_choices", "choice_scores", "tau_matrix", "pair_pvalues", "achieved_significance",
    "swapped_pairs", "disagreement", "swap_curve", "queries_for_swap_rate", "topic_set_size",
    "CHOICE_COLUMNS",
]
