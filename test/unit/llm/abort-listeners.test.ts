// One turn sends many model requests on one abort signal (a long research turn: tens of requests).
// Each request must give back the abort listener it adds, or the turn's signal collects one per
// request: Node warns past 10 (MaxListenersExceededWarning) and every finished request's SDK state
// stays reachable until the turn ends.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { startModelServer, type ModelServer } from '../../fixtures/model-server';
import { API_KEY, drain, PROVIDERS, request } from './helpers';

let server: ModelServer;
before(async () => {
  server = await startModelServer([], { apiKey: API_KEY });
});
after(() => server.close());

for (const p of PROVIDERS) {
  test(`EXEC-5: ${p.name} requests on one turn signal leave no abort listener behind`, async () => {
    const turn = new AbortController();
    const provider = p.make(server);
    for (let i = 0; i < 12; i += 1) {
      server.enqueue({ text: [`reply ${i}`] });
      const chunks = await drain(provider.stream(request({ signal: turn.signal })));
      // Positive control: the request really ran to its end on this signal.
      assert.deepEqual(chunks.at(-1), { type: 'finish', reason: 'stop' });
      assert.equal(getEventListeners(turn.signal, 'abort').length, 0, `after request ${i + 1}`);
    }
  });
}
