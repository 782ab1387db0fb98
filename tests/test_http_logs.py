"""The referee's JSON log lines are written once per event-loop iteration, in order, and never lost."""

from __future__ import annotations

import asyncio
import io
import threading

from loveletter.server.logs import LoopBatchedLines


def test_lines_logged_on_a_loop_are_written_together_at_the_end_of_the_iteration() -> None:
    out = io.BytesIO()
    lines = LoopBatchedLines(out)

    async def requests() -> None:
        lines.msg(b'{"n":1}')
        lines.msg(b'{"n":2}')
        assert out.getvalue() == b""  # buffered until the loop gets round to it
        await asyncio.sleep(0)
        assert out.getvalue() == b'{"n":1}\n{"n":2}\n'

    asyncio.run(requests())


def test_lines_off_a_loop_are_written_at_once_after_anything_still_buffered() -> None:
    out = io.BytesIO()
    lines = LoopBatchedLines(out)
    lines.msg(b"first")
    assert out.getvalue() == b"first\n"
    loop = asyncio.new_event_loop()
    loop.call_soon(lines.msg, b"buffered")
    loop.call_soon(loop.stop)  # the loop stops before the callback that would write the line
    loop.run_forever()
    loop.close()
    assert out.getvalue() == b"first\n"
    lines.msg(b"after")
    assert out.getvalue() == b"first\nbuffered\nafter\n"


def test_flush_writes_what_every_thread_still_holds() -> None:
    out = io.BytesIO()
    lines = LoopBatchedLines(out)
    started, stop = threading.Event(), threading.Event()

    def server() -> None:
        async def run() -> None:
            lines.msg(b"from the server thread")
            started.set()
            stop.wait()  # the loop is blocked: its flush callback cannot run

        asyncio.run(run())

    thread = threading.Thread(target=server)
    thread.start()
    started.wait()
    lines.flush()
    assert out.getvalue() == b"from the server thread\n"
    stop.set()
    thread.join()
    assert out.getvalue() == b"from the server thread\n"  # written once


def test_logging_configured_twice_shares_one_writer_per_file() -> None:
    out = io.BytesIO()
    assert LoopBatchedLines.of(out) is LoopBatchedLines.of(out)
    assert LoopBatchedLines.of(out)("any", "args") is LoopBatchedLines.of(out)
