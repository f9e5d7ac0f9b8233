// Says whether the tail is connected: connecting, live, reconnecting (and why), or stopped on an
// error the server gave, with a way to try again (or at once, rather than after the delay).
import { CircleAlert, LoaderCircle, Radio, RotateCw } from 'lucide-react';
import type { TailState } from './useLiveTail';

interface ConnectionStatusProps {
  state: TailState;
  onRetry(): void;
}

export function ConnectionStatus({ state, onRetry }: ConnectionStatusProps) {
  return (
    <div className={`stream-connection state-${state.kind}`}>
      <span role="status" className="stream-connection-text">
        {state.kind === 'idle' && 'Not connected'}
        {state.kind === 'connecting' && (
          <>
            <LoaderCircle size={14} aria-hidden="true" className="spin" /> Connecting…
          </>
        )}
        {state.kind === 'live' && (
          <>
            <Radio size={14} aria-hidden="true" /> Live
          </>
        )}
        {state.kind === 'reconnecting' && (
          <>
            <LoaderCircle size={14} aria-hidden="true" className="spin" /> Reconnecting (attempt {state.attempt}): {state.reason}
          </>
        )}
        {state.kind === 'error' && (
          <>
            <CircleAlert size={14} aria-hidden="true" /> Stopped: {state.message}
          </>
        )}
      </span>
      {(state.kind === 'error' || state.kind === 'reconnecting') && (
        <button type="button" className="button small" onClick={onRetry}>
          <RotateCw size={14} aria-hidden="true" /> {state.kind === 'error' ? 'Retry' : 'Retry now'}
        </button>
      )}
    </div>
  );
}
