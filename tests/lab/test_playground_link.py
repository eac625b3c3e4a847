"""The playground's link: what it carries, what it refuses, and how long it may get."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from lab import playground as P


def params_of(labels, grades, **kw):
    return P.ranking_query_params(labels, grades, **kw)


def read(params):
    return P.from_query_params(lambda name: ([params[name]] if isinstance(params.get(name), str)
                                             else list(params.get(name) or [])))


def test_a_link_round_trips_labels_grades_k_gain_scale_and_the_unretrieved_grades():
    params = params_of(["Doc A", "Doc B"], [3, 1], k=1, gain="exponential",
                       unretrieved=(2,))
    state, problem = read(params)
    assert problem is None
    assert state.labels == ("Doc A", "Doc B") and state.grades == (3.0, 1.0)
    assert (state.k, state.gain, state.scale, state.unretrieved) == (1, "exponential", "0-3",
                                                                      (2.0,))
    assert state.judged == (3.0, 1.0, 2.0)


@pytest.mark.parametrize("k", ["²", "٣", "1e3", " 2", "-1", "0", "9", "9" * 5000])
def test_a_k_that_is_not_a_plain_whole_number_in_range_is_refused_in_our_words(k):
    """k=² and a 5,000-digit k: our message, not Python's int() error."""
    state, problem = read({"g": "3,2,1", "k": k})
    assert state is None
    assert "is not a whole number from 1 to 3" in problem
    assert "int()" not in problem and "sys.set_int_max_str_digits" not in problem
    assert len(problem) < 120  # a huge k is quoted cut short


def test_a_link_that_fits_is_left_as_it_is():
    params = params_of(["a", "b"], [1, 0])
    assert P.within_link_limit(params) == (params, None)


def test_200_labels_of_80_characters_are_shortened_to_fit_8_kb():
    """17.4 KB of labels (the issue's case) becomes a link under 8,000 bytes; grades stay."""
    labels = [f"{i:03d} " + "x" * 76 for i in range(200)]
    params = params_of(labels, [i % 4 for i in range(200)], k=10)
    assert P.link_size(params) > 16_000
    short, note = P.within_link_limit(params)
    assert P.link_size(short) <= P.MAX_LINK and note.startswith("labels shortened")
    assert short["g"] == params["g"] and short["k"] == "10"
    state, problem = read(short)
    assert problem is None and len(state.items) == 200


def test_cjk_labels_are_measured_as_percent_encoded_bytes():
    """25 CJK labels of 80 characters: 18.2 KB once percent-encoded (9 bytes a character)."""
    labels = ["归一化折损累计增益" * 9][:1] * 25
    params = params_of(labels, [1] * 25)
    assert P.link_size(params) == len(urlencode(params, doseq=True)) > 16_000
    short, note = P.within_link_limit(params)
    assert P.link_size(short) <= P.MAX_LINK and note


def test_when_even_short_labels_do_not_fit_they_are_left_out():
    params = params_of([f"label {i}" for i in range(200)], [1.25] * 200, unretrieved=[2.5] * 200)
    short, note = P.within_link_limit(params, limit=2600)
    assert "l" not in short and note == "labels left out"
    state, problem = read(short)
    assert problem is None and state.labels[0] == "Item 1"


@pytest.mark.parametrize("grades, token", [("٣,2,1", "'٣'"), ("3,1_000,1", "'1_000'"),
                                           ("３,2", "'３'"), ("3,²", "'²'")])
def test_grades_take_the_same_digits_as_k_ascii_only(grades, token):
    """A link's grades in Arabic-Indic or full-width digits, or 1_000, are refused as k=٣ is,
    in a message that quotes them (Python's float() alone reads all but ²)."""
    state, problem = read({"g": grades, "scale": "free"})
    assert state is None
    assert problem == f"the grades (g) has {token}, which is not a number"


@pytest.mark.parametrize("param", ["unretrieved", "pool"])
@pytest.mark.parametrize("text", ["٢", "1_0"])
def test_the_unretrieved_grades_take_ascii_digits_only_in_a_link_and_in_the_box(param, text):
    """The message names the link's parameter as the link wrote it (``pool=``: older links)."""
    state, problem = read({"g": "3,2", param: text, "scale": "free"})
    assert state is None and problem == (f"the unretrieved grades ({param}) have {text!r}, "
                                         "which is not a number")
    with pytest.raises(ValueError, match=f"^the unretrieved grades have {text!r}, which is "
                                         "not a number$"):
        P.parse_numbers(text, None)


def test_a_link_writes_unretrieved_and_an_older_pool_link_opens_the_same_state():
    """Links written before the rename say ``pool=``: they open what ``unretrieved=`` opens;
    the link the playground writes says ``unretrieved=`` (never ``pool=``)."""
    params = params_of(["Doc A", "Doc B"], [3, 1], k=2, unretrieved=(3, 2))
    assert params["unretrieved"] == "3,2" and "pool" not in params
    old = {("pool" if name == "unretrieved" else name): value for name, value in params.items()}
    assert read(old) == read(params) and read(old)[0].unretrieved == (3.0, 2.0)
    assert P.to_query_params(read(old)[0]) == params
    # both in one link: the new name wins
    assert read({**params, "pool": "1"})[0].unretrieved == (3.0, 2.0)
    assert read({"pool": "3"}) == (None, "it has labels or settings but no grades (g)")


@pytest.mark.parametrize("text, values", [("3, -1.5, +2", [3, -1.5, 2]), (".5, 2.", [0.5, 2]),
                                          ("1e1", [10])])
def test_plain_ascii_numbers_still_read(text, values):
    assert P.parse_numbers(text, "g") == values
