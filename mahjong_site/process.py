"""Process-wide settings that every server process applies once at start-up.

Standard library only (no Django), so the engine's benchmarks that stand in for
a server process can apply the same settings as the servers do.
"""

import gc

#: Collect generation 0 after 10,000 net container allocations (CPython's
#: default is 700), generation 1 after 20 of those (default 10), and the
#: full heap after 50 generation-1 collections (default 10).
GC_THRESHOLD = (10_000, 20, 50)


def tune_gc() -> None:
    """Freeze the start-up heap and collect the young generations less often.

    What: a full collection now (start-up garbage is freed, not kept forever),
    then ``gc.freeze()``, which moves every object alive now (Django, the apps,
    the compiled templates, the rules engine's tables) out of the collector's
    sight for the life of the process; then ``gc.set_threshold(*GC_THRESHOLD)``.

    Why: a move allocates many short-lived containers (bot plans, frame
    contexts) that reference counting frees at once; at the default threshold
    of 700 the collector keeps scanning them while they are still alive, and
    each generation-2 pass walked the whole start-up heap.  Measured
    (``selfplay.run('mcr', 200, 1)``, PYTHONHASHSEED=0, Python 3.11): at the
    defaults 514 generation-0, 46 generation-1 and 4 full collections took
    0.13-0.15 s of 2.3 s CPU; tuned, 21 generation-0 collections took 0.035 s
    and the run used 2-5 % less CPU.  Thresholds tried: 2,000 (0.12 s, the
    survivors are merely scanned less often), 10,000 (0.035 s, pauses ~1.7 ms),
    50,000 and 100,000 (0.031-0.036 s, pauses of 10+ ms): 10,000 takes almost
    all the gain with short pauses.  ``benchmarks/bench_selfplay.py 400``
    (mcr, liangren, youxi): the collector's time 0.49-0.71 s per rule set at
    the defaults, 0.04-0.21 s tuned; 85-92 → 92-109 hands per CPU second.
    Memory: at most 10,000 more container objects wait for a collection, and
    only cyclic garbage waits at all; self-play's peak RSS did not move
    (56 MB), nor did the two Daphne processes' in ``bench_ws.py --tables 200``
    (324-328 MB together at the defaults, 324-326 MB tuned).

    Call it once, after the process has imported and set up what it serves
    and before it forks (children inherit the frozen heap and share its pages
    rather than copying them when the collector would have touched them).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
