/**
 * A path segment percent-decoded as Express decodes route parameters (decodeURIComponent), or undefined for a
 * broken escape (`%E0%A4%A`), which names nothing: the API answers it 400, a page reads it as no id at all.
 */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
