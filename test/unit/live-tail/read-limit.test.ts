// A tail's read brings what one subscriber can be sent before the next read, no more: at 100
// events a second and a message a second that is 100 events, half that at two messages a second,
// and never more than a subscriber holds or a message carries.
import { describe, expect, it } from 'vitest';
import { sentBetweenReads } from '../../../src/live-tail/subscriber';

const options = { queueLimit: 5_000, messageLimit: 1_000, maxEventsPerSecond: 100, messageIntervalMs: 1_000 };

describe('sentBetweenReads', () => {
  it('is a message interval of events at the subscriber pace', () => {
    expect(sentBetweenReads(options)).toBe(100);
    expect(sentBetweenReads({ ...options, messageIntervalMs: 500 })).toBe(50);
    expect(sentBetweenReads({ ...options, maxEventsPerSecond: 7, messageIntervalMs: 250 })).toBe(2);
    expect(sentBetweenReads({ ...options, maxEventsPerSecond: 1, messageIntervalMs: 1 })).toBe(1);
  });

  it('is bounded by what a subscriber holds and what one message carries', () => {
    expect(sentBetweenReads({ ...options, queueLimit: 30 })).toBe(30);
    expect(sentBetweenReads({ ...options, messageIntervalMs: 5_000 })).toBe(200); // two seconds' worth are held
    expect(sentBetweenReads({ ...options, maxEventsPerSecond: 10_000, messageLimit: 400 })).toBe(400);
  });
});
