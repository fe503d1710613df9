"""The ratings' costs (issue 24). A benchmark, not a test: it prints figures.

- the players page (the league of every game, and everyone) of a phone with
  10 finished matches and of one with 1,000, read again as a phone does
  (the ratings kept): p50 of each, interleaved round by round, and the ratio
  (the issue's target: within 2×);
- what a change costs the next read at 1,000 matches: a new match finished
  (rated alone), and the first match edited (every match after it rated again);
- every phone's ratings rated afresh for 10,000 finished matches
  (``scorer.store.ratings.rebuild``, the ratings' part of `flask --app scorer
  rebuild`; the issue's target: under a minute), and the whole command, which
  folds every match afresh first.

The matches are Black Maria, 3 to 5 players out of 8, a deal per player, one
in ten a partnership of four; seeded through the store as the API stores them
(SQLite's fsync off while seeding only). The client is Flask's test client in
this process: no server, no network, so the figures are the app's own.

Run: .venv/bin/python bench/ratings.py [--rounds 30] [--big 10000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer import create_app, store  # noqa: E402  (run as a script from anywhere)
from scorer.record import load  # noqa: E402
from scorer.store import ratings as kept  # noqa: E402
from scorer.web.access import COOKIE  # noqa: E402

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek", "Gosia", "Henryk"]
SMALL, BIG, HUGE = "s" * 32, "b" * 32, "h" * 32


def black_maria(rng: random.Random) -> dict:
    """A finished Black Maria match: a deal per player, every card to a random seat."""
    partnership = rng.random() < 0.1
    n = 4 if partnership else rng.choice([3, 4, 5])
    deals = []
    for _ in range(n):
        owners = [rng.randrange(n) for _ in range(13)]
        deals.append(
            {
                "hearts": [owners.count(s) for s in range(n)],
                "taken_by": {c: rng.randrange(n) for c in ("QS", "KS", "AS")},
            }
        )
    return {
        "format": "scorer-record",
        "version": 1,
        "game": "black_maria",
        "options": {"end": "deals", "deals": n, "partnership": partnership},
        "players": rng.sample(NAMES, n),
        "deals": deals,
    }


def seed(db, browser: str, count: int, rng: random.Random) -> list[str]:
    """``count`` finished matches this browser scores; their public ids in order."""
    db.execute("pragma synchronous = off")
    made = []
    for _ in range(count):
        match, _standings = load(black_maria(rng))
        made.append(store.create(db, match, browser=browser).pub)
    db.execute("pragma synchronous = full")
    return made


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def players_page(app, browser: str):
    client = app.test_client()
    client.set_cookie(COOKIE, browser)

    def get():
        r = client.get("/players")
        assert r.status_code == 200 and b'class="league"' in r.data

    return get


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="reads of each players page")
    parser.add_argument("--big", type=int, default=10_000, help="matches for the rebuild")
    args = parser.parse_args()
    rng = random.Random(24)
    folder = Path(tempfile.mkdtemp(prefix="scorer-bench-ratings-"))
    app = create_app({"DATABASE": str(folder / "scorer.db"), "SECRET_KEY": "bench"})
    with app.app_context():
        db = store.get_db()
        seed(db, SMALL, 10, rng)
        big = seed(db, BIG, 1000, rng)

    small_page, big_page = players_page(app, SMALL), players_page(app, BIG)
    small_page(), big_page()  # the ratings kept, as after any earlier visit
    times = {"10": [], "1,000": []}
    for _ in range(args.rounds):
        times["10"].append(timed(small_page))
        times["1,000"].append(timed(big_page))
    p50 = {k: statistics.median(v) for k, v in times.items()}
    print(f"players page, p50 of {args.rounds} reads each, interleaved:")
    for k, v in p50.items():
        print(f"  {k:>5} finished matches: {ms(v)} (min {ms(min(times[k]))})")
    print(f"  ratio: {p50['1,000'] / p50['10']:.2f}× (target: within 2×)")

    with app.app_context():
        db = store.get_db()
        seed(db, BIG, 1, rng)
        after_new = timed(big_page)
        first = store.get(db, big[0])
        deal = dict(first.match.deals[0])
        deal["hearts"] = deal["hearts"][1:] + deal["hearts"][:1]  # the hearts a seat along
        store.edit_deal(db, first.pub, 1, deal)
        after_edit = timed(big_page)
    print("the next read of the 1,000-match page after a change:")
    print(f"  a new match finished (rated alone): {ms(after_new)}")
    print(f"  the first match edited (all 1,001 rated again): {ms(after_edit)}")

    with app.app_context():
        db = store.get_db()
        start = time.perf_counter()
        seed(db, HUGE, args.big, rng)
        seeded = time.perf_counter() - start
        kept.forget(db)
        rebuilt = timed(lambda: kept.rebuild(db))
    whole = timed(lambda: app.test_cli_runner().invoke(args=["rebuild"]))
    print(f"{args.big:,} more finished matches for a third phone (seeded in {seeded:.0f} s):")
    print(f"  every phone's ratings rated afresh: {rebuilt:.1f} s (target: under 60 s)")
    print(f"  `flask --app scorer rebuild` (every match folded afresh, then rated): {whole:.1f} s")


if __name__ == "__main__":
    main()
