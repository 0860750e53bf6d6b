"""How the address inside QR codes is found. These tests send nothing: sockets are fakes."""

from __future__ import annotations

import socket

from scorekeeper.web.lan import is_reachable_address, lan_address, public_base


class FakeSocket:
    """Records connect() calls and answers getsockname() from a table; sends no packet."""

    def __init__(self, answers: dict[str, str | None], calls: list[str]) -> None:
        self.answers = answers
        self.calls = calls
        self.target = ""

    def connect(self, address: tuple[str, int]) -> None:
        self.target = address[0]
        self.calls.append(self.target)
        if self.answers.get(self.target) is None:
            raise OSError("network unreachable")

    def getsockname(self) -> tuple[str, int]:
        return (self.answers[self.target] or "", 40000)

    def close(self) -> None:
        pass


def factory(answers: dict[str, str | None], calls: list[str]):
    def make(family: int, kind: int) -> FakeSocket:
        assert family == socket.AF_INET and kind == socket.SOCK_DGRAM  # UDP connect sends nothing
        return FakeSocket(answers, calls)
    return make


def test_route_probe_finds_lan_address() -> None:
    calls: list[str] = []
    assert lan_address(factory({"10.255.255.255": "192.168.1.23"}, calls), lambda: []) == "192.168.1.23"
    assert calls == ["10.255.255.255"]


def test_loopback_answers_are_skipped_then_hostname_used() -> None:
    calls: list[str] = []
    answers = {"10.255.255.255": "127.0.0.1", "192.168.255.255": None, "172.31.255.255": "0.0.0.0"}
    assert lan_address(factory(answers, calls), lambda: ["127.0.1.1", "10.0.0.7"]) == "10.0.0.7"
    assert len(calls) == 3


def test_no_network_at_all_gives_none() -> None:
    assert lan_address(factory({}, []), lambda: ["127.0.0.1"]) is None

    def broken() -> list[str]:
        raise OSError("no hostname")
    assert lan_address(factory({}, []), broken) is None


def test_reachable_addresses() -> None:
    assert is_reachable_address("192.168.0.4") and is_reachable_address("10.1.1.1")
    for bad in ("127.0.0.1", "0.0.0.0", "169.254.3.3", "::1", "not-an-ip", "224.0.0.1"):
        assert not is_reachable_address(bad)


def test_public_base_prefers_public_url_then_lan_never_localhost() -> None:
    assert public_base("https://cards.example.org/", 5000, finder=lambda: "10.0.0.2") == "https://cards.example.org"
    assert public_base("", 5000, finder=lambda: "10.0.0.2") == "http://10.0.0.2:5000"
    assert public_base("", 80, finder=lambda: "10.0.0.2") == "http://10.0.0.2"
    assert public_base("", 5000, finder=lambda: None, fallback="http://myhost:5000/") == "http://myhost:5000"
