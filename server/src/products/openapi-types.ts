/**
 * The part of OpenAPI 3.1 that openapi-document.ts uses, as types, so the document is checked as it is written
 * (a misspelt field or a response without a description does not compile). Not the whole specification: a field
 * the document needs is added here first.
 */

/** A JSON Schema 2020-12 schema (OpenAPI 3.1's dialect), limited to the keywords the document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  uniqueItems?: boolean;
  enum?: readonly (string | number)[];
  const?: string | number;
  default?: string | number;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  examples?: unknown[];
}

export interface Reference {
  $ref: string;
}

export interface Header {
  description: string;
  /** Whether every answer of its response carries it. */
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  /** Keyed by media type or range (`application/json`, `image/*`). Absent: no body. */
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: string | number;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags?: string[];
  parameters?: (Parameter | Reference)[];
  /** Keyed by status code (`'200'`). */
  responses: Record<string, Response | Reference>;
}

/** The methods OpenAPI can document; the API's routes answer GET (and HEAD with it). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = {
  summary?: string;
  description?: string;
  parameters?: (Parameter | Reference)[];
} & Partial<Record<HttpMethod, Operation>>;

export interface Tag {
  name: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect?: string;
  info: {
    title: string;
    version: string;
    summary?: string;
    description: string;
    license?: { name: string; identifier?: string; url?: string };
  };
  servers: { url: string; description?: string }[];
  tags: Tag[];
  /** Keyed by path relative to the server URL (`/products/{id}`). */
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, Response>;
  };
  externalDocs?: { description: string; url: string };
}
