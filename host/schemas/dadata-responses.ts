/** JSON schemas of the DaData facade's answers, for the OpenAPI document and the tests that check real answers. */
import { DADATA_ADDRESS_FIELDS } from '../../engine/records/dadata-record.js';

const TEXT = { type: ['string', 'null'] };
const SPECIAL: Record<string, Record<string, unknown>> = {
  metro: {
    type: ['array', 'null'],
    items: { type: 'object', properties: { name: { type: 'string' }, line: { type: 'string' }, distance: { type: 'number' } }, required: ['name', 'line', 'distance'] },
  },
  divisions: { type: 'null' },
  qc_geo: { type: ['string', 'integer', 'null'] },
  qc_complete: { type: ['integer', 'null'] },
  qc_house: { type: ['integer', 'null'] },
  qc: { type: ['integer', 'null'] },
  history_values: { type: ['array', 'null'], items: { type: 'string' } },
};

export const DADATA_ADDRESS = {
  $id: 'DadataAddress',
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(DADATA_ADDRESS_FIELDS.map((field) => [field, SPECIAL[field] ?? TEXT])),
  required: [...DADATA_ADDRESS_FIELDS],
};

export const DADATA_SUGGESTIONS = {
  $id: 'DadataSuggestions',
  type: 'object',
  additionalProperties: false,
  properties: {
    suggestions: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { value: { type: 'string' }, unrestricted_value: { type: 'string' }, data: { $ref: 'DadataAddress' } },
        required: ['value', 'unrestricted_value', 'data'],
      },
    },
  },
  required: ['suggestions'],
};

export const DADATA_CLEAN_RESPONSE = { $id: 'DadataCleanResponse', type: 'array', items: { $ref: 'DadataAddress' } };

export const DADATA_RESPONSE_SCHEMAS = [DADATA_ADDRESS, DADATA_SUGGESTIONS, DADATA_CLEAN_RESPONSE];
