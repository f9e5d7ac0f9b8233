// The dashboards the signed-in user can see: name, who it is shared with and when it last
// changed; "New dashboard" creates one from a name and opens it in edit mode; each can be deleted.
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { createDashboard, type DashboardResource, deleteDashboard, listDashboards } from '../../api/dashboards';
import { useSession } from '../../app/session-context';
import { EVERYONE, newDocument, ownerLabel } from './document';
import { isSection } from './sections';
import './dashboards.css';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function DashboardListPage() {
  const navigate = useNavigate();
  const { session } = useSession();
  const [dashboards, setDashboards] = useState<DashboardResource[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [owner, setOwner] = useState(EVERYONE);
  const [confirming, setConfirming] = useState<string | undefined>();

  const reload = () =>
    listDashboards().then(
      (list) => {
        setDashboards(list);
      },
      (error: unknown) => setProblem(messageOf(error)),
    );

  useEffect(() => {
    void reload();
  }, []);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    try {
      const created = await createDashboard(newDocument(name.trim(), owner));
      navigate(`${encodeURIComponent(created.uid)}?edit=1`);
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const remove = async (uid: string) => {
    setProblem(undefined);
    try {
      await deleteDashboard(uid);
      setConfirming(undefined);
      await reload();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const sorted = [...(dashboards ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return (
    <section className="page">
      <div className="page-header">
        <h1>Dashboards</h1>
        <div className="toolbar">
          <button type="button" className="button primary" aria-expanded={creating} onClick={() => setCreating((open) => !open)}>
            <Plus size={16} aria-hidden="true" /> New dashboard
          </button>
        </div>
      </div>
      {creating ? (
        <form className="toolbar dashboard-create" onSubmit={create} aria-label="New dashboard">
          <label className="dashboard-filter">
            Name
            <input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required autoFocus />
          </label>
          <label className="dashboard-filter">
            Shared with
            <select value={owner} onChange={(event) => setOwner(event.target.value)}>
              <option value={EVERYONE}>Everyone in the organization</option>
              {session ? <option value={session.user.id}>Only me</option> : null}
            </select>
          </label>
          <button type="submit" className="button primary">
            Create dashboard
          </button>
        </form>
      ) : null}
      {problem ? (
        <p className="error-box" role="alert">
          {problem}
        </p>
      ) : null}
      {!dashboards && !problem ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : null}
      {dashboards && dashboards.length === 0 ? <p className="muted">No dashboards yet. Create one, or add a chart from the Query page.</p> : null}
      {sorted.length > 0 ? (
        <table className="dashboard-list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Shared with</th>
              <th scope="col">Charts</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((dashboard) => (
              <tr key={dashboard.uid}>
                <td>
                  <Link to={encodeURIComponent(dashboard.uid)}>{dashboard.dashboard.name}</Link>
                  {dashboard.dashboard.description ? <div className="muted">{dashboard.dashboard.description}</div> : null}
                </td>
                <td>{ownerLabel(dashboard.dashboard.owner, session?.user.id)}</td>
                <td>{Array.isArray(dashboard.dashboard.charts) ? dashboard.dashboard.charts.filter((chart) => !isSection(chart)).length : 0}</td>
                <td>
                  <time dateTime={dashboard.updatedAt}>{new Date(dashboard.updatedAt).toLocaleString()}</time>
                </td>
                <td className="dashboard-list-actions">
                  {confirming === dashboard.uid ? (
                    <span className="toolbar">
                      <span>Delete “{dashboard.dashboard.name}”?</span>
                      <button type="button" className="button small" onClick={() => void remove(dashboard.uid)}>
                        Delete for good
                      </button>
                      <button type="button" className="button small" onClick={() => setConfirming(undefined)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="button small ghost" aria-label={`Delete ${dashboard.dashboard.name}`} onClick={() => setConfirming(dashboard.uid)}>
                      <Trash2 size={16} aria-hidden="true" /> Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
