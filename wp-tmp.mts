import { openEventsHarness } from './test/events/harness';
const h = await openEventsHarness({ maxFields: 1024 });
const ds = await h.createDataset('wide');
const event = (row: number) => Object.fromEntries(Array.from({ length: 1000 }, (_, f) => [`f${f}`, f % 3 === 0 ? `v${row}-${f}` : row * f + 0.5]));
for (let b = 0; b < 6; b++) {
  const body = Buffer.from(JSON.stringify(Array.from({ length: 100 }, (_, i) => event(b * 100 + i))));
  const t = performance.now();
  const s = await h.ingest.ingest(ds, { body, contentType: 'application/json' });
  console.log(b, s.ingested, (performance.now() - t).toFixed(0), 'ms');
}
await h.destroy();
