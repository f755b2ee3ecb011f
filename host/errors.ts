/**
 * Errors the host raises. Every failure leaves the service as `{code, message, details}` where `code` is
 * a gRPC status code (conventions.md); the HTTP status follows the canonical gRPC → HTTP mapping. Routes
 * throw these and never catch; `middleware/errors.ts` writes them.
 */

export const GrpcCode = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCodeNumber = (typeof GrpcCode)[keyof typeof GrpcCode];

/** Canonical gRPC → HTTP status mapping (google.rpc.Code documentation). */
const HTTP_STATUS: Record<number, number> = {
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

export function httpStatusOf(code: number): number {
  return HTTP_STATUS[code] ?? 500;
}

export class AppError extends Error {
  readonly code: GrpcCodeNumber;
  readonly details: unknown[];
  /** HTTP status; the canonical one for `code` unless a subclass needs a more precise one (405). */
  readonly status: number;

  constructor(code: GrpcCodeNumber, message: string, details: unknown[] = [], status = httpStatusOf(code)) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
    this.status = status;
  }
}

/** 400, code 3: the request is malformed or a field is out of its range. */
export class InvalidArgumentError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.INVALID_ARGUMENT, message, details);
  }
}

/** 404, code 5: the route, the identifier or the point has nothing behind it. */
export class NotFoundError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.NOT_FOUND, message, details);
  }
}

/** 400, code 9: the request is well formed but the installation cannot serve it (no dictionary). */
export class FailedPreconditionError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.FAILED_PRECONDITION, message, details);
  }
}

/** 403, code 7: the license does not allow the call. */
export class PermissionDeniedError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.PERMISSION_DENIED, message, details);
  }
}

/** 401, code 16: no or wrong credentials. */
export class UnauthenticatedError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.UNAUTHENTICATED, message, details);
  }
}

/** 405, code 12: the route exists but not for this HTTP method. */
export class MethodNotAllowedError extends AppError {
  constructor(method: string, allowed: string[]) {
    super(GrpcCode.UNIMPLEMENTED, `метод ${method} не поддерживается, используйте ${allowed.join(', ')}`, [], 405);
  }
}

/** 503, code 14: the service cannot answer now (dictionaries not loaded, shutting down). */
export class UnavailableError extends AppError {
  constructor(message: string, details: unknown[] = []) {
    super(GrpcCode.UNAVAILABLE, message, details);
  }
}

/**
 * 499, code 1: the client closed the connection before its request was read in full. Not the service's fault:
 * logged as the request's line (no stack), counted under 499, never as a 500.
 */
export class ClientClosedRequestError extends AppError {
  constructor(message = 'клиент закрыл соединение, не дослав запрос') {
    super(GrpcCode.CANCELLED, message);
  }
}

/** 408, code 4: the request (its headers or its body) did not arrive within ReadTimeout. */
export class RequestTimeoutError extends AppError {
  constructor(message = 'запрос не получен за ReadTimeout.') {
    super(GrpcCode.DEADLINE_EXCEEDED, message, [], 408);
  }
}

/** 500, code 13: a bug or an engine failure; the message given to the client stays generic. */
export class InternalError extends AppError {
  constructor(message = 'внутренняя ошибка сервиса', details: unknown[] = []) {
    super(GrpcCode.INTERNAL, message, details);
  }
}
