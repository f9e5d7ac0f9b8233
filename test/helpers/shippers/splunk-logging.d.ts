// The part of splunk-logging's API the tests use (the package ships no type declarations).
declare module 'splunk-logging' {
  export class Logger {
    constructor(config: { token: string; url: string; maxBatchCount?: number; maxBatchSize?: number; batchInterval?: number });
    error: (error: unknown, context?: unknown) => void;
    send(
      context: { message: unknown; severity?: string; metadata?: Record<string, unknown> },
      callback?: (error: unknown, response: unknown, body: unknown) => void,
    ): void;
    flush(callback?: (error: unknown, response: unknown, body: unknown) => void): void;
  }
}
