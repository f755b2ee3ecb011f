/** PUT /license: `{key}` and the license server's POST /license/renew: `{key}`. */
import { requestSchema } from './validator.js';

export interface LicenseKeyRequest {
  key: string;
}

export const licenseKeyRequest = requestSchema<LicenseKeyRequest>({
  $id: 'LicenseKeyRequest',
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 8192, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', 'x-message': 'ожидается ключ вида <payload>.<signature> (base64url)' },
  },
  required: ['key'],
});
