import type { AgentContext } from '@mcp-agent/core';
import type { Registry, TaskMeter } from '@mcp-agent/registry';
import type { ModelClient, ModelRequest, ModelResponse } from './model-client.js';
import { estimateCostUsd, type PriceTable } from './model-prices.js';

/** What a metered model reports to. */
export interface ModelMetering {
  /** The task's context: its tenant and request id. */
  readonly ctx: AgentContext;
  readonly meter: TaskMeter;
  /** Where the token quota is checked and usage recorded: the registry. */
  readonly store: Pick<Registry, 'admitModelRequest' | 'recordModelUsage'>;
  readonly prices: PriceTable;
}

/**
 * `model`, with the tenant's token quota checked before each request (a `QuotaExceededError`
 * ends the task) and each response's usage and estimated cost recorded after it, on the task's
 * meter and in the database. A failure to record is logged, never the task's failure.
 */
export function meterModel(model: ModelClient, metering: ModelMetering): ModelClient {
  const { ctx, meter, store, prices } = metering;
  return {
    specificationVersion: model.specificationVersion,
    modelId: model.modelId,
    ...(model.images === undefined ? {} : { images: model.images }),
    async generate(request: ModelRequest): Promise<ModelResponse> {
      await store.admitModelRequest(ctx);
      const response = await model.generate(request);
      const estimatedCostUsd = estimateCostUsd(prices, model.modelId, response.usage);
      meter.addModel(model.modelId, response.usage, estimatedCostUsd);
      await store
        .recordModelUsage(ctx, {
          taskId: ctx.taskId,
          model: model.modelId,
          usage: response.usage,
          estimatedCostUsd,
        })
        .catch((error: unknown) =>
          ctx.logger.error(
            { model: model.modelId, error: (error as Error).message?.slice(0, 300) },
            'could not record model usage',
          ),
        );
      return response;
    },
  };
}
