// One event opened from the tail: its whole JSON, a Copy button and Close (Escape closes too).
// Focus moves into the panel when it opens and back to the list's line when it closes.
import { Check, Copy, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '../../api/live';
import { eventJson, formatTime } from './format';
import { TraceIdLine } from '../traces/TraceIdLine';

interface EventPanelProps {
  event: LiveEvent;
  utc: boolean;
  onClose(): void;
}

export function EventPanel({ event, utc, onClose }: EventPanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const json = eventJson(event);

  useEffect(() => {
    heading.current?.focus();
    setCopy('idle');
  }, [event]);

  const copyJson = () => {
    navigator.clipboard.writeText(json).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };

  return (
    <aside
      className="stream-panel"
      aria-labelledby="stream-panel-title"
      onKeyDown={(keyEvent) => {
        if (keyEvent.key === 'Escape') onClose();
      }}
    >
      <div className="stream-panel-header">
        <h2 id="stream-panel-title" ref={heading} tabIndex={-1}>
          Event <span className="muted mono">{formatTime(event.time, utc)}</span>
        </h2>
        <button type="button" className="button small" onClick={copyJson}>
          {copy === 'copied' ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
          Copy
        </button>
        <button type="button" className="button ghost small" aria-label="Close event" onClick={onClose}>
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      <p className="stream-copy-status muted" role="status">
        {copy === 'copied' ? 'Copied to the clipboard.' : copy === 'failed' ? 'The browser refused to copy; select the text instead.' : ''}
      </p>
      <TraceIdLine event={{ _time: event.time, ...event.data }} />
      <pre className="stream-json" role="region" aria-label="Event JSON" tabIndex={0}>
        {json}
      </pre>
    </aside>
  );
}
