// "Send data": snippets for every door the server serves, with this server's URL and the
// dataset, and "Create token": a new API token that may only ingest into this dataset, shown
// once and written into the snippets.
import { Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { createIngestToken, type CreatedToken } from '../../../api/datasets';
import { ErrorBox } from '../ErrorBox';
import { errorMessage } from '../useLoaded';
import { snippetsFor, TOKEN_PLACEHOLDER } from './snippets';

export function SendDataTab({ dataset, metrics }: { dataset: string; metrics: boolean }) {
  const [token, setToken] = useState<CreatedToken>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setToken(await createIngestToken(dataset, `Ingest into ${dataset} (${new Date().toISOString().slice(0, 19).replace('T', ' ')} UTC)`));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const copy = (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => setNotice(`${what} copied`),
      () => setNotice(`Could not copy: the browser refused the clipboard`),
    );

  const snippets = snippetsFor({ origin: window.location.origin, dataset, token: token?.token ?? TOKEN_PLACEHOLDER, metrics });
  return (
    <section aria-labelledby="send-title">
      <h2 id="send-title">Send data</h2>
      <p className="muted">
        Point your shipper at this server. Every snippet sends to <strong>{dataset}</strong> and needs a token that may ingest into it.
      </p>
      {token ? (
        <div className="token-box" role="region" aria-label="New token">
          <p>
            Token <strong>{token.name}</strong> created. It can only ingest into {dataset}. Copy it now: it is shown only once, and the snippets below use it.
          </p>
          <div className="toolbar">
            <code aria-label="Token">{token.token}</code>
            <button type="button" className="button small" onClick={() => void copy(token.token, 'Token')}>
              <Copy size={14} aria-hidden="true" />
              Copy token
            </button>
          </div>
        </div>
      ) : (
        <div className="toolbar datasets-section">
          <button type="button" className="button primary" onClick={() => void create()} disabled={busy}>
            <KeyRound size={16} aria-hidden="true" />
            Create token
          </button>
          <span className="muted">A new API token allowed to ingest into {dataset} and nothing else.</span>
        </div>
      )}
      <ErrorBox message={error} />
      <p role="status" className="muted">
        {notice}
      </p>
      {snippets.map((snippet) => (
        <section key={snippet.id} className="snippet" aria-labelledby={`snippet-${snippet.id}`}>
          <div className="snippet-header">
            <h3 id={`snippet-${snippet.id}`}>{snippet.title}</h3>
            <span className="muted">{snippet.language}</span>
            <button type="button" className="button small" onClick={() => void copy(snippet.text, snippet.title)} aria-label={`Copy ${snippet.title}`}>
              <Copy size={14} aria-hidden="true" />
              Copy
            </button>
          </div>
          <pre aria-label={`${snippet.title} snippet`} tabIndex={0}>
            <code>{snippet.text}</code>
          </pre>
        </section>
      ))}
    </section>
  );
}
