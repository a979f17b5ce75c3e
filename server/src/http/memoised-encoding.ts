import { type BodyEncoding, chooseEncoding } from './accept-encoding.js';

/** Browsers and HTTP clients send a handful of distinct Accept-Encoding values; more than this is not worth keeping. */
const MAX_REMEMBERED = 64;

/**
 * chooseEncoding (the one rule, shared with the Express path) with its answers for common header values
 * remembered: parsing a header splits and lower-cases it into several strings, every request, for the same
 * few values. Values beyond the first MAX_REMEMBERED are parsed each time, so odd headers cannot grow memory.
 */
export function createMemoisedEncodingChooser(): (header: string | undefined) => BodyEncoding {
  const remembered = new Map<string, BodyEncoding>();
  const withoutHeader = chooseEncoding(undefined);
  return (header) => {
    if (header === undefined) return withoutHeader;
    let encoding = remembered.get(header);
    if (encoding === undefined) {
      encoding = chooseEncoding(header);
      if (remembered.size < MAX_REMEMBERED) remembered.set(header, encoding);
    }
    return encoding;
  };
}
