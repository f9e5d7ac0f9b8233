// A module resolution hook: where the server imports src/monitors/system-clock.ts, it gets
// child-clock.ts instead, a clock that moves when the test writes to the process's stdin.
const SYSTEM_CLOCK = '/src/monitors/system-clock.ts';
const CHILD_CLOCK = new URL('./child-clock.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  return new URL(resolved.url).pathname.endsWith(SYSTEM_CLOCK) ? { ...resolved, url: CHILD_CLOCK } : resolved;
}
