// A local stand-in for the Hugging Face Hub, serving tests/fixtures/hub exactly as the Hub serves repos:
//   GET|HEAD /{org}/{name}/resolve/{revision}/{path}
//   - small files answered directly, with an ETag; `.onnx`/`.onnx_data`/`.data` files answered with a 302 to a
//     second server (another host:port, as the Hub redirects LFS files to its CDN), which serves the bytes;
//   - 404 with the Hub's `X-Error-Code` header: RepoNotFound, RevisionNotFound, EntryNotFound;
//   - revision "main" is the repo; "no-quant" hides the quantised graphs; "slow" streams each file in 64-byte
//     chunks 50 ms apart (for cancellation).
// Every request is logged (`requests`) so that tests can tell a cached load from a download.
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub");
const LFS = /\.(onnx|onnx_data|data)$/;

function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

// Browsers fetch the Hub cross-origin (the Hub answers with these too).
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "etag, content-length, x-error-code, x-error-message" };

function notFound(res, code, message) {
  res.writeHead(404, { ...CORS, "x-error-code": code, "x-error-message": message, "content-type": "text/plain" });
  res.end(message);
}

async function send(req, res, file, revision) {
  const bytes = readFileSync(file);
  const etag = `"${createHash("sha256").update(bytes).digest("hex")}"`;
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, { ...CORS, etag });
    return res.end();
  }
  res.writeHead(200, { ...CORS, "content-length": bytes.length, etag, "content-type": "application/octet-stream" });
  if (req.method === "HEAD") return res.end();
  if (revision !== "slow") return res.end(bytes);
  for (let i = 0; i < bytes.length && !res.destroyed; i += 64) {
    res.write(bytes.subarray(i, i + 64));
    await new Promise((r) => setTimeout(r, 50));
  }
  res.end();
}

/** Starts the Hub and its CDN; resolves to `{url, requests, close()}`. */
export async function startHub() {
  const requests = [];
  const cdn = createServer((req, res) => {
    requests.push({ host: "cdn", method: req.method, url: req.url });
    const { pathname, searchParams } = new URL(req.url, "http://x");
    const file = path.join(root, decodeURIComponent(pathname.replace(/^\/lfs\//, "")));
    if (!file.startsWith(root + path.sep) || !existsSync(file)) return notFound(res, "EntryNotFound", "Entry not found");
    send(req, res, file, searchParams.get("revision")).catch(() => res.destroy());
  });
  const cdnPort = await listen(cdn);
  const hub = createServer((req, res) => {
    requests.push({ host: "hub", method: req.method, url: req.url });
    const m = /^\/([^/]+)\/([^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(new URL(req.url, "http://x").pathname);
    if (!m) return notFound(res, "RepoNotFound", "Repository not found");
    const [, org, name, revision, rel] = m.map(decodeURIComponent);
    const repo = path.join(root, org, name);
    if (!existsSync(repo) || !statSync(repo).isDirectory() || org === "references") return notFound(res, "RepoNotFound", "Repository not found");
    if (!["main", "no-quant", "slow"].includes(revision)) return notFound(res, "RevisionNotFound", `Invalid rev id: ${revision}`);
    const file = path.join(repo, rel);
    const hidden = revision === "no-quant" && /_(quantized|int8|uint8|q4)/.test(rel);
    if (!file.startsWith(repo + path.sep) || hidden || !existsSync(file) || !statSync(file).isFile()) {
      return notFound(res, "EntryNotFound", "Entry not found");
    }
    if (LFS.test(rel)) {
      const to = `http://localhost:${cdnPort}/lfs/${org}/${name}/${rel}?revision=${revision}`;
      res.writeHead(302, { ...CORS, location: to });
      return res.end();
    }
    send(req, res, file, revision).catch(() => res.destroy());
  });
  const port = await listen(hub);
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => Promise.all([hub, cdn].map((s) => new Promise((r) => { s.closeAllConnections?.(); s.close(r); }))),
  };
}
