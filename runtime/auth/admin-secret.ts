import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Whether `sent` equals one of the configured secrets, in time independent of where they
 * differ: both sides are hashed to 32 bytes first, so length leaks nothing either, and every
 * configured secret is compared (rotation lists) before answering.
 */
export function adminSecretMatches(sent: string, configured: readonly string[]): boolean {
  const sentDigest = digest(sent);
  let match = false;
  for (const secret of configured) {
    if (timingSafeEqual(sentDigest, digest(secret))) match = true;
  }
  return match;
}
