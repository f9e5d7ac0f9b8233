// The flags `node` runs the server with, wherever it starts (`npm start`, the image, the benches,
// the tests that start it as a process); a test checks that package.json and the Dockerfile say
// the same. V8 keeps its young generation committed at the largest size it reached, 32 MB by
// default; at 8 MB the server holds 20-35 MB less, at rest and under load, with the same ingest
// rate (see docs/operations/memory.md).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'];
