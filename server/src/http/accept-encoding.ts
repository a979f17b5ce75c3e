/** The encodings the API has prepared bodies for, in order of preference when the client rates them equally. */
export type BodyEncoding = 'br' | 'gzip' | 'identity';

const PREFERENCE: readonly BodyEncoding[] = ['br', 'gzip', 'identity'];

/**
 * Picks the best prepared encoding for an `Accept-Encoding` header (RFC 9110 §12.5.3): quality values count,
 * so `gzip;q=0` rules gzip out, `*` stands for every coding not named, and identity is acceptable unless
 * refused. When nothing listed is acceptable, identity is sent anyway rather than a 406.
 */
export function chooseEncoding(header: string | undefined): BodyEncoding {
  const qualities = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding === '') continue;
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    qualities.set(coding, Number.isFinite(quality) ? quality : 0);
  }
  const star = qualities.get('*');
  const qualityOf = (coding: BodyEncoding) => qualities.get(coding) ?? star ?? (coding === 'identity' ? Number.MIN_VALUE : 0);

  let best: BodyEncoding = 'identity';
  let bestQuality = 0;
  for (const coding of PREFERENCE) {
    const quality = qualityOf(coding);
    if (quality > bestQuality) {
      best = coding;
      bestQuality = quality;
    }
  }
  return best;
}
