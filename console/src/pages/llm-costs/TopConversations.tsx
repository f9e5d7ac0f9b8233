// The most expensive conversations of the range, and the messages of the one opened: each call
// in order with its model, cost, system prompt, user prompt, assistant response and tool calls,
// read from the messages by the genai_* functions.
import { MessagesSquare } from 'lucide-react';
import { runCostQuery } from '../../api/llm';
import { rowAt, rowCount, type ResultTable } from '../../api/query';
import { formatTokens } from '../models/format';
import { useLoad } from '../models/useLoad';
import { type CostScope, conversationApl, topConversationsApl } from './genai-apl';
import { Money } from './Money';

export interface TopConversationsProps {
  scope: CostScope;
  start: string;
  end: string;
  open: string;
  timeZone: 'local' | 'UTC';
  onOpen(conversation: string): void;
}

const rowsOf = (table: ResultTable | undefined) => (table ? Array.from({ length: rowCount(table) }, (_, index) => rowAt(table, index)) : []);
const num = (value: unknown) => (typeof value === 'number' ? value : null);
const text = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value));

function formatCallTime(value: unknown, timeZone: 'local' | 'UTC'): string {
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, timeZone === 'UTC' ? { timeZone: 'UTC', timeZoneName: 'short' } : {});
}

function Conversation({ scope, start, end, conversation, timeZone }: { scope: CostScope; start: string; end: string; conversation: string; timeZone: 'local' | 'UTC' }) {
  const calls = useLoad(
    (signal) => runCostQuery(conversationApl(scope, conversation), start, end, signal),
    [scope.dataset, JSON.stringify(scope.fields), scope.modelId, conversation, start, end],
  );
  const rows = rowsOf(calls.data?.tables[0]);
  return (
    <section className="conversation" aria-label={`Conversation ${conversation}`}>
      <h3>
        Conversation <span className="mono">{conversation}</span>
      </h3>
      {calls.state === 'error' ? <p className="error-box">{calls.message}</p> : null}
      {calls.state === 'loading' ? <p className="muted">Loading the messages…</p> : null}
      {calls.state === 'done' && rows.length === 0 ? <p className="muted">No call of this conversation in the range.</p> : null}
      <ol className="conversation-calls">
        {rows.map((row, index) => {
          const tools = text(row.tools);
          return (
            <li key={index} className="conversation-call">
              <div className="conversation-call-head">
                <span>{formatCallTime(row._time, timeZone)}</span>
                <span className="mono">{text(row.model) || '(no model)'}</span>
                <span>
                  {formatTokens(num(row.inputTokens))} in · {formatTokens(num(row.outputTokens))} out
                </span>
                <Money value={num(row.cost)} />
              </div>
              {text(row.system) ? <Message role="System" content={text(row.system)} /> : null}
              <Message role="User" content={text(row.user)} />
              <Message role="Assistant" content={text(row.assistant)} />
              {tools && tools !== 'null' ? <Message role="Tool calls" content={tools} mono /> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function Message({ role, content, mono = false }: { role: string; content: string; mono?: boolean }) {
  return (
    <div className={`conversation-message conversation-${role.toLowerCase().replace(' ', '-')}`}>
      <span className="conversation-role">{role}</span>
      <p className={mono ? 'mono' : undefined}>{content || <span className="muted">(empty)</span>}</p>
    </div>
  );
}

export function TopConversations({ scope, start, end, open, timeZone, onOpen }: TopConversationsProps) {
  const apl = topConversationsApl(scope);
  const top = useLoad(
    (signal) => (apl ? runCostQuery(apl, start, end, signal) : Promise.resolve(undefined)),
    [apl, start, end],
  );
  const rows = rowsOf(top.data?.tables[0]);
  return (
    <section className="costs-section" aria-labelledby="conversations-title">
      <h2 id="conversations-title">Most expensive conversations</h2>
      {!apl ? <p className="muted">Name the conversation id field under "Fields" to list conversations.</p> : null}
      {top.state === 'error' ? <p className="error-box">{top.message}</p> : null}
      {apl && top.state === 'done' && rows.length === 0 ? <p className="muted">No conversation in this range.</p> : null}
      {rows.length > 0 ? (
        <table className="costs-table" aria-label="Most expensive conversations">
          <thead>
            <tr>
              <th scope="col">Conversation</th>
              <th scope="col" className="number">Calls</th>
              <th scope="col" className="number">Input tokens</th>
              <th scope="col" className="number">Output tokens</th>
              <th scope="col" className="number">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const id = text(row.conversation);
              return (
                <tr key={id} aria-current={id === open ? 'true' : undefined}>
                  <th scope="row">
                    <button type="button" className="button small ghost mono" onClick={() => onOpen(id === open ? '' : id)} aria-pressed={id === open} aria-label={`Messages of ${id}`}>
                      <MessagesSquare size={14} aria-hidden="true" />
                      {id}
                    </button>
                  </th>
                  <td className="number">{formatTokens(num(row.calls))}</td>
                  <td className="number">{formatTokens(num(row.inputTokens))}</td>
                  <td className="number">{formatTokens(num(row.outputTokens))}</td>
                  <td className="number">
                    <Money value={num(row.cost)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {open ? <Conversation scope={scope} start={start} end={end} conversation={open} timeZone={timeZone} /> : null}
    </section>
  );
}
