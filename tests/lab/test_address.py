"""The address phones open (lab/address.py): a configured public address, the teacher's own
when others can reach it, else this machine's network address, found without a request to
any other host."""

from __future__ import annotations

import ipaddress

import pytest

from lab import address as A


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1",
                                  "app.localhost", ""])
def test_loopback_hosts_are_told_apart(host):
    assert A.is_loopback(host)


@pytest.mark.parametrize("host", ["192.168.1.5", "10.0.0.2", "ndcg.example.org", "fe80::1"])
def test_other_hosts_are_not_loopback(host):
    assert not A.is_loopback(host)


def test_network_addresses_hold_no_loopback_or_link_local_address():
    for a in A.network_addresses():
        ip = ipaddress.ip_address(a)
        assert not (ip.is_loopback or ip.is_link_local or ip.is_unspecified), a


def test_a_teacher_on_localhost_sends_phones_to_the_network_address_with_the_same_port():
    got = A.reach("http://localhost:8501", public=None, listening="",
                  addresses=["192.168.1.5", "10.0.0.7"])
    assert (got.base, got.how) == ("http://192.168.1.5:8501", "network")
    assert A.reach("http://127.0.0.1:8501", public=None, listening="0.0.0.0",
                   addresses=["10.0.0.7"]).base == "http://10.0.0.7:8501"


def test_a_server_listening_on_loopback_only_keeps_the_teachers_address_and_says_so():
    got = A.reach("http://127.0.0.1:8501", public=None, listening="127.0.0.1",
                  addresses=["192.168.1.5"])
    assert (got.base, got.how) == ("http://127.0.0.1:8501", "local_only")
    assert A.reach("http://localhost:8501", public=None, listening="",
                   addresses=[]).how == "none"


def test_the_public_address_comes_from_the_environment_then_secrets_toml(tmp_path):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('[class]\npublic_url = "https://lab.example.edu/ndcg/"\n')
    assert A.public_url({}, secrets_file=secrets) == "https://lab.example.edu/ndcg"
    assert A.public_url({"NDCG_LAB_PUBLIC_URL": "http://10.1.2.3:8501"},
                        secrets_file=secrets) == "http://10.1.2.3:8501"
    assert A.public_url({}, secrets_file=tmp_path / "none.toml") is None
    assert A.reach("http://localhost:8501", public="https://lab.example.edu/ndcg",
                   listening="127.0.0.1", addresses=[]).base == "https://lab.example.edu/ndcg"


@pytest.mark.parametrize("bad", ["ndcg.example.org", "ftp://x", "http://"])
def test_a_public_address_that_is_not_one_is_refused_with_an_example(bad):
    with pytest.raises(ValueError, match="https://ndcg.example.org"):
        A.public_url({"NDCG_LAB_PUBLIC_URL": bad})
