"""A small HTML reader for page tests: the forms of a fragment (fields and buttons), every start
tag, and the text — so tests can submit what a phone would submit."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class Page(HTMLParser):
    """The forms of a fragment (with their fields and buttons), every start tag, and the text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self._form: dict[str, Any] | None = None
        self._button: dict[str, Any] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if tag == "form":
            self._form = {"attrs": a, "fields": [], "buttons": []}
            self.forms.append(self._form)
        elif tag in ("input", "select") and self._form is not None:
            self._form["fields"].append(a)
        elif tag == "button" and self._form is not None:
            self._button = {**a, "text": ""}
            self._form["buttons"].append(self._button)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "button":
            self._button = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "button":
            self._button = None

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(" ".join(data.split()))
            if self._button is not None:
                self._button["text"] = (self._button["text"] + " " + " ".join(data.split())).strip()

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def all_text(self) -> str:
        return " ".join(self.text)

    words = all_text

    def button(self, name: str, value: str) -> tuple[dict[str, Any], dict[str, Any]]:
        for form in self.forms:
            for b in form["buttons"]:
                if b.get("name") == name and b.get("value") == value:
                    return form, b
        raise AssertionError(f"no button {name}={value}")

    def form_with(self, name: str, value: str | None = None) -> dict[str, Any]:
        for form in self.forms:
            for f in form["fields"]:
                if f.get("name") == name and (value is None or f.get("value") == value):
                    return form
        raise AssertionError(f"no form with a field {name}={value}")
