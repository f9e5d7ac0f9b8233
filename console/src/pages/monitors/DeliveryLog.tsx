// A notifier's delivery log: every attempt, newest first, with its outcome, the receiver's
// status or error, and whether it was a test; older attempts page in on demand.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { type Delivery, listDeliveries } from '../../api/monitors';
import { wallTime } from './format';
import { messageOf, useLoad } from './use-load';

const PAGE = 50;

export function DeliveryLog({ notifierId, name, round }: { notifierId: string; name: string; round: number }) {
  const { org = '' } = useParams();
  const first = useLoad((signal) => listDeliveries(notifierId, { limit: PAGE }, signal), [notifierId, round]);
  const [older, setOlder] = useState<Delivery[]>([]);
  const [olderError, setOlderError] = useState<string | undefined>();
  const [exhausted, setExhausted] = useState(false);
  const rows = [...(first.data ?? []), ...older];

  const loadOlder = async () => {
    const last = rows[rows.length - 1];
    if (!last) return;
    try {
      const page = await listDeliveries(notifierId, { limit: PAGE, before: last.id });
      setOlder((current) => [...current, ...page]);
      if (page.length < PAGE) setExhausted(true);
    } catch (caught) {
      setOlderError(messageOf(caught));
    }
  };

  return (
    <section className="delivery-log" aria-labelledby={`log-${notifierId}`}>
      <div className="toolbar">
        <h2 id={`log-${notifierId}`}>Delivery log of {name}</h2>
        <button type="button" className="button small" onClick={() => { setOlder([]); setExhausted(false); first.reload(); }}>
          Refresh
        </button>
      </div>
      {first.error ? <p className="error-box" role="alert">{first.error}</p> : null}
      {first.data && rows.length === 0 ? <p className="muted">Nothing sent yet.</p> : null}
      {rows.length > 0 ? (
        <table className="deliveries-table" aria-labelledby={`log-${notifierId}`}>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Notification</th>
              <th scope="col">Action</th>
              <th scope="col">Attempt</th>
              <th scope="col">Outcome</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((delivery) => (
              <tr key={delivery.id} data-outcome={delivery.outcome} data-test={delivery.test ? 'true' : 'false'}>
                <td>{wallTime(delivery.attemptedAt)}</td>
                <td>
                  {delivery.test ? (
                    <span className="badge">Test</span>
                  ) : (
                    <Link className="mono" to={`/${encodeURIComponent(org)}/monitors/${encodeURIComponent(delivery.monitorId)}`}>
                      {delivery.monitorId}
                    </Link>
                  )}
                  <div className="muted mono">{delivery.notificationId}</div>
                </td>
                <td>{delivery.action}</td>
                <td>{delivery.attempt}</td>
                <td>
                  <span className={`outcome outcome-${delivery.outcome}`}>{delivery.outcome}</span>
                </td>
                <td>{delivery.statusCode ?? '—'}</td>
                <td>{delivery.durationMs} ms</td>
                <td className="delivery-error">{delivery.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {olderError ? <p className="error-box">{olderError}</p> : null}
      {first.data && first.data.length === PAGE && !exhausted ? (
        <button type="button" className="button small" onClick={loadOlder}>
          Older attempts
        </button>
      ) : null}
    </section>
  );
}
