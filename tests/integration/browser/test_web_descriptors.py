"""The web servers both pages run on (``controller.web.serving``), in a process of its own under
a low ``RLIMIT_NOFILE``: a burst of connections far over the limit is refused as it is accepted,
the process never runs out of descriptors, and it still serves a page afterwards."""

from __future__ import annotations

import asyncio
import resource
import socket
import subprocess
import sys
import textwrap

import httpx

SERVER = textwrap.dedent("""
    import asyncio, resource, sys
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from controller.web.guard import WebGuard
    from controller.web.serving import embedded_server
    from tests.support.waiting import until

    resource.setrlimit(resource.RLIMIT_NOFILE, (512, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    async def main():
        app = WebGuard(Starlette(routes=[Route("/", lambda r: PlainTextResponse("ok"))]))
        server = embedded_server(app, host="127.0.0.1", port=0)
        task = asyncio.create_task(server.serve())
        await until(lambda: server.started or task.done(), "the server listening", within=30)
        assert server.started, task.exception()
        print(server.servers[0].sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        print(server.connections.refused, flush=True)
        server.should_exit = True
        await task

    asyncio.run(main())
""")


async def test_a_burst_over_the_descriptor_limit_is_refused_and_the_server_goes_on() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4096 <= hard:  # this side holds the burst's 1,500 sockets
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    child = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = int(await asyncio.to_thread(child.stdout.readline))
        socks = []
        for _ in range(1500):  # three times the server's descriptor limit, sending nothing
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            socks.append(sock)
        for sock in socks:
            sock.close()
        # another client is served (the burst's own address has spent its allowance of new connections)
        async with httpx.AsyncClient(timeout=30, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")) as client:
            assert (await client.get(f"http://127.0.0.1:{port}/")).text == "ok"
        out, err = await asyncio.to_thread(child.communicate, "stop\n", 60)
    finally:
        if child.poll() is None:
            child.kill()
    assert int(out.strip().splitlines()[-1]) > 0  # some were refused at accept
    assert "Too many open files" not in err, err[-2000:]
