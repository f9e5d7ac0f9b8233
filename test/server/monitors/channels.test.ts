// Every channel delivers an alert's Open and Closed in its service's payload shape: Slack,
// Discord (webhook and bot), Microsoft Teams, PagerDuty Events v2, Opsgenie, plain and custom
// webhooks (Go templates), and email through a real SMTP server run in process. The services'
// fixed endpoints are pointed at a local receiver through their configuration variables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../helpers/mail';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver';
import { startTestServer, type TestServer } from '../../helpers/server';
import { apiOf, monitorTime } from '../../helpers/monitors/harness';
import { VirtualClock } from '../../helpers/monitors/virtual-clock';

const clock = new VirtualClock();
let server: TestServer;
let client: ReturnType<typeof apiOf>;
let receiver: Receiver;
let smtp: MailCatcher;
const time = monitorTime(clock, () => [server]);

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startMailCatcher();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Alerts <alerts@eventdeck.test>',
    PAGERDUTY_EVENTS_URL: `${receiver.url}/pagerduty/v2/enqueue`,
    OPSGENIE_API_URL: `${receiver.url}/opsgenie`,
    OPSGENIE_EU_API_URL: `${receiver.url}/opsgenie-eu`,
    DISCORD_API_URL: `${receiver.url}/discord-api`,
  }, { monitorClock: clock });
  client = apiOf(server, clock);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await smtp?.close();
});

const CUSTOM_TEMPLATE = `{"status": "{{ if eq .Action "Open" }}firing{{ else }}resolved{{ end }}",
 "monitor": "{{.MonitorID}}", "title": {{jsonObject .Title}}, "value": {{.Value}},
 "groups": "{{ range $i, $key := .GroupKeys }}{{ if $i }};{{ end }}{{ $key }}={{ index $.GroupValues $i }}{{ end }}",
 "window": ["{{.QueryStartTime}}", "{{.QueryEndTime}}"], "at": "{{.Timestamp}}"}`;

describe('notifier channels', () => {
  it('deliver Open and Closed in each service’s shape', { timeout: 90_000 }, async () => {
    await client.dataset('chan-logs', { status: 200, region: 'none' });
    const r = receiver.url;
    const specs = {
      custom: { customWebhook: { url: `${r}/custom`, body: CUSTOM_TEMPLATE, headers: { 'X-Team': 'sre' }, secretHeaders: { Authorization: 'Bearer hook-secret-123456' } } },
      webhook: { webhook: { url: `${r}/webhook` } },
      slack: { slack: { slackUrl: `${r}/slack/T000/B000/XXXX` } },
      discordWebhook: { discordWebhook: { discordWebhookUrl: `${r}/discord-hook/123/abc` } },
      discordBot: { discord: { discordToken: 'bot-token-abcdef', discordChannel: '987654321' } },
      teams: { microsoftTeams: { microsoftTeamsUrl: `${r}/teams/hook` } },
      pagerduty: { pagerduty: { routingKey: 'routing-key-0123456789abcdef' } },
      opsgenie: { opsgenie: { apiKey: 'genie-key-0123456789', isEU: true } },
      email: { email: { emails: ['oncall@example.com', 'lead@example.com'] } },
    };
    const ids: string[] = [];
    for (const [name, properties] of Object.entries(specs)) ids.push((await client.notifier({ name, properties })).id);
    const monitor = await client.monitor({
      name: 'Slow region',
      description: 'p95 of the EU region',
      type: 'Threshold',
      aplQuery: "['chan-logs'] | where status >= 500 | summarize errors = count() by region",
      operator: 'Above',
      threshold: 1,
      rangeMinutes: 2,
      notifyByGroup: true,
      notifierIds: ids,
    });
    await client.ingest('chan-logs', [{ status: 500, region: 'eu' }, { status: 502, region: 'eu' }]);
    // 8 HTTP channels, Open and Closed each; email goes through SMTP.
    await time.received(receiver, 16);
    await eventually(() => (smtp.mails.length === 2 ? true : undefined), 20_000, 'two mails');
    await time.minutes(2);
    expect(receiver.received).toHaveLength(16);
    const at = (prefix: string) => receiver.received.filter((request) => request.path.startsWith(prefix));

    const [customOpen, customClosed] = at('/custom');
    expect(customOpen!.headers['x-team']).toBe('sre');
    expect(customOpen!.headers.authorization).toBe('Bearer hook-secret-123456');
    expect(customOpen!.headers['content-type']).toBe('application/json');
    // Alerts by group name their group in the title and the body of every channel.
    expect(customOpen!.json).toMatchObject({ status: 'firing', monitor: monitor.id, title: 'Slow region (region=eu)', value: 2, groups: 'region=eu' });
    expect(customClosed!.json).toMatchObject({ status: 'resolved', value: 0 });
    // Go's time.Time formatting, as Axiom's templates receive times.
    expect(customOpen!.json.window[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC$/);
    expect(customOpen!.json.at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/);

    const [webhookOpen] = at('/webhook');
    expect(webhookOpen!.json).toMatchObject({
      action: 'Open',
      event: { monitorID: monitor.id, title: 'Slow region (region=eu)', description: 'p95 of the EU region', value: 2, groupKeys: ['region'], groupValues: ['eu'], matchedEvent: null },
    });

    const [slackOpen, slackClosed] = at('/slack');
    expect(slackOpen!.json.text).toContain('[Open] Slow region (region=eu)');
    expect(slackOpen!.json.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(slackClosed!.json.text).toContain('[Closed]');

    const [discordOpen] = at('/discord-hook');
    expect(discordOpen!.json.embeds[0]).toMatchObject({ title: '[Open] Slow region (region=eu)', color: expect.any(Number) });
    const [botOpen] = at('/discord-api');
    expect(botOpen!.path).toBe('/discord-api/channels/987654321/messages');
    expect(botOpen!.headers.authorization).toBe('Bot bot-token-abcdef');
    expect(botOpen!.json.embeds[0].description).toBe('region=eu: The value 2 is above the threshold 1');

    const [teamsOpen] = at('/teams');
    expect(teamsOpen!.json).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
    expect(teamsOpen!.json.attachments[0].content.type).toBe('AdaptiveCard');

    const [pdOpen, pdClosed] = at('/pagerduty');
    expect(pdOpen!.json).toMatchObject({ routing_key: 'routing-key-0123456789abcdef', event_action: 'trigger', payload: { severity: 'critical', source: 'eventdeck' } });
    expect(pdClosed!.json).toEqual({ routing_key: 'routing-key-0123456789abcdef', event_action: 'resolve', dedup_key: pdOpen!.json.dedup_key });

    const [genieOpen, genieClosed] = at('/opsgenie-eu');
    expect(genieOpen!.path).toBe('/opsgenie-eu/v2/alerts');
    expect(genieOpen!.headers.authorization).toBe('GenieKey genie-key-0123456789');
    expect(genieOpen!.json).toMatchObject({ message: '[Open] Slow region (region=eu)', priority: 'P1' });
    expect(genieClosed!.path).toBe(`/opsgenie-eu/v2/alerts/${encodeURIComponent(genieOpen!.json.alias)}/close?identifierType=alias`);

    const [openMail, closedMail] = smtp.mails;
    expect(openMail!.envelopeTo.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(openMail!.mail.subject).toBe('[Open] Slow region (region=eu)');
    expect(openMail!.mail.from?.value[0]).toMatchObject({ name: 'Alerts', address: 'alerts@eventdeck.test' });
    expect(openMail!.mail.text).toContain('region=eu: The value 2 is above the threshold 1');
    expect(openMail!.mail.html).toContain('<h2>[Open] Slow region (region=eu)</h2>');
    expect(closedMail!.mail.subject).toBe('[Closed] Slow region (region=eu)');

    // Every channel logged its two deliveries.
    for (const id of ids) {
      const log = await client.deliveries(id);
      expect(log.map((entry) => entry.outcome), id).toEqual(['delivered', 'delivered']);
    }
  });
});
