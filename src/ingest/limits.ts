// Limits of one ingest request, as Axiom documents them for its own ingest API.

/** More events than this in one request reject the whole request. */
export const MAX_EVENTS_PER_REQUEST = 10_000;
/** An event larger than this (its JSON text) fails alone; the others are stored. */
export const MAX_EVENT_BYTES = 1024 * 1024;
/** A field name (flattened, dot-separated) longer than this in UTF-8 fails its event. */
export const MAX_FIELD_NAME_BYTES = 200;
/**
 * An event whose objects and arrays nest deeper than this fails alone (Axiom documents the
 * same depth, 100 levels); the events around it are stored.
 */
export const MAX_EVENT_DEPTH = 100;
/**
 * Largest request body, both as sent and once decompressed. Ten thousand events of the usual
 * size (a few KB) fit many times over, and so does one event at the 1 MB limit; anything
 * larger is refused before it is parsed, which bounds the memory one request can take.
 */
export const MAX_BODY_BYTES = 100 * 1024 * 1024;
