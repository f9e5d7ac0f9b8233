// Every tool the MCP endpoint offers, in the order agents see them listed.
import type { AnyTool } from '../tool-kit';
import { aplReference, queryApl, validateApl } from './apl';
import { getDatasetSchema, listDatasets } from './datasets';
import { getMetricTagValues, listMetrics, listMetricTags, queryMetrics } from './metrics';
import { checkMonitors, getMonitorHistory, getSavedQueries } from './monitors';
import { estimateLlmCost, getLlmUsage, getModelPrice, searchModels } from './models';

export const MCP_TOOLS: readonly AnyTool[] = [
  listDatasets,
  getDatasetSchema,
  queryApl,
  validateApl,
  aplReference,
  getSavedQueries,
  checkMonitors,
  getMonitorHistory,
  listMetrics,
  listMetricTags,
  getMetricTagValues,
  queryMetrics,
  searchModels,
  getModelPrice,
  estimateLlmCost,
  getLlmUsage,
];
