import { createContext, useContext } from 'react';

/** A failed answer from our API: `status` decides whether a retry can help, `message` is the server's `error`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiClient {
  getJson<T>(path: string, signal?: AbortSignal): Promise<T>;
}

/**
 * `baseUrl` is '' in the browser (the API is on the same origin); tests point it at a real server on port 0,
 * so the fetchers run unmocked.
 */
export function createApiClient(baseUrl: string): ApiClient {
  return {
    async getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
      const response = await fetch(`${baseUrl}${path}`, { signal, headers: { Accept: 'application/json' } });
      if (!response.ok) throw new ApiError(response.status, await readErrorMessage(response));
      return (await response.json()) as T;
    },
  };
}

async function readErrorMessage(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  } catch {
    // A proxy's HTML error page or an empty body: fall back to the status line.
  }
  return `Request failed with status ${response.status}`;
}

export const ApiClientContext = createContext<ApiClient>(createApiClient(''));

export function useApiClient(): ApiClient {
  return useContext(ApiClientContext);
}
