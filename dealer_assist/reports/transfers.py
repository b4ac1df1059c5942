"""Who pays whom: settle net results with the fewest transfers.

Each party has a net result (+ receives, - pays); the nets sum to zero. If the parties can be
split into ``g`` groups that each sum to zero, each group settles alone with one transfer fewer
than its size, so the fewest transfers is ``n - g`` for the largest such ``g`` (n = parties with
a non-zero net). The largest ``g`` is found exactly by a subset DP over the parties (after
pairing exact opposites, which is always safe); above :data:`EXACT_LIMIT` parties the plan falls
back to the greedy one (largest payer to largest receiver), which may use a few more transfers.
"""

from __future__ import annotations

from dataclasses import dataclass

EXACT_LIMIT = 18  # parties left after pairing opposites; 2**18 masks is well under a second


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class TransferPlan:
    transfers: tuple[Transfer, ...]
    exact: bool  # False: greedy fallback (too many parties for the exact search)
    house_lines: int = 0  # lines between a player and the house (house-banked tables)

    @property
    def count(self) -> int:
        return len(self.transfers)

    def explanation(self) -> str:
        """The sentence printed under every plan: what it is and what it is not."""
        if not self.transfers:
            return "Nobody owes anybody: every result is zero."
        if self.house_lines == self.count:
            return (f"{_these(self.count)} every result: at a house-banked table "
                    "each player settles with the house alone — the house pays each winner's "
                    "result and collects each loser's. Players never pay each other.")
        after = "it" if self.count == 1 else "all of them"
        text = (f"{_these(self.count)} every result at once: after {after} each person has "
                "gained or lost exactly their session result. A line is a payment to make, not "
                "a debt between those two people; the plan may route money between people who "
                "never played a hand against each other.")
        if self.house_lines:
            text += (f" {self.house_lines} of the lines are players settling their house-banked "
                     "results with the house, which players never share among themselves.")
        if not self.exact:
            text += (f" With more than {EXACT_LIMIT} people the plan is the greedy one (largest "
                     "payer to largest receiver) and may not be the shortest possible.")
        return text


def _these(count: int) -> str:
    return "This one transfer settles" if count == 1 else f"These {count} transfers settle"


def _settle_group(nets: dict[str, int]) -> list[Transfer]:
    """Largest payer pays largest receiver until all are square (k parties: at most k-1 lines)."""
    balance = {name: amount for name, amount in nets.items() if amount}
    out: list[Transfer] = []
    while balance:
        payer = min(balance, key=lambda n: (balance[n], n))
        payee = max(balance, key=lambda n: (balance[n], _neg(n)))
        amount = min(-balance[payer], balance[payee])
        out.append(Transfer(payer, payee, amount))
        for name, delta in ((payer, amount), (payee, -amount)):
            balance[name] += delta
            if balance[name] == 0:
                del balance[name]
    return out


def _neg(name: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in name)  # ties: alphabetical order first


def greedy_plan(nets: dict[str, int]) -> TransferPlan:
    _check(nets)
    return TransferPlan(tuple(_settle_group(nets)), exact=True)


def _check(nets: dict[str, int]) -> None:
    total = sum(nets.values())
    if total != 0:
        raise ValueError(f"results do not balance (they sum to {total}); no plan can settle them")


def _zero_sum_groups(names: list[str], amounts: list[int]) -> list[list[int]]:
    """Split indices into the most zero-sum groups (dp over subsets, then walk back)."""
    n = len(amounts)
    size = 1 << n
    sums = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + amounts[low]
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            value = best[mask ^ bit]
            if value > top:
                top = value
            rest ^= bit
        best[mask] = top + (sums[mask] == 0)
    groups, current, mask = [], [], size - 1
    while mask:
        rest = mask
        target = best[mask] - (sums[mask] == 0)
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] == target:
                break
            rest ^= bit
        index = bit.bit_length() - 1
        current.append(index)
        mask ^= bit
        if sums[mask] == 0:
            groups.append(current)
            current = []
    return groups


def plan_transfers(nets: dict[str, int]) -> TransferPlan:
    """The fewest transfers that settle ``nets`` (name -> result), exact up to EXACT_LIMIT."""
    _check(nets)
    live = {name: amount for name, amount in sorted(nets.items()) if amount}
    transfers: list[Transfer] = []
    # exact opposites settle each other in one line; pairing them never costs a transfer
    for name in list(live):
        if name not in live:
            continue
        match = next((o for o in live if o != name and live[o] == -live[name]), None)
        if match is not None:
            payer, payee = (name, match) if live[name] < 0 else (match, name)
            transfers.append(Transfer(payer, payee, live[payee]))
            del live[name], live[match]
    names = list(live)
    if len(names) > EXACT_LIMIT:
        return TransferPlan(tuple(transfers + _settle_group(live)), exact=False)
    amounts = [live[n] for n in names]
    for group in _zero_sum_groups(names, amounts):
        transfers.extend(_settle_group({names[i]: amounts[i] for i in group}))
    return TransferPlan(tuple(transfers), exact=True)


def house_plan(nets: dict[str, int], house: str) -> TransferPlan:
    """A house-banked table: every player settles with the house, one line each."""
    _check(nets)
    lines = [Transfer(house, name, amount) if amount > 0 else Transfer(name, house, -amount)
             for name, amount in sorted(nets.items()) if name != house and amount]
    return TransferPlan(tuple(lines), exact=True, house_lines=len(lines))


def combine(first: TransferPlan, second: TransferPlan) -> TransferPlan:
    return TransferPlan(first.transfers + second.transfers, first.exact and second.exact,
                        first.house_lines + second.house_lines)
