// Copy-paste configuration for every door the server serves, written for this server's URL, the
// dataset and a token, with the paths and headers of docs/guides/sending-data.md.
export interface Snippet {
  id: string;
  title: string;
  /** What the snippet is: a shell command, a YAML file... (shown beside the title). */
  language: string;
  text: string;
}

export const TOKEN_PLACEHOLDER = 'YOUR_INGEST_TOKEN';

interface Target {
  /** The server's origin, e.g. http://127.0.0.1:8080 (no trailing slash). */
  origin: string;
  dataset: string;
  token: string;
  /** The dataset holds metrics (OTLP metrics only). */
  metrics: boolean;
}

/** Single quotes for a POSIX shell. */
const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function snippetsFor({ origin, dataset, token, metrics }: Target): Snippet[] {
  const url = new URL(origin);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const ingestUrl = `${origin}/v1/datasets/${dataset}/ingest`;
  const elasticUrl = `${origin}/v1/ingest/${dataset}/elastic`;
  const lokiUrl = `${origin}/loki/api/v1/push`;

  const otelSdk: Snippet = {
    id: 'otel-sdk',
    title: 'OpenTelemetry SDK (any language)',
    language: 'shell',
    text: [
      `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}`,
      'export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf',
      `export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer ${token},X-Axiom-Dataset=${dataset}"`,
      'export OTEL_SERVICE_NAME=my-service',
    ].join('\n'),
  };
  const signal = metrics ? 'metrics' : 'traces';
  const otelCollector: Snippet = {
    id: 'otel-collector',
    title: 'OpenTelemetry Collector',
    language: 'YAML',
    text: [
      'exporters:',
      '  otlphttp/eventdeck:',
      `    endpoint: ${origin}`,
      '    compression: gzip',
      '    headers:',
      `      authorization: Bearer ${token}`,
      `      x-axiom-dataset: ${dataset}`,
      'service:',
      '  pipelines:',
      `    ${signal}:`,
      '      receivers: [otlp]',
      '      exporters: [otlphttp/eventdeck]',
      ...(metrics ? [] : ['    logs:', '      receivers: [otlp]', '      exporters: [otlphttp/eventdeck]']),
    ].join('\n'),
  };
  if (metrics) return [otelSdk, otelCollector];

  return [
    {
      id: 'curl',
      title: 'curl',
      language: 'shell',
      text: [
        `curl -X POST ${sh(ingestUrl)} \\`,
        `  -H ${sh(`Authorization: Bearer ${token}`)} \\`,
        `  -H ${sh('Content-Type: application/x-ndjson')} \\`,
        `  --data-binary ${sh('{"message":"hello from curl","level":"info"}')}`,
      ].join('\n'),
    },
    {
      id: 'axiom-js',
      title: '@axiomhq/js',
      language: 'JavaScript',
      text: [
        "import { Axiom } from '@axiomhq/js';",
        '',
        `const axiom = new Axiom({ token: '${token}', url: '${origin}' });`,
        `axiom.ingest('${dataset}', [{ message: 'hello from @axiomhq/js' }]);`,
        'await axiom.flush();',
      ].join('\n'),
    },
    otelSdk,
    otelCollector,
    {
      id: 'vector',
      title: 'Vector',
      language: 'TOML',
      text: [
        '[sinks.eventdeck]',
        'type = "http"',
        'inputs = ["my_source"]',
        `uri = "${ingestUrl}"`,
        'method = "post"',
        'compression = "zstd"',
        'encoding.codec = "json"',
        'framing.method = "newline_delimited"',
        'request.headers.Content-Type = "application/x-ndjson"',
        'auth.strategy = "bearer"',
        `auth.token = "${token}"`,
      ].join('\n'),
    },
    {
      id: 'filebeat',
      title: 'Filebeat (and the other Beats)',
      language: 'YAML',
      text: [
        'setup.ilm.enabled: false',
        'setup.template.enabled: false',
        'output.elasticsearch:',
        `  hosts: ["${elasticUrl}"]`,
        `  api_key: "axiom:${token}"`,
        '  allow_older_versions: true',
      ].join('\n'),
    },
    {
      id: 'logstash',
      title: 'Logstash',
      language: 'Logstash',
      text: [
        'output {',
        '  elasticsearch {',
        `    hosts => ["${origin}"]`,
        `    path => "/v1/ingest/${dataset}/elastic"`,
        '    user => "axiom"',
        `    password => "${token}"`,
        '    manage_template => false',
        '    ilm_enabled => false',
        '  }',
        '}',
      ].join('\n'),
    },
    {
      id: 'fluentd',
      title: 'Fluentd (fluent-plugin-elasticsearch)',
      language: 'Fluentd',
      text: [
        '<match **>',
        '  @type elasticsearch',
        `  host ${url.hostname}`,
        `  port ${port}`,
        `  scheme ${url.protocol === 'https:' ? 'https' : 'http'}`,
        `  path /v1/ingest/${dataset}/elastic`,
        '  user axiom',
        `  password ${token}`,
        '  include_timestamp true',
        '  suppress_type_name true',
        '  verify_es_version_at_startup false',
        '  default_elasticsearch_version 8',
        '</match>',
      ].join('\n'),
    },
    {
      id: 'promtail',
      title: 'Promtail',
      language: 'YAML',
      text: ['clients:', `  - url: ${lokiUrl}`, `    bearer_token: ${token}`, '    headers:', `      X-Axiom-Dataset: ${dataset}`].join('\n'),
    },
    {
      id: 'alloy',
      title: 'Grafana Alloy',
      language: 'Alloy',
      text: [
        'loki.write "eventdeck" {',
        '  endpoint {',
        `    url          = "${lokiUrl}"`,
        `    bearer_token = "${token}"`,
        `    headers      = { "X-Axiom-Dataset" = "${dataset}" }`,
        '  }',
        '}',
      ].join('\n'),
    },
    {
      id: 'splunk-hec',
      title: 'Splunk HTTP Event Collector',
      language: 'shell',
      text: [
        `curl ${sh(`${origin}/services/collector/event?index=${dataset}`)} \\`,
        `  -H ${sh(`Authorization: Splunk ${token}`)} \\`,
        `  -d ${sh('{"event":{"message":"hello from HEC"},"sourcetype":"httpevent"}')}`,
      ].join('\n'),
    },
    {
      id: 'heroku',
      title: 'Heroku log drain',
      language: 'shell',
      text: `heroku drains:add ${sh(`${url.protocol}//axiom:${token}@${url.host}/v1/datasets/${dataset}/ingest`)} -a my-app`,
    },
  ];
}
