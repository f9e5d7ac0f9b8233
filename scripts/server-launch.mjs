// How `node` runs the server wherever it starts (`npm start`, the image, the benches, the tests
// that start it as a process); a test checks that package.json and the Dockerfile say the same.
// Both settings bound memory the process would otherwise keep (see docs/operations/memory.md):
// - V8 keeps its young generation committed at the largest size it reached, 32 MB by default;
//   8 MB is enough for the server's short-lived objects at the same ingest rate.
// - glibc gives each thread that allocates an arena of its own, up to 8 per core, and returns
//   little of them; DuckDB's and libuv's threads left the process holding tens of MB it no longer
//   used. Two arenas served the same load faster.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'];
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
