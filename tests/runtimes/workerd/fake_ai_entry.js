// The runtimes test's entry around examples/worker (tests/runtimes/workerd/serve.mjs with RERANKIT_WORKER_FAKE_AI
// set): the example's own handler, with a fake Workers AI binding as `env.AI` (fake_ai.mjs) — the real binding
// always runs remotely and needs an account. `POST /__fake-ai {mode, delayMs}` scripts the fake and clears its
// record; `GET /__fake-ai` returns it, with every `run` call seen.
import worker from "./index.js";
import { createFakeAi } from "./fake_ai.mjs";

const fake = createFakeAi();

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/__fake-ai") {
      if (request.method === "POST") {
        Object.assign(fake.state, await request.json());
        fake.state.calls.length = 0;
      }
      return Response.json(fake.state);
    }
    return worker.fetch(request, { ...env, AI: fake.binding }, ctx);
  },
};
