// Loaded with `node --import` (after tsx) into a server process that a monitor test runs on its
// own clock: swaps the monitors' system clock for one the test moves (see hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
