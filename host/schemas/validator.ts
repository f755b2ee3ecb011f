/**
 * One ajv instance for every request schema, compiled once at import. A failed validation becomes an
 * `InvalidArgumentError` whose message names each bad JSON field in Russian, fields sorted, joined by
 * `; `, ending with `.`: `query: значение не может быть пустым.` (conventions.md).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { InvalidArgumentError } from '../errors.js';

/** A schema may carry `x-message`: the text for a failed `pattern`/`minLength` (`значение не может быть пустым`). */
export const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });

export const EMPTY = 'значение не может быть пустым';

const TYPE_WORDS: Record<string, string> = {
  string: 'строка',
  number: 'число',
  integer: 'целое число',
  object: 'объект',
  array: 'массив',
  boolean: 'логическое значение',
  null: 'null',
};

/** `/scopes/0/coordinates` → `scopes[0].coordinates` */
function fieldName(error: ErrorObject): string {
  const parts = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') parts.push(String((error.params as { missingProperty: string }).missingProperty));
  let name = '';
  for (const part of parts) name += /^\d+$/.test(part) ? `[${part}]` : name ? `.${part}` : part;
  return name || 'тело запроса';
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  switch (error.keyword) {
    case 'required':
      return EMPTY;
    case 'minLength':
      return typeof custom === 'string' ? custom : params.limit === 1 ? EMPTY : `длина должна быть не меньше ${params.limit} символов`;
    case 'pattern':
      return typeof custom === 'string' ? custom : 'неверный формат значения';
    case 'maxLength':
      return `длина должна быть не больше ${params.limit} символов`;
    case 'type': {
      const types = String(params.type).split(',').map((t) => TYPE_WORDS[t] ?? t);
      return `ожидается ${[...new Set(types)].join(' или ')}`;
    }
    case 'enum':
      return `недопустимое значение, допустимые: ${(params.allowedValues as unknown[]).filter((v) => v !== '').join(', ')}`;
    case 'maximum':
      return `значение должно быть не больше ${params.limit}`;
    case 'minimum':
      return `значение должно быть не меньше ${params.limit}`;
    case 'exclusiveMinimum':
      return `значение должно быть больше ${params.limit}`;
    case 'maxItems':
      return `не больше ${params.limit} элементов`;
    case 'additionalProperties':
      return `неизвестное поле ${String(params.additionalProperty)}`;
    default:
      return error.message ?? 'неверное значение';
  }
}

/** Russian message for ajv errors: one entry per field (its first error), fields sorted. */
export function formatErrors(errors: ErrorObject[]): string {
  const byField = new Map<string, string>();
  for (const error of errors) {
    let field = fieldName(error);
    if (error.keyword === 'additionalProperties') field = field === 'тело запроса' ? String((error.params as { additionalProperty: string }).additionalProperty) : `${field}.${String((error.params as { additionalProperty: string }).additionalProperty)}`;
    if (!byField.has(field)) byField.set(field, error.keyword === 'additionalProperties' ? 'неизвестное поле' : describe(error));
  }
  return [...byField].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([field, text]) => `${field}: ${text}`).join('; ') + '.';
}

export interface RequestSchema<T> {
  schema: Record<string, unknown>;
  /** validates (filling defaults in place) and returns the typed body, or throws InvalidArgumentError */
  parse(data: unknown): T;
}

export function requestSchema<T>(schema: Record<string, unknown>): RequestSchema<T> {
  const validate: ValidateFunction = ajv.compile(schema);
  return {
    schema,
    parse(data: unknown): T {
      if (validate(data)) return data as T;
      throw new InvalidArgumentError(formatErrors(validate.errors ?? []));
    },
  };
}
