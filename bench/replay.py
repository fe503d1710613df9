"""How long computing the standings takes for Black Maria records of 10, 100
and 1,000 deals (5 players and a fixed number of deals, a multiple of 5, so no
deal is refused as after the end): on its own, and as the score sheet pays it,
inside a request in Polish (the fold keeps its words as data, translated only
where the page draws them, so the two should be alike).

A benchmark, not a test: it prints figures. The aim is under 50 ms for 1,000
deals, growing linearly.   Run: make bench   (or .venv/bin/python bench/replay.py)
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from functools import partial

from flask_babel import force_locale

from scorer import create_app
from scorer.record import load

LOCALE = "pl"  # a catalog that exists, whether or not it is complete yet


def black_maria_record(deals: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    entries = []
    for _ in range(deals):
        owners = [rng.randrange(5) for _h in range(13)]
        entries.append(
            {
                "hearts": [owners.count(s) for s in range(5)],
                "taken_by": {c: rng.randrange(5) for c in ("QS", "KS", "AS")},
            }
        )
    return {
        "format": "scorer-record",
        "version": 1,
        "game": "black_maria",
        "options": {"end": "deals", "deals": deals},
        "players": ["Ala", "Bartek", "Celina", "Darek", "Ewa"],
        "deals": entries,
    }


def best_of(fn, repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/bench.db", "SECRET_KEY": "bench"})
        print(
            f"{'deals':>6} {'best ms':>9} {'median ms':>10} {'µs/deal':>8}   "
            f"{'in a request (' + LOCALE + '): best ms':>28} {'median ms':>10}"
        )
        for n in (10, 100, 1000):
            record = black_maria_record(n)
            best, median = best_of(partial(load, record))
            with app.test_request_context("/"), force_locale(LOCALE):
                in_best, in_median = best_of(partial(load, record))
            print(
                f"{n:>6} {best * 1000:>9.2f} {median * 1000:>10.2f} {best / n * 1e6:>8.1f}   "
                f"{in_best * 1000:>28.2f} {in_median * 1000:>10.2f}"
            )


if __name__ == "__main__":
    main()
