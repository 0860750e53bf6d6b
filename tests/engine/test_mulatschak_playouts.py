"""Random legal Mulatschak games played with real (simulated) cards through every phase and option.

A simulated table shuffles a real pack, cuts or knocks, deals 3 + 2, declares weak hands, bids,
names trumps (sometimes delayed), decides to play or stay home, exchanges (normal, on sight,
Bridge, on the Sau, on the seven) and plays five tricks. Now and then a player enters their hand
(so the engine checks live) or revokes on purpose (so the engine must propose exactly those
revokes). The invariants: the engine's stock and thrown-card counts match the real cards, every
card turns up once, five tricks per deal, each sheet row agrees with an independent score
calculation, totals run on from 21, the game ends exactly when someone reaches 0, and the same
facts entered in tally mode give the same sheet. Every hint offered on the way is accepted.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.cards import Card, german_pack
from scorekeeper.engine.analysis.desk_tricks import judge_trick, trick_game
from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.mulatschak import BREACH_RULES, ORDER, Mulatschak, MulState, Opts, resume
from scorekeeper.engine.tricks import audit_revokes, legal_cards, suit_of

R = Mulatschak()
WELI = Card("W", "")
HIGH = {"A", "K", "O", "U", "W"}
MAX_DEALS = 6


class Table:
    """Real cards on a simulated table; every move goes through the engine and must be accepted."""

    def __init__(self, rnd: random.Random, n: int, options: dict[str, Any], scores: list[int], dealer: int,
                 revoke_rate: float = 0.06, resolve_rate: float = 0.2) -> None:
        self.rnd = rnd
        self.revoke_rate = revoke_rate
        self.resolve_rate = resolve_rate
        self.n = n
        self.options = options
        self.opts = Opts(**options)
        self.state: MulState = resume(R.new([f"P{i}" for i in range(n)], options), scores, dealer)
        self.hands: list[list[Card]] = []
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.entered: set[int] = set()
        self.illegal: set[tuple[int, int]] = set()
        self.confirmed: set[int] = set()
        self.proposed: set[tuple[int, int]] = set()

    # -- plumbing --
    def send(self, event: dict[str, Any]) -> None:
        if self.rnd.random() < 0.1:
            for hint in R.hints(self.state):   # every hint is a legal event
                R.apply(self.state, hint)
        self.state = R.apply(self.state, event)
        self.proposed |= {(prop.player, prop.trick) for prop in self.state.proposals}
        proposals_name_the_proven_duty(self.state, self.options)

    def js(self) -> dict[str, Any]:
        return R.to_json(self.state)

    def deal_js(self) -> dict[str, Any]:
        data = self.js()["deal"]
        assert isinstance(data, dict)
        return data

    def draw(self) -> Card:
        if not self.stock:
            assert self.opts.reshuffle and self.discards
            self.stock, self.discards = self.discards, []
            self.rnd.shuffle(self.stock)
        return self.stock.pop()

    def can_draw(self) -> bool:
        return bool(self.stock) or (self.opts.reshuffle and bool(self.discards))

    def throw(self, player: int, cards: list[Card]) -> None:
        for card in cards:
            self.hands[player].remove(card)
            self.discards.append(card)

    def check_counts(self) -> None:
        d = self.deal_js()
        assert d["stock"] == len(self.stock) and d["discards"] == len(self.discards)
        pack = 36 if self.opts.pack36 else 33
        played = [c["card"] for t in d["tricks"] for c in t["cards"]]
        assert len(played) == len(set(played))
        held = sum(len(h) for h in self.hands)
        assert held + len(self.stock) + len(self.discards) + len(played) == pack

    def maybe_enter(self, player: int, chance: float) -> None:
        d = self.deal_js()
        if d["decisions"] and d["decisions"][player] == "home":
            return
        if player in d.get("bridge_queue", []):
            return
        if self.rnd.random() < chance:
            self.send({"type": "hand", "player": player, "cards": [str(c) for c in self.hands[player]]})
            self.entered.add(player)

    # -- a deal --
    def play_deal(self) -> None:
        rows = len(self.js()["sheet"])
        for _ in range(30):
            self.attempt()
            if self.js()["over"] or len(self.js()["sheet"]) > rows:
                return
        raise AssertionError("no deal completed in 30 attempts")

    def attempt(self) -> None:
        rnd, n = self.rnd, self.n
        d = self.deal_js()
        assert d["phase"] == "cut"
        cutter = d["cutter"]
        pack = sorted(german_pack(with_sixes=self.opts.pack36))
        rnd.shuffle(pack)
        self.entered, self.illegal, self.confirmed, self.proposed = set(), set(), set(), set()
        self.discards = []
        weli_to = None
        roll = rnd.random()
        if roll < 0.15 and not self.opts.no_knock:
            weli = pack[-1] == WELI
            self.send({"type": "knock", "player": cutter, "weli": weli})
        elif roll < 0.9:
            weli = pack[rnd.randrange(1, len(pack)) - 1] == WELI
            self.send({"type": "cut", "player": cutter, "weli": weli})
        else:
            weli = False   # nobody says anything: a plain cut is implied
        self.hands = [[] for _ in range(n)]
        if weli:
            pack.remove(WELI)
            weli_to = cutter
            self.hands[cutter].append(WELI)
        for p in range(n):
            while len(self.hands[p]) < 5:
                self.hands[p].append(pack.pop())
        self.stock = pack
        assert weli_to is None or self.deal_js()["weli_to"] == weli_to
        for p in range(n):
            self.maybe_enter(p, 0.15)
        self.check_counts()
        high = HIGH - ({"W"} if self.opts.weli_weak else set())
        weak = [p for p in range(n) if not any(c.rank in high for c in self.hands[p])]
        if weak and (not self.opts.collapse_optional or rnd.random() < 0.5):
            self.send({"type": "collapse", "player": weak[0], "cards": [str(c) for c in self.hands[weak[0]]]})
            assert self.deal_js()["phase"] == "cut"
            return
        self.bidding()
        if self.deal_js()["phase"] == "cut":   # thrown in (all passed, MULAT-OPT-ALLPASS-REDEAL)
            return
        self.name_trump()
        while self.deal_js()["phase"] == "stay":
            self.send(rnd.choice(R.hints(self.state)))
        self.exchanges()
        self.check_counts()
        self.tricks()

    def bidding(self) -> None:
        rnd = self.rnd
        scores = self.js()["scores"]
        eligible = [p for p in range(self.n) if scores[p] > 5]
        if eligible and rnd.random() < 0.06:
            others = [p for p in eligible if rnd.random() < 0.3]
            self.send({"type": "muli", "player": rnd.choice(eligible), "together_with": others})
            return
        while self.deal_js()["phase"] == "bidding":
            hints = [h for h in R.hints(self.state) if h["type"] != "muli"]
            passes = [h for h in hints if h["type"] == "pass"]
            bids = [h for h in hints if h["type"] != "pass"]
            if bids and rnd.random() < 0.45:
                small = [h for h in bids if h.get("tricks", 0) < 5] or bids
                self.send(rnd.choice(small if rnd.random() < 0.9 else bids))
            else:
                self.send(passes[0])

    def name_trump(self) -> None:
        rnd, d = self.rnd, self.deal_js()
        declarer = d["declarer"]
        score = self.js()["scores"][declarer]
        pool = d["stock_available"] + (5 if self.opts.reshuffle else 0)
        if not d["muli"] and score > 3 and self.opts.exch_limit >= 5 and pool >= 6 and rnd.random() < 0.15:
            self.delayed_trump(declarer, pool)
        else:
            self.send({"type": "trump", "player": declarer, "suit": rnd.choice("HSLE")})

    def delayed_trump(self, declarer: int, pool: int) -> None:
        self.throw(declarer, list(self.hands[declarer]))
        self.entered.discard(declarer)
        for _ in range(5):
            self.hands[declarer].append(self.draw())
        face_up: list[Card] = []
        suit = ""
        drawn = 5
        while drawn < pool:
            card = self.draw()
            drawn += 1
            face_up.append(card)
            self.hands[declarer].append(card)
            if len(face_up) == 1:
                suit = card.suit if card != WELI else self.rnd.choice("HSLE")
                continue
            if suit_of(card, suit, ORDER) != suit:
                break
        extras = self.rnd.sample(self.hands[declarer], len(self.hands[declarer]) - 5)
        self.throw(declarer, extras)
        event: dict[str, Any] = {"type": "trump", "player": declarer, "delayed": True,
                                 "face_up": [str(c) for c in face_up]}
        if face_up[0] == WELI:
            event["suit"] = suit
        self.send(event)
        assert self.deal_js()["trump"] == suit

    def exchanges(self) -> None:
        while self.deal_js()["phase"] == "exchange":
            d = self.deal_js()
            p = d["to_act"]
            if d["exchange_queue"]:
                self.exchange(p, d)
            else:
                self.serve_bridge(p, d["stock_available"] + 6)
            self.check_counts()
            self.maybe_enter(p, 0.2)

    def exchange(self, p: int, d: dict[str, Any]) -> None:
        rnd, opts, hand = self.rnd, self.opts, self.hands[p]
        trump = d["trump"]
        avail = d["stock_available"]
        extra = 1 if opts.reshuffle else 0
        choices = ["normal"] * 4
        if avail >= 1 and opts.exch_limit >= 1:
            choices.append("sight")
        if opts.exch_limit >= 5 and avail + 5 * extra >= 6:
            choices.append("bridge")
        sau = Card("A", trump)
        if sau in hand and opts.exch_limit >= 4 and avail + 4 * extra >= 5:
            choices += ["sau"] * 2
        if trump == "S" and Card("7", "S") in hand and opts.exch_limit >= 4 and avail + 4 * extra >= 6:
            choices += ["seven"] * 2
        kind = rnd.choice(choices)
        if kind != "normal":
            self.entered.discard(p)
        if kind == "normal":
            count = rnd.randint(0, min(5, avail, opts.exch_limit))
            if count:
                self.entered.discard(p)
            self.throw(p, rnd.sample(hand, count))
            for _ in range(count):
                hand.append(self.draw())
            self.send({"type": "exchange", "player": p, "count": count})
        elif kind == "sight":
            self.throw(p, [rnd.choice(hand)])
            card = self.draw()
            keep = avail < 2 or rnd.random() < 0.5
            if keep:
                hand.append(card)
            else:
                self.discards.append(card)
                hand.append(self.draw())
            self.send({"type": "exchange", "player": p, "kind": "sight", "card": str(card), "keep": keep})
        elif kind == "bridge":
            self.throw(p, list(hand))
            self.send({"type": "exchange", "player": p, "kind": "bridge"})
        else:
            keep_card = sau if kind == "sau" else Card("7", "S")
            draw, extra_throw = (5, 1) if kind == "sau" else (6, 2)
            self.throw(p, [c for c in hand if c != keep_card])
            for _ in range(draw):
                hand.append(self.draw())
            self.throw(p, rnd.sample([c for c in hand if c != keep_card], extra_throw))
            self.send({"type": "exchange", "player": p, "kind": kind})

    def serve_bridge(self, p: int, limit: int) -> None:
        hand = self.hands[p]
        trump = self.deal_js()["trump"]
        for _ in range(5):
            hand.append(self.draw())
        face_up: list[Card] = []
        drawn = 5
        while drawn < limit:
            card = self.draw()
            drawn += 1
            face_up.append(card)
            hand.append(card)
            if suit_of(card, trump, ORDER) != trump:
                break
        self.throw(p, self.rnd.sample(hand, len(hand) - 5))
        self.send({"type": "bridge_cards", "player": p, "face_up": [str(c) for c in face_up]})

    def tricks(self) -> None:
        rnd = self.rnd
        duties = self.opts.duties
        while self.deal_js()["phase"] == "play":
            d = self.deal_js()
            p = d["to_act"]
            hand = self.hands[p]
            current = d["tricks"][-1] if d["tricks"] and d["tricks"][-1]["winner"] is None else None
            so_far = [Card.parse(c["card"], "german") for c in current["cards"]] if current else []
            legal = legal_cards(hand, so_far, d["trump"], duties)
            illegal = [c for c in hand if c not in legal]
            if illegal and p in self.entered and rnd.random() < 0.3:
                try:
                    self.send({"type": "play", "player": p, "card": str(rnd.choice(illegal))})
                except RuleViolation as exc:
                    assert exc.rule in ("MULAT-PLAY-3", "MULAT-PLAY-4", "MULAT-PLAY-5")
                else:
                    raise AssertionError("an illegal card from an entered hand was accepted")
            card = rnd.choice(legal)
            if illegal and p not in self.entered and rnd.random() < self.revoke_rate:
                card = rnd.choice(illegal)
                self.illegal.add((p, len(d["tricks"]) + (0 if current else 1)))
            hand.remove(card)
            self.send({"type": "play", "player": p, "card": str(card)})
            if self.js()["phase"] in ("play", "review"):
                assert self.deal_js()["cards_held"][p] == len(hand)
            if self.deal_js()["phase"] == "play":
                self.maybe_enter(self.deal_js()["to_act"], 0.03)
            self.resolve_some(self.resolve_rate)
        if self.js()["phase"] == "review":
            self.resolve_some(1.0)

    def resolve_some(self, chance: float) -> None:
        for prop in self.js()["proposals"]:
            if prop["status"] == "pending" and self.rnd.random() < chance:
                confirm = self.rnd.random() < 0.6
                if confirm:
                    self.confirmed.add(prop["player"])
                self.send({"type": "confirm" if confirm else "dismiss", "proposal": prop["id"]})


def proposals_name_the_proven_duty(state: MulState, options: dict[str, Any]) -> None:
    """Every revoke proposal, whatever its status, names the strongest duty the cards known now
    prove (follow before trump before head, MULAT-PLAY-3…5) and a card that proves it, as the
    retroactive audit (which the review reports) and the dispute desk name it."""
    deal = state.deal
    if deal is None or deal.trump is None or not deal.tricks or deal.phase == "over":
        assert not state.proposals   # booked: the proposals went with the deal
        return
    holding = {p: hand for p in range(state.n) if (hand := deal.current_hand(p)) is not None}
    audit = {(r.player, r.trick): r for r in audit_revokes(deal.tricks, deal.trump, state.opts.duties, holding)}
    assert {(p.player, p.trick) for p in state.proposals} == set(audit)
    desk = trick_game("mulatschak", {k: v for k, v in options.items() if k in ("pack36", "no_stichzwang")})
    for prop in state.proposals:
        found = audit[(prop.player, prop.trick)]
        assert prop.deal == deal.number and prop.card == found.card
        assert (prop.kind, prop.rule, prop.evidence, prop.evidence_trick) == \
            (found.kind, BREACH_RULES[found.kind], found.evidence, found.evidence_trick)
        assert str(prop.message) == str(found.describe("german"))
        trick = deal.tricks[prop.trick - 1]
        later = [(s, c) for t in deal.tricks[prop.trick:] for s, c in t if s == prop.player]
        later += [(prop.player, c) for c in holding.get(prop.player, ())]
        [verdict] = [v for v in judge_trick(desk, deal.trump, trick, later).verdicts if v.player == prop.player]
        assert (verdict.kind, verdict.breach, verdict.rule) == ("revoke", prop.kind, prop.rule)
        assert prop.evidence in verdict.evidence


# --- an independent score calculation (the spec's formulas, written out again) -----------------


def expected_changes(opts: Opts, row: dict[str, Any], n: int) -> list[int]:
    m = 1 << len(row["causes"])
    decl, bid = row["declarer"], row["bid"]
    tricks = row["tricks"]
    out = []
    for p in range(n):
        if p in row["home"]:
            out.append(0 if opts.stayhome_free else 1 if opts.stayhome_flat else m)
        elif p in row["revokes"]:
            out.append(10 * m if p == decl else 5 * m)
        elif bid == 5:
            made = tricks[decl] == 5
            if p == decl:
                out.append(-10 * m if made else 10 * m)
            elif made:
                out.append(10 * m)
            else:
                out.append(0 if opts.muli_breaker and p != row["breaker"] else -10 * m)
        elif p == decl:
            out.append(-tricks[p] * m if tricks[p] >= bid else 10 * m)
        else:
            out.append(-tricks[p] * m if tricks[p] else 5 * m)
    return out


def as_tally_event(row: dict[str, Any], opts: Opts) -> dict[str, Any]:
    if row["declarer"] is None:
        return {"type": "deal_result", "thrown_in": True}
    event: dict[str, Any] = {
        "type": "deal_result", "declarer": row["declarer"], "bid": row["bid"], "forced": row["forced"],
        "trump": row["trump"], "home": row["home"], "tricks": row["tricks"], "revokes": row["revokes"],
        "causes": [c for c in row["causes"] if c != "hearts"],
    }
    if row["breaker"] is not None:
        event["breaker"] = row["breaker"]
    return event


options_strategy = st.fixed_dictionaries({}, optional={
    "pack36": st.booleans(), "no_stichzwang": st.booleans(), "muli_breaker": st.booleans(),
    "stayhome_flat": st.booleans(), "allpass_redeal": st.booleans(), "collapse_optional": st.booleans(),
    "collapse_cap": st.booleans(), "no_knock": st.booleans(), "exch_limit": st.sampled_from([1, 3, 4, 5]),
    "reshuffle": st.booleans(), "hold_muli": st.booleans(), "weli_weak": st.booleans(),
})


@given(n=st.integers(2, 6), options=options_strategy, seed=st.integers(0, 2**32 - 1),
       low=st.booleans())
def test_random_games(n: int, options: dict[str, Any], seed: int, low: bool) -> None:
    rnd = random.Random(seed)
    scores = [rnd.randint(2, 12) if low else rnd.randint(10, 21) for _ in range(n)]
    table = Table(rnd, n, options, scores, dealer=rnd.randrange(n))
    opts = table.opts
    for _ in range(MAX_DEALS):
        before = list(table.js()["scores"])
        rows_before = len(table.js()["sheet"])
        table.play_deal()
        data = table.js()
        row = data["sheet"][-1]
        assert len(data["sheet"]) == rows_before + 1
        assert row["totals"] == [b + c for b, c in zip(before, row["changes"], strict=True)]
        assert data["scores"] == row["totals"]
        if row["declarer"] is not None:
            active = [p for p in range(n) if p not in row["home"]]
            assert sum(row["tricks"][p] for p in active) == 5
            assert all(row["tricks"][p] is None for p in row["home"])
            assert row["multiplier"] == 1 << len(row["causes"])
            assert set(row["revokes"]) == table.confirmed
            assert row["changes"] == expected_changes(opts, row, n)
            # every deliberate revoke was proposed, and nothing else
            assert table.proposed == table.illegal
        low_score = min(data["scores"])
        assert data["over"] == (low_score <= 0)
        if data["over"]:
            winners = [p for p, s in enumerate(data["scores"]) if s == low_score]
            assert data["winner"] == (winners[0] if len(winners) == 1 else winners)
            break
        assert data["deal"]["phase"] == "cut"
    # totals run on from the starting scores; the same facts in tally mode give the same sheet
    sheet = table.js()["sheet"]
    running = list(scores)
    for row in sheet:
        running = [r + c for r, c in zip(running, row["changes"], strict=True)]
        assert row["totals"] == running
    tally = resume(R.new([f"P{i}" for i in range(n)], options, "tally"), scores, sheet[0]["dealer"])
    for row in sheet:
        tally = R.apply(tally, as_tally_event(row, opts))
    assert R.to_json(tally)["sheet"] == sheet
    assert R.to_json(tally)["winner"] == table.js()["winner"]



@given(n=st.integers(3, 6), options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_revoke_proposals_follow_the_evidence_through_mid_deal_verdicts(n: int, options: dict[str, Any],
                                                                       seed: int) -> None:
    """Many deliberate revokes, and the table confirms or dismisses most proposals as soon as they
    appear: after every event, each proposal (pending, confirmed or dismissed) names the duty
    the cards known at that point prove (``proposals_name_the_proven_duty`` runs in ``send``)."""
    rnd = random.Random(seed)
    table = Table(rnd, n, options, [rnd.randint(10, 21) for _ in range(n)], dealer=rnd.randrange(n),
                  revoke_rate=0.6, resolve_rate=0.7)
    for _ in range(3):
        table.play_deal()
        if table.js()["over"]:
            break
