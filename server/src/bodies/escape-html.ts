/**
 * How upstream text is written into a page so that it can only ever be text: product titles and descriptions
 * come from a third party, and a title like `</script><script>alert(1)</script>` must stay a title.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

const SCRIPT_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text for a `<script type="application/json">` or `application/ld+json` data block. Inside `<script>` the
 * HTML parser ends the element at the first `</script` and treats `<!--` specially, so `<`, `>` and `&` are
 * written as JSON escapes (the same string once parsed); U+2028 and U+2029 too, which older JavaScript parsers
 * took for line ends.
 */
export function escapeJsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
}
