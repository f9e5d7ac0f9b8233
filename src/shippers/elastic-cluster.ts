// What Elasticsearch clients and Beats ask a cluster before they send data: its version (`GET /`),
// its license (`GET /_license`, `GET /_xpack`) and its health. The answers describe one node of an
// Elasticsearch 8 cluster with an active basic license, which is what they need to go on.

/** The version reported. Beats newer than it need `allow_older_versions: true`, as Axiom documents. */
export const ELASTIC_VERSION = '8.17.0';
const CLUSTER_NAME = 'eventdeck';
const CLUSTER_UUID = 'ZXZlbnRkZWNrLWNsdXN0ZXI';
const ISSUED_AT = Date.UTC(2024, 0, 1);

export function elasticVersionInfo(dataset: string) {
  return {
    name: dataset,
    cluster_name: CLUSTER_NAME,
    cluster_uuid: CLUSTER_UUID,
    version: {
      number: ELASTIC_VERSION,
      build_flavor: 'default',
      build_type: 'docker',
      build_hash: '0000000000000000000000000000000000000000',
      build_date: '2024-12-11T12:08:05.663969764Z',
      build_snapshot: false,
      lucene_version: '9.12.0',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'You Know, for Search',
  };
}

const LICENSE = {
  status: 'active',
  uid: '6d6f7265-6576-656e-7464-65636b000001',
  type: 'basic',
  issue_date: new Date(ISSUED_AT).toISOString(),
  issue_date_in_millis: ISSUED_AT,
  max_nodes: 1000,
  max_resource_units: null,
  issued_to: CLUSTER_NAME,
  issuer: 'elasticsearch',
  start_date_in_millis: -1,
};

export function elasticLicense() {
  return { license: LICENSE };
}

export function elasticXpack() {
  return {
    build: { hash: '0000000000000000000000000000000000000000', date: '2024-12-11T12:08:05.663969764Z' },
    license: { uid: LICENSE.uid, type: LICENSE.type, mode: LICENSE.type, status: LICENSE.status },
    features: {},
  };
}

export function elasticHealth() {
  return {
    cluster_name: CLUSTER_NAME,
    status: 'green',
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: 1,
    active_shards: 1,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: 100,
  };
}
