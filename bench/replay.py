"""How long computing the standings takes for Black Maria records of 10, 100
and 1,000 deals (5 players and a fixed number of deals, a multiple of 5, so no
deal is refused as after the end): on its own, and as the score sheet pays it,
inside a request in Polish (the fold keeps its words as data, translated only
where the page draws them, so the two should be alike).

Beside the wall time: the CPU time (the load of a shared machine moves it
less) and how many objects the standings keep a deal (each one Python's
garbage collector walks again and again: 85 a deal made 1,000 deals three
times as slow a deal as 10, issue 22).

A benchmark, not a test: it prints figures. The aim is at most 45 ms for
1,000 deals at low load, growing linearly.
Run: make bench   (or .venv/bin/python bench/replay.py)
"""

from __future__ import annotations

import gc
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


def best_of(fn, repeat: int = 7) -> tuple[float, float, float]:
    """Best and median wall time, best CPU time, in seconds."""
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(times), statistics.median(times), min(cpu)


def kept_objects(record: dict) -> float:
    """Objects the garbage collector tracks that the standings of ``record``
    keep, per deal."""
    gc.collect()
    before = len(gc.get_objects())
    standings = load(record)
    gc.collect()
    after = len(gc.get_objects())
    del standings
    return (after - before) / len(record["deals"])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/bench.db", "SECRET_KEY": "bench"})
        print(
            f"{'deals':>6} {'best ms':>9} {'median ms':>10} {'µs/deal':>8} {'CPU ms':>7} "
            f"{'kept/deal':>9}   {'in a request (' + LOCALE + '): best ms':>28} {'median ms':>10}"
        )
        for n in (10, 100, 1000):
            record = black_maria_record(n)
            best, median, cpu = best_of(partial(load, record))
            with app.test_request_context("/"), force_locale(LOCALE):
                in_best, in_median, _cpu = best_of(partial(load, record))
            print(
                f"{n:>6} {best * 1000:>9.2f} {median * 1000:>10.2f} {best / n * 1e6:>8.1f} "
                f"{cpu * 1000:>7.2f} {kept_objects(record):>9.1f}   "
                f"{in_best * 1000:>28.2f} {in_median * 1000:>10.2f}"
            )


if __name__ == "__main__":
    main()
