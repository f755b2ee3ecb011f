/**
 * API keys (config `auth.Keys`) in `Authorization`: raw, `Token <key>` (DaData's clients) or `Bearer <key>`; a key
 * in `X-Secret` passes too (DaData's cleaner clients send their secret key there). With auth off
 * every request passes. `key-or-login` routes (the legacy methods that list `login`/`pwd`) also accept a
 * configured user. No credentials: 401 code 16 `Ключ API обязателен`; wrong ones: `Ошибка авторизации`.
 * `operator` routes (PUT /license) take the operator key (`auth.OperatorKey`) in the same header, with auth on
 * or off; with no operator key configured they are refused with 403 code 7 saying how to configure one.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { OPERATOR_KEY_ENV, type Config } from '../config.js';
import { PermissionDeniedError, UnauthenticatedError } from '../errors.js';
import type { RouteDefinition } from '../routes/route.js';

export const KEY_REQUIRED = 'Ключ API обязателен';
export const AUTH_FAILED = 'Ошибка авторизации';
export const OPERATOR_KEY_REQUIRED = 'Ключ оператора обязателен: передайте auth.OperatorKey в заголовке Authorization (Bearer <ключ>)';
export const OPERATOR_KEY_NOT_SET =
  `методы оператора отключены: ключ оператора не задан. Задайте auth.OperatorKey в файле конфигурации или переменную окружения ${OPERATOR_KEY_ENV} (не меньше 16 символов) и передайте его в заголовке Authorization`;

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time membership: compares digests so key lengths do not leak. */
function contains(secrets: Buffer[], candidate: string): boolean {
  const probe = digest(candidate);
  let found = false;
  for (const secret of secrets) found = timingSafeEqual(secret, probe) || found;
  return found;
}

export function keyFromHeader(header: string | undefined): string {
  const value = (header ?? '').trim();
  const match = /^(?:Token|Bearer)\s+(.+)$/i.exec(value);
  return (match ? match[1] : value).trim();
}

/**
 * The `Authorization` header, the parsed query string and the `X-Secret` header (DaData's cleaner sends the key
 * there too): what a credential check reads of a request.
 */
export type Authenticate = (authorization: string | undefined, query: Readonly<Record<string, unknown>>, secret?: string | string[]) => void;

/**
 * The credential check of a route, or null when there is nothing to check (auth off, or an open route):
 * throws 401 code 16 for missing or wrong credentials.
 */
export function authCheck(config: Config, policy: RouteDefinition['auth']): Authenticate | null {
  if (policy === 'operator') return operatorCheck(config.auth.OperatorKey);
  if (!config.auth.Enabled || policy === 'open') return null;
  const keys = config.auth.Keys.map(digest);
  const users = config.auth.Users.map((user) => digest(`${user.login}\u0000${user.pwd}`));
  return function authenticate(authorization, query, secret): void {
    const key = keyFromHeader(authorization);
    const secretKey = typeof secret === 'string' ? secret.trim() : '';
    const login = typeof query.login === 'string' ? query.login : '';
    const pwd = typeof query.pwd === 'string' ? query.pwd : '';
    const byLogin = policy === 'key-or-login' && login !== '';
    if (!key && !byLogin && !secretKey) throw new UnauthenticatedError(KEY_REQUIRED);
    const ok = (key !== '' && contains(keys, key)) || (secretKey !== '' && contains(keys, secretKey)) || (byLogin && contains(users, `${login}\u0000${pwd}`));
    if (!ok) throw new UnauthenticatedError(AUTH_FAILED);
  };
}

/** The operator key's check: always a check, refusing everything when no operator key is configured. */
function operatorCheck(operatorKey: string): Authenticate {
  if (!operatorKey) {
    return function refuse(): void {
      throw new PermissionDeniedError(OPERATOR_KEY_NOT_SET);
    };
  }
  const secrets = [digest(operatorKey)];
  return function authenticateOperator(authorization): void {
    const key = keyFromHeader(authorization);
    if (!key) throw new UnauthenticatedError(OPERATOR_KEY_REQUIRED);
    if (!contains(secrets, key)) throw new UnauthenticatedError(AUTH_FAILED);
  };
}
