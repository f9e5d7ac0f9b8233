// The management API of monitors and notifiers: the official SDK's monitor client, masking of
// secrets, validation errors that name the field, capabilities, listing by query rights,
// GraphQL, and a monitor whose dataset was deleted.
import { Axiom } from '@axiomhq/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { VirtualClock } from '../../helpers/monitors/virtual-clock';

const clock = new VirtualClock();
let server: TestServer;
let client: ReturnType<typeof apiOf>;
let receiver: Receiver;
const time = monitorTime(clock, () => [server]);

beforeAll(async () => {
  server = await startTestServer({}, { monitorClock: clock });
  client = apiOf(server, clock);
  receiver = await startReceiver();
  await client.dataset('api-a', { status: 200, service: 'x' });
  await client.dataset('api-b', { status: 200 });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function token(body: object): Promise<string> {
  return (await client.ok('/v2/tokens', 'POST', { name: 'scoped', ...body })).token;
}

const threshold = (dataset: string, extra: object = {}) => ({
  name: `count of ${dataset}`,
  type: 'Threshold',
  aplQuery: `['${dataset}'] | summarize count()`,
  operator: 'Above',
  threshold: 100,
  ...extra,
});

describe('notifiers', () => {
  it('never shows a secret after creation, and keeps it when the masked value is sent back', async () => {
    const slackUrl = 'https://hooks.slack.com/services/T0001/B0001/verysecretpart';
    const created = await client.notifier({ name: 'Slack', properties: { slack: { slackUrl } } });
    expect(created.id).toMatch(/^notify_/);
    expect(created.properties).toEqual({ slack: { slackUrl: 'https://hooks.slack.com/*****' } });
    const pd = await client.notifier({ name: 'PD', properties: { pagerduty: { routingKey: 'abcdef0123456789abcdef0123456789', token: 'u+pd-token-xyz1' } } });
    expect(pd.properties.pagerduty).toEqual({ routingKey: '*****6789', token: '*****xyz1' });
    for (const path of ['/v2/notifiers', `/v2/notifiers/${created.id}`]) {
      const text = JSON.stringify(await client.ok(path));
      expect(text).not.toContain('verysecretpart');
      expect(text).not.toContain('abcdef0123456789');
    }
    const graphql = await server.graphql(`{ notifiers(first: 10) { edges { node { properties } } } }`);
    expect(JSON.stringify(graphql)).not.toContain('verysecretpart');

    // A custom webhook's secret header survives an update that sends back its masked form.
    const hook = await client.notifier({
      name: 'Hook',
      properties: { customWebhook: { url: `${receiver.url}/masked`, headers: { 'X-Plain': 'visible' }, secretHeaders: { Authorization: 'Bearer top-secret-value' } } },
    });
    expect(hook.properties.customWebhook.secretHeaders).toEqual({ Authorization: '*****alue' });
    expect(hook.properties.customWebhook.headers).toEqual({ 'X-Plain': 'visible' });
    const updated = await client.ok(`/v2/notifiers/${hook.id}`, 'PUT', { name: 'Hook renamed', properties: hook.properties });
    expect(updated.name).toBe('Hook renamed');
    const monitor = await client.monitor({ ...threshold('api-b', { threshold: -1 }), notifierIds: [hook.id] });
    const [request] = await time.received(receiver, 1);
    expect(request!.headers.authorization).toBe('Bearer top-secret-value');
    await client.ok(`/v2/monitors/${monitor.id}`, 'DELETE');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [object, RegExp][] = [
      [{ name: 'x', properties: {} }, /properties: give exactly one channel/],
      [{ name: 'x', properties: { slack: { slackUrl: 'https://a.test/x' }, webhook: { url: 'https://a.test/y' } } }, /exactly one channel.*slack, webhook/],
      [{ name: 'x', properties: { carrierPigeon: {} } }, /properties\.carrierPigeon: unknown channel/],
      [{ name: 'x', properties: { email: { emails: ['ok@example.com', 'not-an-address'] } } }, /properties\.email\.emails\.1: "not-an-address" is not an email address/],
      [{ name: 'x', properties: { email: { emails: [] } } }, /properties\.email\.emails: needs at least one address/],
      [{ name: 'x', properties: { webhook: { url: 'ftp://files.test/x' } } }, /properties\.webhook\.url: must be an http/],
      [{ name: 'x', properties: { customWebhook: { url: 'https://a.test', body: '{{ if .Action }}open' } } }, /properties\.customWebhook\.body: .*line 1: unexpected EOF/],
      [{ name: 'x', properties: { customWebhook: { url: 'https://a.test', body: '{{ .Severity }}' } } }, /properties\.customWebhook\.body: .*no template variable "\.Severity"/],
      [{ name: 'x', properties: { customWebhook: { url: 'https://a.test', body: '{{ shout .Title }}' } } }, /function "shout" not defined/],
      [{ name: 'x', properties: { discord: { discordToken: 't', discordChannel: 'general' } } }, /properties\.discord\.discordChannel: must be a Discord channel id/],
      [{ properties: { webhook: { url: 'https://a.test' } } }, /name: is required/],
    ];
    for (const [body, message] of cases) {
      const answer = await client.api('/v2/notifiers', 'POST', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.api('/v2/notifiers/notify_missing')).status).toBe(404);
  });

  it('accepts a template using the JSON functions, conditions and ranges', async () => {
    const body = '{"groups": {{jsonArray .GroupValues}}, "event": {{ .MatchedEvent | jsonObject }}, "s": "{{ range .GroupKeys }}[{{.}}]{{ end }}"}';
    const created = await client.notifier({ name: 'tpl', properties: { customWebhook: { url: 'https://a.test/x', body } } });
    expect(created.properties.customWebhook.body).toBe(body);
  });

  it('requires the notifiers capability', async () => {
    const reader = await token({ orgCapabilities: { notifiers: ['read'] } });
    expect((await client.api('/v2/notifiers', 'GET', undefined, reader)).status).toBe(200);
    const denied = await client.api('/v2/notifiers', 'POST', { name: 'x', properties: { webhook: { url: 'https://a.test' } } }, reader);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/notifiers:create/);
    const none = await token({ orgCapabilities: { datasets: ['read'] } });
    expect((await client.api('/v2/notifiers', 'GET', undefined, none)).status).toBe(403);
  });
});

describe('monitors', () => {
  it('works with the official SDK client', async () => {
    const sdk = new Axiom({ url: server.url, token: server.adminToken });
    const created = await sdk.monitors.create({
      name: 'SDK monitor',
      type: 'Threshold',
      aplQuery: "['api-a'] | summarize count() by bin(_time, 1m)",
      operator: 'AboveOrEqual',
      threshold: 10,
      intervalMinutes: 5,
      rangeMinutes: 10,
    });
    expect(created).toMatchObject({ id: expect.stringMatching(/^mon_/), name: 'SDK monitor', intervalMinutes: 5, rangeMinutes: 10, disabled: false, notifierIds: [] });
    expect((await sdk.monitors.get(created.id)).aplQuery).toBe("['api-a'] | summarize count() by bin(_time, 1m)");
    expect((await sdk.monitors.list()).map((monitor) => monitor.id)).toContain(created.id);
    const updated = await sdk.monitors.update(created.id, {
      name: 'SDK monitor 2',
      type: 'Threshold',
      aplQuery: "['api-a'] | summarize count()",
      operator: 'Below',
      threshold: 1,
      disabled: true,
    });
    expect(updated).toMatchObject({ name: 'SDK monitor 2', operator: 'Below', disabled: true, intervalMinutes: 1, rangeMinutes: 1 });
    await sdk.monitors.delete(created.id);
    expect((await client.api(`/v2/monitors/${created.id}`)).status).toBe(404);
  });

  it('returns every field of the schema', async () => {
    const notifier = await client.notifier({ name: 'n', properties: { webhook: { url: 'https://a.test/hook' } } });
    const body = {
      name: 'Full',
      description: 'all fields',
      type: 'Threshold',
      aplQuery: "['api-a'] | summarize errors = count(), slow = countif(status > 499) by service",
      operator: 'AboveOrEqual',
      threshold: 2.5,
      columnName: 'slow',
      intervalMinutes: 2,
      rangeMinutes: 4,
      alertOnNoData: true,
      notifyByGroup: true,
      notifyEveryRun: true,
      resolvable: true,
      skipResolved: true,
      disabled: false,
      disabledUntil: '2030-01-01T00:00:00.000Z',
      notifierIDs: [notifier.id],
      triggerFromNRuns: 3,
      triggerAfterNPositiveResults: 2,
      secondDelay: 30,
      tolerance: 5,
      compareDays: 1,
    };
    const created = await client.monitor(body);
    const { notifierIDs, ...rest } = body;
    expect(created).toEqual({
      ...rest,
      notifierIds: notifierIDs,
      id: expect.stringMatching(/^mon_/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: expect.any(String),
    });
    await client.ok(`/v2/monitors/${created.id}`, 'DELETE');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [object, RegExp][] = [
      [threshold('api-a', { notifierIds: ['notify_nope'] }), /notifierIds: no notifier "notify_nope"/],
      [threshold('api-a', { aplQuery: "['api-a'] | summarize count( by" }), /aplQuery: syntax error at line 1, column \d+/],
      [threshold('api-a', { aplQuery: "['api-a'] | where nosuchfield > 1 | summarize count()" }), /aplQuery: .*unknown field "nosuchfield"/],
      [threshold('api-a', { aplQuery: "['no-such-dataset'] | summarize count()" }), /aplQuery: dataset "no-such-dataset" not found/],
      [threshold('api-a', { intervalMinutes: 0 }), /intervalMinutes: must be at least 1/],
      [threshold('api-a', { rangeMinutes: 1.5 }), /rangeMinutes: must be a whole number/],
      [threshold('api-a', { operator: undefined }), /operator: is required for threshold monitors/],
      [threshold('api-a', { threshold: undefined }), /threshold: is required/],
      [threshold('api-a', { operator: 'AboveOrBelow' }), /operator: AboveOrBelow .* anomaly monitors/],
      [threshold('api-a', { type: 'Sometimes' }), /type: is required: one of Threshold, MatchEvent, AnomalyDetection/],
      [threshold('api-a', { aplQuery: "['api-a'] | where status > 1" }), /aplQuery: threshold monitors compare an aggregated value/],
      [threshold('api-a', { columnName: 'nope' }), /columnName: the query has no column "nope"/],
      [threshold('api-a', { triggerFromNRuns: 2, triggerAfterNPositiveResults: 3 }), /triggerAfterNPositiveResults: must be at most triggerFromNRuns/],
      [threshold('api-a', { secondDelay: 90_000 }), /secondDelay: must be at most 86400/],
      [{ name: 'm', type: 'MatchEvent', aplQuery: "['api-a'] | summarize count()" }, /aplQuery: match monitors notify matching events/],
      [{ name: 'm', type: 'MatchEvent', mplQuery: 'metrics:cpu' }, /mplQuery: MPL monitors are not supported/],
      [{ name: 'a', type: 'AnomalyDetection', aplQuery: "['api-a'] | summarize count()", operator: 'AboveOrEqual' }, /operator: anomaly monitors use Above, Below or AboveOrBelow/],
    ];
    for (const [body, message] of cases) {
      const answer = await client.api('/v2/monitors', 'POST', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toMatch(message);
    }
    const created = await client.monitor(threshold('api-a'));
    const history = await client.api(`/v2/monitors/${created.id}/history?endTime=2030-01-01T00:00:00Z`);
    expect(history.status).toBe(400);
    expect(history.body.message).toMatch(/startTime is required/);
    const bad = await client.api(`/v2/monitors/${created.id}/history?startTime=yesterday&endTime=2030-01-01T00:00:00Z`);
    expect(bad.body.message).toMatch(/startTime must be an RFC 3339 time/);
    await client.ok(`/v2/monitors/${created.id}`, 'DELETE');
  });

  it('lists only monitors over datasets the token may query, under the monitors capability', async () => {
    const onA = await client.monitor(threshold('api-a'));
    const onB = await client.monitor(threshold('api-b'));
    const reader = await token({ datasetCapabilities: { 'api-a': { query: ['read'] } }, orgCapabilities: { monitors: ['read'] } });
    const listed = await client.api('/v2/monitors', 'GET', undefined, reader);
    expect(listed.status).toBe(200);
    const ids = listed.body.map((monitor: { id: string }) => monitor.id);
    expect(ids).toContain(onA.id);
    expect(ids).not.toContain(onB.id);
    expect((await client.api(`/v2/monitors/${onB.id}`, 'GET', undefined, reader)).status).toBe(404);
    const write = await client.api('/v2/monitors', 'POST', threshold('api-a'), reader);
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/monitors:create/);
    // Creating needs query rights on the datasets the query reads.
    const writer = await token({ datasetCapabilities: { 'api-a': { query: ['read'] } }, orgCapabilities: { monitors: ['create', 'read'] } });
    expect((await client.api('/v2/monitors', 'POST', threshold('api-a'), writer)).status).toBe(200);
    // A dataset the token holds nothing on is hidden: the same answer as for a missing one.
    const denied = await client.api('/v2/monitors', 'POST', threshold('api-b'), writer);
    expect(denied.status).toBe(400);
    expect(denied.body.message).toMatch(/aplQuery: dataset "api-b" not found/);
    const none = await token({ datasetCapabilities: { '*': { query: ['read'] } } });
    expect((await client.api('/v2/monitors', 'GET', undefined, none)).status).toBe(403);
  });

  it('keeps running when its dataset is deleted, reporting the error in its status', { timeout: 30_000 }, async () => {
    await client.dataset('doomed');
    const monitor = await client.monitor(threshold('doomed'));
    await client.ok('/v2/datasets/doomed', 'DELETE');
    const error = await time.until(async () => {
      const answer = await server.graphql(`{ monitor(id: "${monitor.id}") { status { lastError lastRunAt } } }`);
      return answer.data.monitor.status.lastError ?? undefined;
    }, 'error in the status');
    expect(error).toMatch(/dataset "doomed" not found/);
    expect((await client.api(`/v2/monitors/${monitor.id}`)).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('creates, lists, finds by node id, updates and deletes monitors and notifiers', async () => {
    const created = await server.graphql(
      `mutation($input: NotifierInput!) { createNotifier(input: $input) { id notifierId channel properties } }`,
      { input: { name: 'gql', properties: { opsgenie: { apiKey: 'opsgenie-key-1234567', isEU: false } } } },
    );
    expect(created.errors).toBeUndefined();
    const notifier = created.data.createNotifier;
    expect(notifier).toMatchObject({ channel: 'opsgenie', properties: { opsgenie: { apiKey: '*****4567', isEU: false } } });

    const monitor = await server.graphql(
      `mutation($input: MonitorInput!) { createMonitor(input: $input) { id monitorId type operator notifierIds notifiers { notifierId } datasets } }`,
      { input: { name: 'gql monitor', type: 'Threshold', aplQuery: "['api-a'] | summarize count()", operator: 'Above', threshold: 5, notifierIds: [notifier.notifierId] } },
    );
    expect(monitor.errors).toBeUndefined();
    const made = monitor.data.createMonitor;
    expect(made).toMatchObject({ type: 'Threshold', operator: 'Above', notifierIds: [notifier.notifierId], notifiers: [{ notifierId: notifier.notifierId }], datasets: ['api-a'] });

    const node = await server.graphql(`query($id: ID!) { node(id: $id) { ... on Monitor { monitorId name status { state nextRunAt } } } }`, { id: made.id });
    expect(node.data.node).toMatchObject({ monitorId: made.monitorId, name: 'gql monitor', status: { state: 'closed' } });
    const list = await server.graphql(`{ monitors(first: 100) { edges { node { monitorId } } pageInfo { hasNextPage } } }`);
    expect(list.data.monitors.edges.map((edge: any) => edge.node.monitorId)).toContain(made.monitorId);
    const history = await server.graphql(
      `query($id: String!) { monitor(id: $id) { history(startTime: "2020-01-01T00:00:00Z", endTime: "2030-01-01T00:00:00Z", first: 10) { edges { node { state } } } } }`,
      { id: made.monitorId },
    );
    expect(history.data.monitor.history.edges).toEqual([]);

    const bad = await server.graphql(
      `mutation($id: String!, $input: MonitorInput!) { updateMonitor(id: $id, input: $input) { id } }`,
      { id: made.monitorId, input: { name: 'x', type: 'Threshold', aplQuery: "['api-a'] | summarize count()", operator: 'Above', threshold: 1, intervalMinutes: 0 } },
    );
    expect(bad.errors?.[0]).toMatchObject({ message: expect.stringMatching(/intervalMinutes: must be at least 1/), extensions: { code: 'BAD_USER_INPUT' } });

    const twoChannels = await server.graphql(
      `mutation($input: NotifierInput!) { createNotifier(input: $input) { id } }`,
      { input: { name: 'two', properties: { slack: { slackUrl: 'https://a.test/x' }, email: { emails: ['a@example.com'] } } } },
    );
    expect(twoChannels.errors?.[0]?.message).toMatch(/exactly one channel/);

    const deleted = await server.graphql(`mutation($id: String!) { deleteMonitor(id: $id) }`, { id: made.monitorId });
    expect(deleted.data.deleteMonitor).toBe(made.monitorId);
    const gone = await server.graphql(`mutation($id: String!) { deleteNotifier(id: $id) }`, { id: notifier.notifierId });
    expect(gone.data.deleteNotifier).toBe(notifier.notifierId);
  });
});
