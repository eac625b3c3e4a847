"""The "Write it yourself" page's words, in English and 中文: each exercise's title, task and
worked example, the names of the mistakes the catalogue does not hold (ties), and what a run's
outcome says. Formulas and code stay as written in both languages.
"""

from __future__ import annotations

from lab import mistakes as M
from lab.i18n import t
from lab.text import fmt


def title(key: str, lang: str) -> str:
    return {
        "dcg": t("DCG with linear gain", lang),
        "dcg_exp": t("DCG with exponential gain", lang),
        "idcg": t("IDCG from the judged pool", lang),
        "ndcg": t("NDCG@k", lang),
        "mean_ndcg": t("Queries with nothing relevant", lang),
        "dcg_ties": t("Tied scores, averaged", lang),
        "dcg_docid": t("Tied scores, broken by doc id", lang),
        "ndcg_beyond": t("A cutoff beyond the list", lang),
        "evaluate": t("trec_eval's ndcg_cut_10 from TREC lines", lang),
    }[key]


def task(key: str, lang: str) -> str:
    """The task in words, with a worked example (Markdown written by us, never user text)."""
    return {
        "dcg": t("Write `dcg(grades, k=None)`: the grades are in rank order (rank 1 first); "
                 "add each grade divided by log2(rank + 1), over the first k ranks (all of "
                 "them when k is None or larger than the list).\n\nWorked example: "
                 "`dcg([3, 2, 3, 0, 1, 2], k=4)` = 3/log2(2) + 2/log2(3) + 3/log2(4) + "
                 "0/log2(5) = 3 + 1.262 + 1.500 + 0 = **5.762**.", lang),
        "dcg_exp": t("Write `dcg_exp(grades, k=None)`: as `dcg`, but each grade g gains "
                     "2^g − 1 (Burges et al. 2005), which puts the top grades far ahead."
                     "\n\nWorked example: `dcg_exp([3, 2, 3, 0, 1, 2], k=4)` = 7/1 + 3/1.585 "
                     "+ 7/2 + 0 = **12.393**.", lang),
        "idcg": t("Write `idcg(judged, k=None)`: the DCG (linear gain) of the best possible "
                  "ranking of every judged grade of the query, retrieved or not: sort them, "
                  "highest first, and cut at k.\n\nWorked example: `idcg([3, 2, 3, 0, 1, 2, "
                  "3, 2], k=4)`: the ideal is 3, 3, 3, 2, so 3 + 3/1.585 + 3/2 + 2/2.322 = "
                  "**7.254**.", lang),
        "ndcg": t("Write `ndcg(grades, k=None, unretrieved=())`: DCG@k of the ranking over "
                  "IDCG@k, the ideal made from the ranking's grades *and* the judged grades "
                  "it never retrieved (`unretrieved`). Return None when IDCG@k is 0.\n\n"
                  "Worked example: `ndcg([3, 2, 3, 0, 1, 2], k=4, unretrieved=[3, 2])` = "
                  "5.762 / 7.254 = **0.794**.", lang),
        "mean_ndcg": t("Write `mean_ndcg(queries, k)`: `queries` is a list of `[grades, "
                       "unretrieved]` pairs; return the mean NDCG@k over the queries that "
                       "have something relevant to find. A query whose grades are all 0 "
                       "has no NDCG (0/0): leave it out of the mean, neither 0 nor 1. When no "
                       "query is left, return None.\n\nWorked example: `mean_ndcg([[[1, 1, "
                       "0], []], [[0, 0, 0], []]], 3)` = 1.000 (the second query is left out; "
                       "counted as 0 it would be 0.500).", lang),
        "dcg_ties": t("Write `dcg_ties(scores, grades, k=None)`: the items come in any order; "
                      "rank them by score, highest first. Items with equal scores share "
                      "their places: each place of a tied group gets the group's mean gain "
                      "(McSherry & Najork 2008, scikit-learn).\n\nWorked example: "
                      "`dcg_ties([0.9, 0.9, 0.5], [0, 2, 1], k=1)`: the two tied items share "
                      "ranks 1–2, mean gain (0 + 2)/2 = 1, so DCG@1 = 1/log2(2) = **1.000**.",
                      lang),
        "dcg_docid": t("Write `dcg_docid(docids, scores, grades, k=None)`: rank by score, "
                       "highest first, and break ties as trec_eval does: by doc id, "
                       "*descending* (as strings).\n\nWorked example: `dcg_docid(['d1', "
                       "'d2', 'd3'], [0.9, 0.9, 0.5], [0, 2, 1], k=1)`: d2 comes before d1, "
                       "so DCG@1 = **2.000**.", lang),
        "ndcg_beyond": t("Write `ndcg(grades, k=None, unretrieved=())` again, now for a "
                         "cutoff k longer than the list: DCG has nothing past the list, but "
                         "the ideal still has k places to fill from the judged pool.\n\n"
                         "Worked example (mlflow #24541): `ndcg([1], k=5, unretrieved=[1, 1, "
                         "1, 1])` = 1 / (1 + 1/1.585 + 1/2 + 1/2.322 + 1/2.585) = "
                         "**0.339**, not 1.", lang),
        "evaluate": t("Write `evaluate(qrels_lines, run_lines, k=10)`: qrels lines are "
                      "`qid 0 docid grade`, run lines `qid Q0 docid rank score tag`. Return "
                      "`{qid: NDCG@k}` for each query of the run that has judgments, as "
                      "trec_eval computes `ndcg_cut_k`: rank by score (ties: doc id "
                      "descending; the rank column is ignored), a document without a "
                      "judgment gains 0, negative grades count as 0, the ideal comes from "
                      "every judged document of the query, and a query with nothing "
                      "relevant scores 0.\n\nThe second visible case is the bundled sample "
                      "(`assets/samples`, qrels and system_a): your mean should be "
                      "trec_eval's `ndcg_cut_10` all.", lang),
    }[key]


def mistake_name(key: str, lang: str) -> str:
    """A mistake's name: the catalogue's, or one of the ties' (lab.code_exercises)."""
    other = {
        "ideal_unsorted": t("The ideal not sorted: the judged grades taken in the order "
                            "given", lang),
        "ties_input_order": t("Tied scores left in the order they came", lang),
        "ties_docid_ascending": t("Ties broken by doc id ascending (trec_eval: "
                                  "descending)", lang),
        "ties_averaged_docid": t("Tied scores averaged where trec_eval breaks them by doc "
                                 "id", lang),
    }
    return other[key] if key in other else M.name(key, lang)


def mistake_case(key: str, lang: str) -> str | None:
    """The real tool that shipped the mistake, when the catalogue holds it."""
    return M.case(key, lang) if key in M.KEYS else None


def outcome_message(report, lang: str = "en") -> str:
    """What a run's problem (lab.code_check.Report.problem) means, naming what to change;
    empty when the code ran."""
    p, d = report.problem, report.detail
    if p is None:
        return ""
    return {
        "unavailable": t("Code cannot be run on this server: {why}", lang, why=d),
        "busy": t("The server is running many learners' code: press Run the tests again "
                  "in a minute.", lang),
        "timeout": t("Your code ran longer than the time allowed: an endless loop? "
                     "Check each while loop's condition.", lang),
        "killed": t("Your code ended the run before its results (exit, kill or a crash, "
                    "status {status}): remove the call that ends the program.", lang,
                    status=d),
        "load_error": t("Your code stopped before the tests could start: {error}", lang,
                        error=d),
        "missing": t("No function named {name} in your code: define it with def {name}(...).",
                     lang, name=d),
        "bad_output": t("Your code wrote over the test's results: remove what writes to "
                        "file descriptors.", lang),
    }[p]


def call_problem(got: dict, lang: str) -> str:
    """What the learner's function gave for one case, in words."""
    if "timeout" in got:
        return t("did not finish within {s} s of CPU: an endless loop?", lang,
                 s=fmt(got["timeout"], 1))
    if "error" in got:
        return t("raised {error}", lang, error=got["error"])
    return ""
