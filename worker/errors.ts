// Services throw AppError; app.onError turns it into `{message, error}` with its status (DESIGN.md §8).
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, code = "invalid_input") => new AppError(400, code, message);
export const unauthorized = (message = "Authentication required", code = "unauthorized") => new AppError(401, code, message);
export const forbidden = (message = "You are not allowed to do this", code = "forbidden") => new AppError(403, code, message);
export const notFound = (message = "Not found", code = "not_found") => new AppError(404, code, message);
export const conflict = (message: string, code = "conflict") => new AppError(409, code, message);
export const tooLarge = (message: string, code = "too_large") => new AppError(413, code, message);
export const tooManyRequests = (message: string, code = "rate_limited") => new AppError(429, code, message);
