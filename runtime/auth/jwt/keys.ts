import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { ApiError } from '../../errors/index.js';
import type { JwtKeyType } from './config.js';

/** A fixed verification key and the `alg` values it accepts. */
export interface StaticKey {
  readonly key: KeyObject;
  readonly algorithms: readonly string[];
}

const ASYMMETRIC: Readonly<Record<string, { readonly keyType: string; readonly curve?: string }>> = {
  RS256: { keyType: 'rsa' }, RS384: { keyType: 'rsa' }, RS512: { keyType: 'rsa' },
  Ed25519: { keyType: 'ed25519' },
  ES256: { keyType: 'ec', curve: 'prime256v1' }, ES384: { keyType: 'ec', curve: 'secp384r1' }, ES512: { keyType: 'ec', curve: 'secp521r1' },
};

/**
 * The `alg` values a fixed key verifies. Hasura's `type` only says how to read `key` (an HMAC
 * secret, or an RSA or Ed25519 public key: Server/Auth/JWT.hs parseKey, JWT/Internal.hs); the
 * key it builds names no algorithm, so jose checks a token with whatever algorithm of that key's
 * family the token names. An EC key fits the one algorithm of its curve.
 */
function algorithmsOf(type: JwtKeyType): string[] {
  if (type.startsWith('HS')) return ['HS256', 'HS384', 'HS512'];
  if (type.startsWith('RS')) return ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
  // Hasura names the EdDSA algorithm by its curve; tokens say `EdDSA` (or `Ed25519`, RFC 9864).
  if (type === 'Ed25519') return ['EdDSA', 'Ed25519'];
  return [type];
}

/**
 * Imports the `key` of a JWT secret: the HMAC secret itself (its UTF-8 bytes), or a public key
 * as PEM (SPKI, PKCS#1 RSA) or an X509 certificate, checked against `type`.
 */
export function importStaticKey(type: JwtKeyType, key: string, where = 'JWT secret'): StaticKey {
  const algorithms = algorithmsOf(type);
  if (type.startsWith('HS')) return { key: createSecretKey(Buffer.from(key, 'utf8')), algorithms };
  let publicKey: KeyObject;
  try {
    // createPublicKey takes a certificate too and gives its public key.
    publicKey = createPublicKey(key);
  } catch (e) {
    throw new ApiError('invalid-configuration', `${where}: "key" is not a PEM public key or X509 certificate (${(e as Error).message})`);
  }
  const want = ASYMMETRIC[type]!;
  const curve = publicKey.asymmetricKeyDetails?.namedCurve;
  if (publicKey.asymmetricKeyType !== want.keyType || (want.curve !== undefined && curve !== want.curve)) {
    const got = publicKey.asymmetricKeyType + (curve ? ` (${curve})` : '');
    throw new ApiError('invalid-configuration', `${where}: "key" is a ${got} key, which does not fit "type" ${type}`);
  }
  return { key: publicKey, algorithms };
}
