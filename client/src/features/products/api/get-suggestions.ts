import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductSuggestions } from '@catalogue/shared/product-suggestions';
import { PRODUCTS_PARAMS, API_PATHS } from '@catalogue/shared/routes';
import { searchNeedle } from '@catalogue/shared/sort';
import { type ApiClient, useApiClient } from '../../../lib/api-client';
import { productKeys } from './product-keys';

/**
 * What the bar's search suggests for a text: one request per text, keyed by the text as the search compares it. A
 * request for a text the box no longer holds is cancelled (TanStack Query aborts its signal once nothing observes
 * it), and the last suggestions stay shown until the next arrive.
 */
export function getSuggestionsQueryOptions(api: ApiClient, search: string) {
  const needle = searchNeedle(search);
  return queryOptions({
    queryKey: productKeys.suggestions(needle),
    queryFn: ({ signal }) =>
      api.getJson<ProductSuggestions>(
        `${API_PATHS.suggestions}?${new URLSearchParams({ [PRODUCTS_PARAMS.search]: needle }).toString()}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}

/** The suggestions for `search`, asked only when `enabled` (the box holds text and has been used). */
export function useSuggestions(search: string, enabled: boolean) {
  return useQuery({ ...getSuggestionsQueryOptions(useApiClient(), search), enabled });
}
