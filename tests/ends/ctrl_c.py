#!/usr/bin/env python3
# ctrl_c.py PROGRAM [ARGS...]: runs PROGRAM as the foreground job of a new pseudo-terminal, waits
# for a line "ready" in its output, types the terminal's interrupt character (^C), then reads
# the rest; prints what came after "ready", then "exit N" or "signal N" (PROGRAM's end), or
# "timeout" after 60 s.  PROGRAM starts with the signals a terminal's keys send at their default
# action, as a shell's foreground job has them, whatever this script inherited (a check run as a
# background job has SIGINT and SIGQUIT ignored, and ^C would do nothing).
import os
import pty
import select
import signal
import sys
import time


def main():
    pid, fd = pty.fork()
    if pid == 0:
        try:
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTSTP):
                signal.signal(sig, signal.SIG_DFL)
            os.execvp(sys.argv[1], sys.argv[1:])
        finally:
            os._exit(127)
    out = b""
    typed = False
    end = time.monotonic() + 60
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 1)
        if not r:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: every process holding the terminal has gone
            break
        if not data:
            break
        out += data
        if not typed and b"ready" in out:
            os.write(fd, b"\x03")
            typed = True
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        print("timeout")
        return
    _, status = os.waitpid(pid, 0)
    text = out.decode(errors="replace").replace("\r\n", "\n").replace("^C", "")
    after = text.split("ready\n", 1)[1] if "ready\n" in text else text
    sys.stdout.write("".join(l + "\n" for l in after.splitlines() if l and l != "^C"))
    if os.WIFSIGNALED(status):
        print("signal %d" % os.WTERMSIG(status))
    else:
        print("exit %d" % os.WEXITSTATUS(status))


main()
