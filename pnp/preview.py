"""`pnp watch --serve`: the gallery served on this computer, updated in the open page at each save.

The output folder is served as it is (the gallery, its pictures, the PDFs) from 127.0.0.1, with
two additions made while serving, never written to the folder: a script in `index.html` that
listens to `/events` (server-sent events) and, after each rebuild, puts the new gallery in
place of the old one — the faces that changed redrawn and marked — or shows the located
errors of a save that did not build above the last good faces; no caching, so a redrawn
face is fetched again; and the faces not pictured yet pictured as the page shows them
(`/.pictures/<name>.jpg`, from the watch's `pnp.export.pictures.Store`). The gallery itself
stays a static page that opens offline.

`Preview.said(version, errors)` is called by the watch loop after each build; the page learns
it within a tenth of a second.

Only a request naming this computer is answered (its Host one of `LOOPBACK`, unless the caller
names others), as the table does: a page of another site whose DNS name was rebound to
127.0.0.1 gets 400, not the gallery and a manifest holding the spec's path. Nothing outside the
output folder is served, nor its cache; a path no file can have (a NUL, over MAX_PATH
characters) is answered 400, a name the file system refuses 404.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import threading
from pathlib import Path
from typing import Any, AsyncIterator, Sequence

INDEX = "index.html"
LOOPBACK = ("127.0.0.1", "localhost")  # the Host names answered (Starlette's check leaves the port out)
MAX_PATH = 1024  # characters of a requested path
PICTURES = ".pictures"  # where the page asks for the faces not pictured yet (no game's folder starts with a dot)
POLL_S = 0.05  # how often an open stream looks for a new build
KEEPALIVE_S = 15.0

SCRIPT = """<script>
(function () {
  var panel = document.getElementById("pnp-live");
  function show(errors) {
    panel.hidden = errors.length === 0;
    panel.querySelector("ul").innerHTML = errors.map(function (line) {
      var item = document.createElement("li"); item.textContent = line; return item.outerHTML; }).join("");
  }
  var events = new EventSource("/events");
  events.onmessage = function (message) {
    var state = JSON.parse(message.data);
    if (String(state.version) === document.body.dataset.version) { show(state.errors); return; }
    fetch("/", {cache: "no-store"}).then(function (answer) { return answer.text(); }).then(function (text) {
      var page = new DOMParser().parseFromString(text, "text/html");
      var opened = Array.prototype.map.call(document.querySelectorAll("article details.faces[open]"),
                                            function (faces) { return faces.closest("article").id; });
      ["header", "main"].forEach(function (part) {
        var fresh = page.querySelector(part), old = document.querySelector(part);
        if (fresh && old) { old.replaceWith(fresh); }
      });
      opened.forEach(function (id) {  /* the components the designer opened stay open */
        var faces = document.getElementById(id); faces = faces && faces.querySelector("details.faces");
        if (faces) { faces.open = true; }
      });
      document.body.dataset.version = page.body.dataset.version;
      show(state.errors);
    });
  };
})();
</script>"""
PANEL_STYLE = ("position:sticky;top:0;z-index:10;background:#fff3e0;border-bottom:2px solid #d55e00;"
               "padding:.6rem 2rem;margin:0;font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap")


class Preview:
    """A server of one output folder and of what the last build said."""

    def __init__(self, out: Path, host: str = "127.0.0.1", port: int = 0, pictures: Any = None,
                 hosts: Sequence[str] = LOOPBACK) -> None:
        self.out, self.host, self.port, self.hosts = out, host, port, tuple(hosts)
        self.pictures = pictures  # the watch's `pnp.export.pictures.Store`: the faces to picture when asked
        self.version = 0
        self.errors: tuple[str, ...] = ()
        self._lock = threading.Lock()
        self._server: Any = None

    def said(self, errors: Sequence[str]) -> None:
        """A build is done: a new gallery (no errors), or the errors of a save that did not build."""
        with self._lock:
            self.version += 1
            self.errors = tuple(errors)

    def state(self) -> tuple[int, tuple[str, ...]]:
        with self._lock:
            return self.version, self.errors

    # --- the server

    def start(self) -> str:
        """Serve in a thread of this process; returns the address to open."""
        import uvicorn

        config = uvicorn.Config(self.app(), host=self.host, port=self.port, log_level="warning", lifespan="off")
        self._server = uvicorn.Server(config)
        thread = threading.Thread(target=self._server.run, name="pnp-preview", daemon=True)
        thread.start()
        while not self._server.started:
            if not thread.is_alive():
                raise OSError(f"cannot serve the preview on {self.host}:{self.port}")
            thread.join(0.02)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        return f"http://{self.host}:{port}/"

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.middleware import Middleware
        from starlette.middleware.trustedhost import TrustedHostMiddleware
        from starlette.requests import Request
        from starlette.responses import FileResponse, HTMLResponse, Response, StreamingResponse
        from starlette.routing import Route

        async def index(request: Request) -> Response:
            return HTMLResponse(self.page(), headers={"Cache-Control": "no-store"})

        async def events(request: Request) -> Response:
            return StreamingResponse(self._stream(request), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-store"})

        async def file(request: Request) -> Response:
            relative = request.path_params["path"]
            if len(relative) > MAX_PATH or "\x00" in relative:
                return Response("bad path", status_code=400)
            path = self._inside(relative)
            if path is None:
                return Response("not found", status_code=404)
            return FileResponse(path, headers={"Cache-Control": "no-store"})

        return Starlette(routes=[Route("/", index), Route("/events", events), self._picture_route(),
                                 Route("/{path:path}", file)],
                         middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(self.hosts))])

    def page(self) -> str:
        """The gallery with the live script and the errors panel (a plain page before the first
        good build)."""
        version, errors = self.state()
        try:
            text = (self.out / INDEX).read_text(encoding="utf-8")
        except OSError:
            text = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>pnp watch</title></head>"
                    "<body><header><h1>No build yet</h1></header><main></main></body></html>")
        items = "".join(f"<li>{html.escape(line)}</li>" for line in errors)
        panel = (f'<aside id="pnp-live" style="{PANEL_STYLE}"{" hidden" if not errors else ""}>'
                 f"<b>Not built — the faces below are the last good build.</b><ul>{items}</ul></aside>")
        text = _asking_for_pictures(text.replace(".jpg\"", f".jpg?v={version}\""))  # a redrawn face is a new picture
        text = text.replace("<body>", f'<body data-version="{version}">{panel}', 1)
        return text.replace("</body>", SCRIPT + "\n</body>", 1)

    def _picture_route(self) -> Any:
        """`/.pictures/<name>.jpg`: a face the gallery shows by name, not pictured when it was
        built — pictured now, from the drawing the watch's build left waiting, and kept
        (`pnp.export.pictures.Store.asked`): the page asks only for the faces it shows."""
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request
        from starlette.responses import Response
        from starlette.routing import Route

        async def picture(request: Request) -> Response:
            name = request.path_params["name"]
            found = None
            if self.pictures is not None and re.fullmatch(r"[0-9a-f]{32}\.jpg", name):
                found = await run_in_threadpool(self.pictures.asked, name[:-4])
            if found is None:
                return Response("not found", status_code=404)
            return Response(found, media_type="image/jpeg", headers={"Cache-Control": "max-age=86400"})

        return Route("/" + PICTURES + "/{name}", picture)

    def _inside(self, relative: str) -> Path | None:
        """A file of the output folder, never outside it (nor its cache); None for anything else,
        a name the file system refuses included."""
        try:
            root = self.out.resolve()
            path = (root / relative).resolve()
            inside = path.is_relative_to(root) and path.parts[len(root.parts):][:1] != (".cache",) and path.is_file()
        except (OSError, ValueError):
            return None
        return path if inside else None

    async def _stream(self, request: Any) -> AsyncIterator[str]:
        sent, quiet = -1, 0.0
        while not await request.is_disconnected():
            version, errors = self.state()
            if version != sent:
                sent, quiet = version, 0.0
                yield f"data: {json.dumps({'version': version, 'errors': list(errors)})}\n\n"
            elif quiet >= KEEPALIVE_S:
                quiet = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(POLL_S)
            quiet += POLL_S


def _asking_for_pictures(page: str) -> str:
    """The gallery as served: each face not pictured yet asks the server for its picture, as
    the page shows it (the static page shows the face's name in its place, and says where the
    picture is to be had: `data-picture`)."""
    return _UNPICTURED.sub(r'<img src="\1" width="\2" height="\3" loading="lazy" decoding="async" alt="\4">', page)


_UNPICTURED = re.compile(r'<span class="unpictured" data-picture="([^"]+)" data-size="(\d+) (\d+)"[^>]*>([^<]*)</span>')
