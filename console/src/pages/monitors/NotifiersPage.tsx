// Notifiers: where monitors send their alerts. The list shows each channel and target (secrets
// masked as the API masks them); a notifier can be edited, deleted, sent a test notification
// (through the real delivery path), and its delivery log read. `?edit=<id>`, `?new` and
// `?log=<id>` in the URL open the form or the log, so they can be linked to.
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { channelOf, deleteNotifier, listNotifiers, type Notifier, sendTestNotification } from '../../api/monitors';
import { CHANNEL_LABELS, emptyNotifierForm, notifierFormOf, targetText } from './channel-fields';
import { DeliveryLog } from './DeliveryLog';
import { wallTime } from './format';
import { MonitorsTabs } from './MonitorsTabs';
import { NotifierFormPanel } from './NotifierFormPanel';
import { messageOf, useLoad } from './use-load';

export function NotifiersPage() {
  const notifiers = useLoad((signal) => listNotifiers(signal), []);
  const [search, setSearch] = useSearchParams();
  const [notice, setNotice] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  const [logRound, setLogRound] = useState(0);
  const editing = search.get('edit');
  const creating = search.has('new');
  const logOf = search.get('log');
  const list = notifiers.data ?? [];
  const edited = editing ? list.find((notifier) => notifier.id === editing) : undefined;
  const logged = logOf ? list.find((notifier) => notifier.id === logOf) : undefined;

  const open = (params: Record<string, string>) => {
    setNotice(undefined);
    setProblem(undefined);
    setSearch(params);
  };

  const sendTest = async (notifier: Notifier) => {
    setNotice(undefined);
    setProblem(undefined);
    try {
      const { notificationId } = await sendTestNotification(notifier.id);
      setNotice(`Test notification ${notificationId} queued for ${notifier.name}; its delivery shows in the log.`);
      setSearch({ log: notifier.id });
      // The worker sends it within moments: read the log again shortly.
      setTimeout(() => setLogRound((n) => n + 1), 1000);
    } catch (caught) {
      setProblem(messageOf(caught));
    }
  };

  const remove = async (notifier: Notifier) => {
    setConfirming(undefined);
    try {
      await deleteNotifier(notifier.id);
      setNotice(`Deleted ${notifier.name}.`);
      if (search.get('edit') === notifier.id || search.get('log') === notifier.id) setSearch({});
      notifiers.reload();
    } catch (caught) {
      setProblem(messageOf(caught));
    }
  };

  return (
    <section className="page notifiers-page">
      <header className="page-header">
        <h1>Notifiers</h1>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => open({ new: '' })}>
            <Plus size={16} aria-hidden="true" />
            New notifier
          </button>
        </div>
      </header>
      <MonitorsTabs />
      {notifiers.error ? <p className="error-box" role="alert">{notifiers.error}</p> : null}
      {problem ? <p className="error-box" role="alert">{problem}</p> : null}
      {notice ? <p role="status" className="notice">{notice}</p> : null}
      {notifiers.data && list.length === 0 ? <p className="muted">No notifiers yet: create one to receive alerts by webhook, chat, incident tool or email.</p> : null}
      {list.length > 0 ? (
        <table className="notifiers-table">
          <caption className="visually-hidden">Notifiers</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Channel</th>
              <th scope="col">Sends to</th>
              <th scope="col">Paused until</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((notifier) => {
              const channel = channelOf(notifier);
              return (
                <tr key={notifier.id} data-notifier-id={notifier.id}>
                  <th scope="row">{notifier.name}</th>
                  <td>{channel ? CHANNEL_LABELS[channel] : '—'}</td>
                  <td className="mono notifier-target">{targetText(notifier, channel)}</td>
                  <td>{notifier.disabledUntil ? wallTime(notifier.disabledUntil) : '—'}</td>
                  <td>
                    <div className="toolbar row-actions">
                      <button type="button" className="button small" onClick={() => sendTest(notifier)} aria-label={`Send test notification to ${notifier.name}`}>
                        Send test notification
                      </button>
                      <button type="button" className="button small" onClick={() => open({ log: notifier.id })} aria-label={`Delivery log of ${notifier.name}`}>
                        Delivery log
                      </button>
                      <button type="button" className="button small" onClick={() => open({ edit: notifier.id })} aria-label={`Edit ${notifier.name}`}>
                        Edit
                      </button>
                      {confirming === notifier.id ? (
                        <button type="button" className="button small danger" onClick={() => remove(notifier)} aria-label={`Confirm deleting ${notifier.name}`}>
                          Confirm delete
                        </button>
                      ) : (
                        <button type="button" className="button small" onClick={() => setConfirming(notifier.id)} aria-label={`Delete ${notifier.name}`}>
                          Delete
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {creating ? (
        <NotifierFormPanel
          key="new"
          existing={undefined}
          initial={emptyNotifierForm()}
          onCancel={() => open({})}
          onSaved={(saved) => {
            notifiers.reload();
            setSearch({});
            setNotice(`Created ${saved.name}.`);
          }}
        />
      ) : null}
      {edited ? (
        <NotifierFormPanel
          key={edited.id}
          existing={edited}
          initial={notifierFormOf(edited, channelOf(edited) ?? 'webhook')}
          onCancel={() => open({})}
          onSaved={(saved) => {
            notifiers.reload();
            setSearch({});
            setNotice(`Saved ${saved.name}.`);
          }}
        />
      ) : null}
      {logged ? <DeliveryLog notifierId={logged.id} name={logged.name} round={logRound} /> : null}
    </section>
  );
}
