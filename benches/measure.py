"""Runs a command and writes its wall time, user and system CPU (seconds, to the
microsecond) and peak RSS (KB) to a file, as `/usr/bin/time -f '%e %U %S %M'` would but
not rounded to hundredths (0.09 s against 0.11 s is a ratio of 1.22, or of 1.0, by
rounding alone). Started with posix_spawn (a vfork): a fork of Python would charge the
child with copying Python's memory (about 50 ms of system time here).

    python3 benches/measure.py OUT COMMAND [ARGS...]
"""
import os
import sys
import time

out, cmd = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.posix_spawnp(cmd[0], cmd, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(out, "w") as f:
    f.write(f"{wall:.6f} {usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss}\n")
sys.exit(os.waitstatus_to_exitcode(status))
