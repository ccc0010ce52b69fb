import * as z from 'zod/mini';
import { defineContract, named } from '../platform/api-contract';

export const OpenApiDocument = named(
  'OpenApiDocument',
  z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  }),
);

export const contract = defineContract({
  openapi: {
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of this API: no credentials needed, not rate-limited.',
    responses: { 200: { description: 'The OpenAPI document.', body: OpenApiDocument, headers: ['Cache-Control'] } },
  },
});
