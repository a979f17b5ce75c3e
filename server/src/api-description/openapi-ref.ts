import type { ReferenceObject } from 'openapi3-ts/oas31';

/** A `$ref` to one of the OpenAPI document's shared components. */
export const ref = (section: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): ReferenceObject => ({
  $ref: `#/components/${section}/${name}`,
});
