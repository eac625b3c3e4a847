"""NDCG for many queries at once, vectorized: no Python loop per query."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ._checks import MAX_EXP_GRADE, check_k, denominators
from .options import CONVENTIONS, check_option

__all__ = ["evaluate", "conventions_table"]


def _column_name(k):
    return "ndcg" if k is None else f"ndcg@{k}"


def _cutoffs(k):
    ks = [k] if k is None or isinstance(k, (numbers.Number, str)) else list(k)
    if not ks:
        raise ValueError("k is empty: give at least one cutoff, e.g. k=(5, 10), or None.")
    out = []
    for c in ks:
        c = check_k(c)
        if c not in out:
            out.append(c)
    return out


def _frame(df, name, columns):
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame with columns {columns}; "
                         f"got {type(df).__name__}.")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks column(s) {missing}: it needs {columns}, it has "
                         f"{list(df.columns)}.")
    return df


def _id_column(df, name, column):
    """An id column as text; a missing id is refused, naming its row."""
    values = df[column]
    missing = values.isna().to_numpy()
    if missing.any():
        i = int(np.argmax(missing))
        raise ValueError(f"{name} row {i + 1} has no {column} (the cell is empty): every row "
                         "needs a qid and a docid.")
    if pd.api.types.is_string_dtype(values.dtype) and values.dtype != object:
        return values
    return values.astype(str)  # numbers and mixed object columns compare as text


_DENSE_SLACK = 65_536  # key tables up to this size (plus twice the rows) are always fine


def _codes(a, b, *, sort):
    """Integer codes for two id columns over one shared vocabulary (ids compared as text).

    Each column is factorized on its own (fast on Arrow strings); only the two much smaller
    sets of unique ids are merged.
    """
    ca, ua = pd.factorize(a)
    cb, ub = pd.factorize(b)
    merged, uniq = pd.factorize(np.concatenate([np.asarray(ua, dtype=object),
                                                np.asarray(ub, dtype=object)]), sort=sort)
    return merged[: len(ua)][ca], merged[len(ua):][cb], np.asarray(uniq, dtype=object)


def _dense_rank(values):
    """0-based rank of each value among the distinct values (equal values share a rank)."""
    order = np.argsort(values)
    sv = values[order]
    ranks = np.empty(values.size, np.int64)
    ranks[order] = np.cumsum(np.r_[True, sv[1:] != sv[:-1]]) - 1 if values.size else 0
    return ranks


def _sort_rows(q, primary_desc, tiebreak=None):
    """Row order by query, then ``primary_desc`` descending, then ``tiebreak`` ascending
    (stable input order when None). One int64 argsort of a packed key: much faster than
    np.lexsort; falls back to it when the key would not fit in 63 bits."""
    n = q.size
    if n == 0:
        return np.arange(0)
    p = _dense_rank(primary_desc)
    if tiebreak is None:
        t = np.arange(n)
    elif tiebreak.dtype.kind in "iu":  # integer codes already order rows: no ranking pass
        t = tiebreak.astype(np.int64) - int(tiebreak.min())
    else:
        t = _dense_rank(tiebreak)
    np_, nt = int(p.max()) + 1, int(t.max()) + 1
    bp, bt = np_.bit_length(), nt.bit_length()
    if int(q.max()).bit_length() + bp + bt > 62:
        return np.lexsort((t, -p, q))
    key = (q.astype(np.int64) << (bp + bt)) | ((np_ - 1 - p) << bt) | t
    return np.argsort(key, kind="stable" if tiebreak is None else "quicksort")


def _numbers(df, name, column):
    values = pd.to_numeric(df[column], errors="coerce").to_numpy(dtype=np.float64,
                                                                  na_value=np.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        i = int(np.argmax(bad))
        row = df.iloc[i]
        raise ValueError(
            f"{name} row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r}) has {column} "
            f"{df[column].iloc[i]}: it must be a finite number."
        )
    return values


def _duplicates(keys, df, name):
    dup = pd.Series(keys).duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        row = df.iloc[i]
        raise ValueError(
            f"{name} lists docid {row['docid']!r} twice for qid {row['qid']!r} (row {i + 1}): "
            "each document may appear once per query."
        )


def _gains(grades, gain, negative, qrels, name="qrels"):
    if negative == "error" and (grades < 0).any():
        i = int(np.argmax(grades < 0))
        row = qrels.iloc[i]
        raise ValueError(
            f"{name} row {i + 1} (qid {row['qid']!r}, docid {row['docid']!r}) has negative "
            f"grade {grades[i]:g}, refused by negative='error'; choose negative='zero' "
            "(trec_eval) or 'keep'."
        )
    if negative == "zero":
        grades = np.maximum(grades, 0.0)
    if isinstance(gain, dict) or not isinstance(gain, str):
        uniq, inv = np.unique(grades, return_inverse=True)
        mapped = []
        for g in uniq:
            key = int(g) if float(g).is_integer() else g
            if key not in gain:
                raise ValueError(f"the gain mapping has no gain for grade {g:g}: add one.")
            mapped.append(float(gain[key]))
        return np.asarray(mapped)[inv]
    if gain == "exponential":
        if (grades > MAX_EXP_GRADE).any():
            g = grades[grades > MAX_EXP_GRADE][0]
            raise ValueError(f"grade {g:g}: 2^{g:g} − 1 overflows a float; use linear gain.")
        return np.exp2(grades) - 1.0
    return grades


def _group_ranks(q):
    """1-based rank of each row within its run of equal (sorted) query codes."""
    n = q.size
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]) if n else np.array([], int)
    sizes = np.diff(np.r_[starts, n])
    return np.arange(n) - np.repeat(starts, sizes) + 1


def _dcg_at(q, ranks, gains, cutoffs, nq, discount, base):
    """DCG@c per query for every cutoff c; rows with zero gain add nothing and are dropped."""
    nz = gains != 0
    q, ranks, gains = q[nz], ranks[nz], gains[nz]
    maxrank = int(ranks.max()) if ranks.size else 1
    w = gains / denominators(maxrank, discount, base)[ranks - 1]
    out = {}
    for c in cutoffs:
        sel = w if c is None else np.where(ranks <= c, w, 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            out[c] = np.bincount(q, weights=sel, minlength=nq)
    return out


def _ideal_at(q, gains, cutoffs, nq, discount, base):
    """IDCG@c per query: the DCG of each query's gains sorted descending.

    Gains usually take a handful of values, so no row sort is needed: count the items of
    each gain level per query; the level's items fill ranks ``start+1 .. end`` and add
    ``gain * (D[end] - D[start])`` with D the cumulative discount.
    """
    codes, levels = pd.factorize(gains)
    n_levels = len(levels)
    if n_levels == 0:
        return {c: np.zeros(nq) for c in cutoffs}
    if n_levels > 64 or nq * n_levels > 20_000_000:
        order = _sort_rows(q, gains)
        qs = q[order]
        return _dcg_at(qs, _group_ranks(qs), gains[order], cutoffs, nq, discount, base)
    by_gain = np.argsort(-levels, kind="stable")
    level_of = np.empty(n_levels, np.int64)
    level_of[by_gain] = np.arange(n_levels)
    counts = np.bincount(q.astype(np.int64) * n_levels + level_of[codes],
                         minlength=nq * n_levels).reshape(nq, n_levels)
    ends = np.cumsum(counts, axis=1)
    starts = ends - counts
    longest = int(ends[:, -1].max())
    cum = np.r_[0.0, np.cumsum(1.0 / denominators(max(longest, 1), discount, base))]
    level_gain = np.asarray(levels, dtype=np.float64)[by_gain]
    out = {}
    for c in cutoffs:
        cap = longest if c is None else min(c, longest)
        e, b = np.minimum(ends, cap), np.minimum(starts, cap)
        with np.errstate(over="ignore", invalid="ignore"):
            out[c] = (cum[e] - cum[b]) @ level_gain
    return out


def evaluate(qrels, run, *, k=(5, 10), convention="trec_eval", gain=None, discount="log2",
             base=2, ties=None, zero_idcg=None, negative=None, ideal_pool=None,
             missing="skip", details=False) -> pd.DataFrame:
    """NDCG@k of every query of a run against judgments.

    Parameters
    ----------
    qrels : DataFrame
        Judgments, columns ``qid, docid, relevance``.
    run : DataFrame
        Retrieved documents, columns ``qid, docid, score`` (higher score ranks first).
    k : int, None or sequence of them
        Cutoffs; one output column each, ``ndcg@5`` ... and ``ndcg`` for None (whole run).
    convention : {'trec_eval', 'sklearn', 'lightgbm', 'xgboost', 'ranx'}
        A named bundle of ``gain, ties, zero_idcg, negative, ideal_pool`` (see
        ``ndcg_core.CONVENTIONS``); each keyword given explicitly overrides it.
    gain, discount, base, ties, zero_idcg, negative
        As in :func:`ndcg_core.ndcg`.
    ideal_pool : {'judged', 'retrieved'}
        Build the ideal from every judged document of the query (trec_eval) or from the
        retrieved ones only (scikit-learn).
    missing : {'skip', 'zero'}
        Judged queries absent from the run: left out (trec_eval) or scored 0 (trec_eval -c).
    details : bool
        Also return ``dcg@k``, ``idcg@k``, ``n_retrieved`` and ``n_relevant`` columns.

    Returns
    -------
    DataFrame indexed by ``qid`` (sorted as strings, like trec_eval), one column per cutoff.
    Run queries without judgments are left out; ``.attrs['unjudged_queries']`` and
    ``.attrs['missing_queries']`` list them.

    With ``convention='trec_eval'`` this reproduces trec_eval's ``ndcg`` and ``ndcg_cut.k``:
    gain = the grade (negative grades count 0), ranking by score descending then doc id
    descending, the ideal from all judged documents, a query with no relevant document 0.
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {sorted(CONVENTIONS)}; got "
                         f"{convention!r}.")
    preset = CONVENTIONS[convention]
    gain = check_option("gain", preset["gain"] if gain is None else gain)
    ties = check_option("ties", preset["ties"] if ties is None else ties)
    rule = check_option("zero_idcg", preset["zero_idcg"] if zero_idcg is None else zero_idcg)
    negative = check_option("negative", preset["negative"] if negative is None else negative)
    pool = check_option("ideal_pool", preset["ideal_pool"] if ideal_pool is None else ideal_pool)
    missing = check_option("missing", missing)
    check_option("discount", discount)
    cutoffs = _cutoffs(k)

    _frame(qrels, "qrels", ["qid", "docid", "relevance"])
    _frame(run, "run", ["qid", "docid", "score"])
    grades = _numbers(qrels, "qrels", "relevance")
    scores = _numbers(run, "run", "score")

    # one integer code per query and per document, shared by both frames
    jq, rq_, quniq = _codes(_id_column(qrels, "qrels", "qid"), _id_column(run, "run", "qid"),
                            sort=True)
    jd, rd_, duniq = _codes(_id_column(qrels, "qrels", "docid"),
                            _id_column(run, "run", "docid"), sort=(ties == "docid"))
    nq, nd = len(quniq), max(len(duniq), 1)
    jkey = jq.astype(np.int64) * nd + jd
    rkey = rq_.astype(np.int64) * nd + rd_
    # (query, document) keys index a table when there are not many more keys than rows:
    # repeats and gain look-ups then cost one pass, not a sort and a hash of each frame
    n_keys = nq * nd
    dense = n_keys <= 2 * (jkey.size + rkey.size) + _DENSE_SLACK
    if dense:
        for keys, frame, name in ((jkey, qrels, "qrels"), (rkey, run, "run")):
            seen = np.zeros(n_keys, bool)
            seen[keys] = True
            if np.count_nonzero(seen) != keys.size:
                _duplicates(keys, frame, name)  # names the first repeated row
    else:
        jorder = np.argsort(jkey)
        jsorted = jkey[jorder]
        if jsorted.size > 1 and (jsorted[1:] == jsorted[:-1]).any():
            _duplicates(jkey, qrels, "qrels")
        _duplicates(rkey, run, "run")

    judged_gain = _gains(grades, gain, negative, qrels)
    judged_q = np.zeros(nq, bool)
    judged_q[jq] = True
    in_run = np.zeros(nq, bool)
    in_run[rq_] = True

    # keep run rows of judged queries; look up each retrieved document's gain
    keep = judged_q[rq_]
    rq_, rd_, rkey, s = rq_[keep], rd_[keep], rkey[keep], scores[keep]
    if dense:
        gain_of = np.zeros(n_keys)
        gain_of[jkey] = judged_gain
        g = gain_of[rkey]  # 0 for documents without a judgment
    else:
        pos = np.searchsorted(jsorted, rkey)
        pos_c = np.minimum(pos, max(jsorted.size - 1, 0))
        found = (jsorted.size > 0) & (jsorted[pos_c] == rkey) if jsorted.size else np.zeros(
            rkey.size, bool)
        g = np.where(found, judged_gain[jorder[pos_c]] if jsorted.size else 0.0, 0.0)

    # rank: query, then score descending, then the tie rule
    tiebreak = {"docid": -rd_, "optimistic": -g, "pessimistic": g}.get(ties)
    order = _sort_rows(rq_, s, tiebreak)  # 'input' and 'average' keep the input order
    q_sorted, g_sorted, s_sorted = rq_[order], g[order], s[order]
    ranks = _group_ranks(q_sorted)
    if ties == "average" and q_sorted.size:
        new = np.r_[True, (q_sorted[1:] != q_sorted[:-1]) | (s_sorted[1:] != s_sorted[:-1])]
        grp = np.cumsum(new) - 1
        g_sorted = (np.bincount(grp, g_sorted) / np.bincount(grp))[grp]
    dcgs = _dcg_at(q_sorted, ranks, g_sorted, cutoffs, nq, discount, base)

    # ideal: gains sorted descending within each query
    if pool == "judged":  # an ideal drawn from the judged pool leaves harmful items out
        iq, ig = jq, np.maximum(judged_gain, 0.0)
    else:
        iq, ig = rq_, g
    idcgs = _ideal_at(iq, ig, cutoffs, nq, discount, base)

    for c in cutoffs:
        if not (np.isfinite(dcgs[c]).all() and np.isfinite(idcgs[c]).all()):
            raise ValueError("the DCG overflows a float: use linear gain or smaller grades.")
    evaluated = judged_q & (in_run | (missing == "zero"))
    result = {}
    zero_value = {"zero": 0.0, "nan": np.nan, "one": 1.0}[rule]
    for c in cutoffs:
        d, i = dcgs[c], idcgs[c]
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.where(i > 0, d / np.where(i > 0, i, 1.0), zero_value)
        v = np.where(in_run, v, 0.0)  # -c: judged but not retrieved scores 0
        result[_column_name(c)] = v[evaluated]
        if details:
            result[f"dcg@{c}" if c else "dcg"] = d[evaluated]
            result[f"idcg@{c}" if c else "idcg"] = i[evaluated]
    if details:
        result["n_retrieved"] = np.bincount(rq_, minlength=nq)[evaluated]
        result["n_relevant"] = np.bincount(jq, weights=(grades > 0).astype(float), minlength=nq)[
            evaluated].astype(int)
    out = pd.DataFrame(result, index=pd.Index(quniq[evaluated].astype(object), name="qid"))
    out.attrs["unjudged_queries"] = list(quniq[in_run & ~judged_q])
    out.attrs["missing_queries"] = list(quniq[judged_q & ~in_run])
    out.attrs["settings"] = dict(convention=convention, gain=gain, ties=ties, zero_idcg=rule,
                                 negative=negative, ideal_pool=pool, missing=missing,
                                 discount=discount)
    return out


def conventions_table() -> pd.DataFrame:
    """The convention presets as a table: one row per library, one column per option."""
    return pd.DataFrame(CONVENTIONS).T.rename_axis("convention")
