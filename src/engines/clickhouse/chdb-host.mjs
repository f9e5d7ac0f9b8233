// Runs ClickHouse embedded (chdb) in a child process of its own, for the chdb executor. chdb
// allows one data directory per process, and a server process may hold several event stores
// (test servers do); a process per store gives each its own directory. Messages from the parent:
// { id, op: 'query', sql } -> { id, text } (TabSeparatedWithNamesAndTypes); { id, op: 'command', sql } -> { id };
// { id, op: 'insert', sql, data } -> { id } (sql ends with FORMAT TabSeparated; data are the rows); failures -> { id, error }.
// Plain JavaScript so that Node runs it without a loader.
import { Session } from 'chdb';

const [dataPath, settingsJson] = process.argv.slice(2);
const settings = JSON.parse(settingsJson ?? '{}');
const session = new Session(dataPath, {
  connectionArgs: Object.entries(settings).map(([name, value]) => `--${name}=${value}`),
});

function reply(message) {
  if (process.connected) process.send(message);
}

function failure(id, error) {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error?.clickhouseCode === 'number' ? error.clickhouseCode : Number(/Code: (\d+)\./.exec(message)?.[1] ?? 0);
  reply({ id, error: { message, code } });
}

async function handle(message) {
  const { id, op } = message;
  try {
    if (op === 'query') {
      const result = await session.queryAsync(message.sql, { format: 'TabSeparatedWithNamesAndTypes' });
      reply({ id, text: result.text() });
    } else if (op === 'command') {
      await session.queryAsync(message.sql, { format: 'Null' });
      reply({ id });
    } else if (op === 'insert') {
      // The statement carries its rows after FORMAT, as ClickHouse reads inline data.
      await session.queryAsync(`${message.sql}\n${Buffer.from(message.data).toString('utf8')}`, { format: 'Null' });
      reply({ id });
    } else {
      reply({ id, error: { message: `unknown operation ${op}`, code: 0 } });
    }
  } catch (error) {
    // chdb keeps what a failed statement had written of its output and puts it before the next
    // statement's; a throwaway statement takes it.
    await session.queryAsync('SELECT 1', { format: 'TabSeparated' }).catch(() => undefined);
    failure(id, error);
  }
}

// chdb runs one statement at a time anyway; queueing them here keeps each failure's cleanup
// between that statement and the next.
let queue = Promise.resolve();
process.on('message', (message) => {
  queue = queue.then(() => handle(message));
});

// The parent went away (closed the store, or died): release the data directory and leave.
process.on('disconnect', () => {
  session.close();
  process.exit(0);
});

reply({ ready: true });
