"""The common mistakes' words, in English and 中文: name, what it does, the real case.

Each English sentence is written once, as the literal of a ``t("...")`` call (so
``tests/lab/test_i18n.py`` finds it and checks its translation in ``mistakes.po``);
:mod:`lab.mistakes` reads the English with ``lang="en"`` to build its records. Project
names and issue numbers stay as the projects write them, in both languages.
"""

from __future__ import annotations

from lab.i18n import t


def names(lang: str) -> dict[str, str]:
    """key -> the mistake's one-line name."""
    return {
        "retrieved_ideal": t("Ideal built from the retrieved list only", lang),
        "short_ideal": t("Ideal cut at the number retrieved instead of at k", lang),
        "cutoff_ignored": t("DCG summed past the cutoff k", lang),
        "discount_offset": t("Discount log2(i) instead of log2(i + 1)", lang),
        "rank_from_zero": t("Ranks shifted by one: log2(i + 2)", lang),
        "natural_log_dcg": t("Natural log in the DCG, log2 in the ideal", lang),
        "numerator_one": t("Numerator 1 instead of the grade's gain", lang),
        "linear_for_exponential": t("Linear gain where exponential was meant", lang),
        "exponential_for_linear": t("Exponential gain where linear was meant", lang),
        "negative_grades": t("Negative grades let through", lang),
        "zero_query_one": t("All-zero query scored 1", lang),
        "zero_query_averaged": t("All-zero query scored 0 and averaged", lang),
        "mixed_depths": t("Averaging NDCG@k over lists of different lengths", lang),
    }


def whats(lang: str) -> dict[str, str]:
    """key -> what the mistake does, one sentence."""
    return {
        "retrieved_ideal": t("The ideal ordering is made from the retrieved items alone, so a "
                             "relevant document the system never found does not raise IDCG "
                             "and a short, lucky list can score 1.", lang),
        "short_ideal": t("When fewer than k items come back, IDCG is taken at the list's "
                         "length instead of at k, so missing results cost nothing.", lang),
        "cutoff_ignored": t("DCG adds every position of the list while IDCG stops at k, so "
                            "the ratio can pass 1.", lang),
        "discount_offset": t("Rank i is divided by log2(i), with rank 1 set to 1 to avoid "
                             "dividing by zero, so ranks 1 and 2 are worth the same.", lang),
        "rank_from_zero": t("Ranks counted from 1 are put into a formula written for ranks "
                            "counted from 0, so rank i is divided by log2(i + 2) and even "
                            "rank 1 is discounted.", lang),
        "natural_log_dcg": t("DCG is computed with ln(i + 1) and IDCG with log2(i + 1); with "
                             "one base on both sides NDCG would not change, mixed it grows by "
                             "1/ln 2 ≈ 1.443.", lang),
        "numerator_one": t("Every judged item adds 1 / discount whatever its grade, 0 "
                           "included, so the order stops mattering and a list of judged "
                           "items scores 1.", lang),
        "linear_for_exponential": t("The grade itself is added where 2^grade − 1 was meant, "
                                    "which shrinks the lead of the top grades.", lang),
        "exponential_for_linear": t("2^grade − 1 is added where the grade itself was meant, "
                                    "which makes the top grade outweigh the others.", lang),
        "negative_grades": t("Negative grades go through the formula and into the ideal, so "
                             "IDCG can be tiny or negative and NDCG leaves [0, 1].", lang),
        "zero_query_one": t("A query with no relevant document (IDCG = 0) is scored 1, a "
                            "free perfect score that lifts the mean.", lang),
        "zero_query_averaged": t("A query with no relevant document (IDCG = 0) is scored 0 "
                                 "and kept in the mean, so even a perfect system averages "
                                 "below 1.", lang),
        "mixed_depths": t("Queries that return fewer than k items are scored at their own "
                          "length and averaged with the others as if all were NDCG@k.", lang),
    }


def cases(lang: str) -> dict[str, str]:
    """key -> the real case that had the mistake (project and issue number)."""
    return {
        "retrieved_ideal": t("trec_eval #11: its maintainers explain that the ideal holds "
                             "every judged gain of the query, found or not; scikit-learn, "
                             "LightGBM and XGBoost build it from the list they are given.",
                             lang),
        "short_ideal": t("mlflow #24541: ndcg_at_k passed k = len(retrieved) to scikit-learn, "
                         "so one relevant hit of five at k = 5 scored 1.0 instead of about "
                         "0.339.", lang),
        "cutoff_ignored": t("lenskit #309: with k = 2 a perfect three-item list scored about "
                            "1.21, the DCG taken before the list was cut.", lang),
        "discount_offset": t("openagent-eval #223: a relevant document at rank 2 scored a "
                             "perfect 1.0. (Järvelin & Kekäläinen's original discount with "
                             "b = 2 is this one on purpose.)", lang),
        "rank_from_zero": t("neural-collaborative-filtering (yihong-chen) #2: log(2)/log(x + "
                            "2) with ranks that start at 1.", lang),
        "natural_log_dcg": t("Cohere's documentation, #574: the worked example used the "
                             "natural log, the formula log2. ML.NET uses ln throughout, which "
                             "changes DCG but not NDCG.", lang),
        "numerator_one": t("microsoft/recommenders #1749: on Wikipedia's example ndcg_at_k "
                           "gave 1.0 instead of 0.785, every item counted as 1.", lang),
        "linear_for_exponential": t("anserini #92: trec_eval's ndcg_cut.20 (linear gain) "
                                    "did not match the TREC Web track's published figures, "
                                    "computed by gdeval with 2^rel − 1.", lang),
        "exponential_for_linear": t("anserini #92 read the other way: gdeval's or "
                                    "LightGBM's 2^rel − 1 figures set beside trec_eval's or "
                                    "scikit-learn's linear ones.", lang),
        "negative_grades": t("scikit-learn #17639: grades between −0.89 and 0.56 gave NDCG "
                             "396.03; scikit-learn now refuses negative grades.", lang),
        "zero_query_one": t("XGBoost's ndcg scores such a query 1 and ndcg- scores it 0; "
                            "LightGBM scores it 1, and allRank fills in 1.0.", lang),
        "zero_query_averaged": t("scikit-learn #29521: ndcg_score(y, y) is 0.5 when one of "
                                 "two queries has no relevant document.", lang),
        "mixed_depths": t("The mean of mlflow #24541's short lists; trec_eval #11 shows "
                          "the same question from the other side.", lang),
    }
