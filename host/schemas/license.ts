/** PUT /license: `{key, force?}`; the license server's POST /license/renew: `{key}`. */
import { requestSchema } from './validator.js';

export interface LicenseKeyRequest {
  key: string;
}

export interface LicenseInstallRequest extends LicenseKeyRequest {
  /** install even a key that would narrow the license in force (expired, ending sooner, fewer countries) */
  force?: boolean;
}

const KEY = { type: 'string', minLength: 1, maxLength: 8192, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', 'x-message': 'ожидается ключ вида <payload>.<signature> (base64url)' };

export const licenseKeyRequest = requestSchema<LicenseKeyRequest>({
  $id: 'LicenseKeyRequest',
  type: 'object',
  properties: { key: KEY },
  required: ['key'],
});

export const licenseInstallRequest = requestSchema<LicenseInstallRequest>({
  $id: 'LicenseInstallRequest',
  type: 'object',
  properties: { key: KEY, force: { type: 'boolean' } },
  required: ['key'],
});
